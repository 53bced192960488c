"""Every staged equation records where it was staged: the user's frames (file, function, span of source) and the
name stack of the scopes and transformations it was staged under, as JAX's equations do."""

import inspect

import numpy as np

import jaxle_core as jc
from jaxle_core import lax
from jaxle_core.core import NameTransform
from jaxle_core.source_info import name_stack_text, user_frames

X = np.arange(3, dtype=np.float32)


def _span(fun, text):
    """(line, first column, end column) of ``text`` in ``fun``'s source, read from this file."""
    lines, first = inspect.getsourcelines(fun)
    for i, line in enumerate(lines):
        if text in line:
            column = line.index(text)
            return first + i, column, column + len(text)
    raise AssertionError(f"{text!r} not in {fun.__name__}")


def _where(eqn):
    """The innermost user frame of ``eqn`` as (function, line, first column, end column), and its name stack."""
    frame = user_frames(eqn.source[0])[0]
    return (frame.function, frame.start_line, frame.start_column, frame.end_column), name_stack_text(eqn.source[1])


def _sine_square(x):
    y = lax.sin(x)
    return lax.mul(y, y)


def _expected(fun, text):
    line, start, end = _span(fun, text)
    return (fun.__qualname__, line, start, end)


def test_equations_record_the_users_line_and_its_callers():
    eqns = jc.make_jaxpr(_sine_square)(X).jaxpr.eqns
    assert [_where(e) for e in eqns] == [(_expected(_sine_square, "lax.sin(x)"), ""),
                                        (_expected(_sine_square, "lax.mul(y, y)"), "")]
    frames = user_frames(eqns[0].source[0])
    assert frames[0].file == __file__
    # the next frame out is this test's call of make_jaxpr
    assert frames[1].function == "test_equations_record_the_users_line_and_its_callers"
    assert frames[1].start_line == _span(test_equations_record_the_users_line_and_its_callers,
                                         "jc.make_jaxpr(_sine_square)(X)")[0]


def test_differentiation_names_the_forward_and_transposed_equations():
    def loss(x):
        return lax.reduce_sum(_sine_square(x), (0,))

    eqns = jc.make_jaxpr(jc.grad(loss))(X).jaxpr.eqns
    stacks = [(e.primitive.name, _where(e)[1]) for e in eqns]
    assert stacks[:4] == [("sin", "jvp()"), ("cos", "jvp()"), ("mul", "jvp()"), ("reduce_sum", "jvp()")]
    assert {stack for _, stack in stacks[4:]} == {"transpose(jvp())"}
    # a transposed equation is located where the equation it transposes was staged: the two products of the
    # square's, and the one of the sine's (its cosine times the cotangent)
    mul, sin = _expected(_sine_square, "lax.mul(y, y)"), _expected(_sine_square, "lax.sin(x)")
    assert sorted(_where(e)[0] for e in eqns[4:] if e.primitive.name == "mul") == sorted([mul, mul, sin])


def test_vmap_and_named_scopes_wrap_the_names():
    def scoped(x):
        with jc.named_scope("outer"):
            return lax.cos(x)

    (eqn,) = jc.make_jaxpr(jc.vmap(scoped))(np.ones((2, 3), np.float32)).jaxpr.eqns
    assert _where(eqn) == (_expected(scoped, "lax.cos(x)"), "vmap(outer)")


def test_a_jitted_functions_equations_name_the_stack_from_its_own_start():
    inner = jc.jit(_sine_square)
    outer = jc.make_jaxpr(jc.vmap(lambda x: inner(x)))(np.ones((2, 3), np.float32))
    (call,) = outer.jaxpr.eqns
    assert name_stack_text(call.source[1]) == "vmap()"
    body = call.params["jaxpr"].jaxpr.eqns
    assert [_where(e) for e in body] == [(_expected(_sine_square, "lax.sin(x)"), ""),
                                        (_expected(_sine_square, "lax.mul(y, y)"), "")]


def test_name_stack_text_wraps_the_name_after_a_transformation():
    assert name_stack_text(()) == ""
    assert name_stack_text((NameTransform("vmap"),)) == "vmap()"
    assert name_stack_text(("a", NameTransform("jvp"), "b", "c")) == "a/jvp(b)/c"
    assert name_stack_text((NameTransform("transpose"), NameTransform("jvp"))) == "transpose(jvp())"
