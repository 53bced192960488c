"""Functions whose printed jaxprs are compared with JAX 0.10.2's text, character for character.

Each case is ``(name, build, args)``: ``build(lax, jit)`` returns the function
to trace, written only with ``lax`` functions, ``jit`` and Python operators so
that the same code runs on JAX (golden generation, ``jaxpr_text_make.py``) and
on jaxle (``test_pretty.py``). ``args`` builds the example arguments (NumPy).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

f32 = np.float32
CASES: list[tuple[str, Callable[[Any, Any], Callable], Callable[[], tuple]]] = []


def case(name: str, *args: Any):
    """Register ``build`` under ``name``, traced on ``args``."""

    def register(build):
        CASES.append((name, build, lambda: args))
        return build

    return register


def scalar(value=1.0, dtype=f32):
    return np.asarray(value, dtype)[()]


def ones(shape, dtype=f32):
    return np.ones(shape, dtype)


# ---------------------------------------------------------------- one-liners and layout


@case("sin_cos", scalar(3.0))  # seed 000: make_jaxpr(f)(3.0)
def _(lax, jit):
    return lambda x: lax.sin(lax.cos(x))


@case("seed003_func1", np.zeros(8, f32), np.ones(8, f32))
def _(lax, jit):
    def func1(first, second):
        temp = lax.add(first, lax.mul(lax.sin(second), np.float32(3.0)))
        return lax.reduce_sum(temp, (0,))

    return func1


@case("seed003_func4_pytree", (np.zeros(8, f32), np.ones(8, f32)))
def _(lax, jit):
    def func4(arg):
        temp = lax.add(arg[0], lax.mul(lax.sin(arg[1]), np.float32(3.0)))
        return lax.reduce_sum(temp, (0,))

    return func4


@case("seed003_func3_python_control_flow", np.zeros(8, f32), np.ones(8, f32))
def _(lax, jit):
    def inner(second):
        if second.shape[0] > 4:
            return lax.sin(second)
        raise AssertionError

    def func3(first, second):
        return lax.reduce_sum(lax.add(first, lax.mul(inner(second), np.float32(3.0))), (0,))

    return func3


@case("identity", scalar())
def _(lax, jit):
    return lambda x: x


@case("no_inputs_literal_output")
def _(lax, jit):
    return lambda: np.float32(2.0)


@case("several_outputs", scalar(), ones(3))
def _(lax, jit):
    return lambda x, y: (lax.sin(x), y, x, lax.neg(y))


@case("unused_outputs", scalar(), scalar())
def _(lax, jit):
    def f(x, y):
        lax.cos(x)
        lax.add(x, y)
        return lax.sin(x)

    return f


@case("unused_chain", scalar())
def _(lax, jit):
    def f(x):
        a = lax.exp(x)
        lax.log(a)  # uses a, so only this one is unused
        return lax.neg(x)

    return f


@case("all_elementwise", scalar(), scalar())
def _(lax, jit):
    def f(x, y):
        return (lax.add(x, y), lax.sub(x, y), lax.mul(x, y), lax.div(x, y), lax.neg(x), lax.max(x, y),
                lax.min(x, y), lax.exp(x), lax.log(x), lax.tanh(x), lax.sin(x), lax.cos(y))

    return f


@case("comparisons", ones(3, np.int32), ones(3, np.int32))
def _(lax, jit):
    return lambda x, y: (lax.eq(x, y), lax.ne(x, y), lax.lt(x, y), lax.le(x, y), lax.gt(x, y), lax.ge(x, y))


@case("integer_arithmetic", ones((2, 2), np.int32), ones((2, 2), np.int32))
def _(lax, jit):
    return lambda x, y: lax.rem(lax.div(x, y), lax.max(x, lax.min(x, y)))


@case("constvars", ones(3))
def _(lax, jit):
    c = np.arange(3.0, dtype=f32)
    d = np.arange(6, dtype=np.int32).reshape(2, 3)
    return lambda x: (lax.add(x, c), lax.mul(d, np.int32(2)), lax.sub(c, x))


# ---------------------------------------------------------------- literals


@case("literal_f32_exact_and_inexact", scalar())
def _(lax, jit):
    return lambda x: lax.add(lax.mul(x, np.float32(0.1)), np.float32(2.0))


@case("literal_python_float_keeps_value", scalar())
def _(lax, jit):
    return lambda x: lax.add(lax.mul(x, 0.1), 1e40)


@case("literal_float64_numpy_scalar", scalar())
def _(lax, jit):
    return lambda x: lax.mul(x, np.float64(0.1))


@case("literal_zero_d_array", scalar())
def _(lax, jit):
    return lambda x: lax.mul(x, np.array(2.5, np.float64))


@case("literal_ints", scalar(1, np.int32))
def _(lax, jit):
    return lambda x: lax.sub(lax.add(x, 2), np.int32(-3))


@case("literal_uint8", scalar(1, np.uint8))
def _(lax, jit):
    return lambda x: lax.add(x, np.uint8(255))


@case("literal_bool", scalar(True, np.bool_))
def _(lax, jit):
    return lambda x: lax.ne(lax.eq(x, True), np.bool_(False))


@case("literal_special_floats", scalar())
def _(lax, jit):
    return lambda x: lax.sub(lax.add(lax.max(x, f32(np.nan)), f32(np.inf)), f32(-np.inf))


@case("literal_negative_zero", scalar())
def _(lax, jit):
    return lambda x: lax.add(x, f32(-0.0))


@case("literal_complex", scalar(1, np.complex64))
def _(lax, jit):
    return lambda x: lax.add(lax.mul(x, 1 + 0.5j), np.complex64(-2j))


@case("literal_float16", scalar(1, np.float16))
def _(lax, jit):
    return lambda x: lax.mul(x, np.float16(1e-3))


@case("literal_bfloat16", scalar())
def _(lax, jit):
    import ml_dtypes

    bf16 = ml_dtypes.bfloat16
    return lambda x: lax.mul(lax.convert_element_type(x, bf16), bf16(2.5))


# ---------------------------------------------------------------- structural primitives and params


@case("convert_element_type", ones(3))
def _(lax, jit):
    return lambda x: (lax.convert_element_type(x, np.int32), lax.convert_element_type(x, np.bool_),
                      lax.convert_element_type(x, np.float16))


@case("broadcast_in_dim", ones(3), scalar())
def _(lax, jit):
    return lambda x, y: (lax.broadcast_in_dim(x, (2, 3), (1,)), lax.broadcast_in_dim(y, (4,), ()),
                         lax.broadcast_in_dim(1.0, (2,), ()))


@case("reshape_squeeze_transpose", ones((2, 3)))
def _(lax, jit):
    def f(x):
        y = lax.reshape(x, (3, 1, 2))
        z = lax.squeeze(y, (1,))
        return lax.transpose(z, (1, 0)), lax.reshape(x, (6,), (1, 0))

    return f


@case("slices", ones((4, 6)))
def _(lax, jit):
    return lambda x: (lax.slice(x, (1, 0), (3, 6)), lax.slice(x, (0, 1), (4, 6), (2, 3)))


@case("reduce_sum", ones((2, 3, 4)))
def _(lax, jit):
    return lambda x: (lax.reduce_sum(x, (0, 2)), lax.reduce_sum(x, (1,)), lax.reduce_sum(x, ()))


@case("long_params_break", ones((2, 3, 4, 5, 6, 7, 8)))
def _(lax, jit):
    return lambda x: lax.transpose(lax.reshape(x, (8, 7, 6, 5, 4, 3, 2)), (6, 5, 4, 3, 2, 1, 0))


@case("long_params_break_slice", ones((20, 30, 40, 50)))
def _(lax, jit):
    return lambda x: lax.slice(x, (1, 2, 3, 4), (11, 22, 33, 44), (1, 2, 3, 4))


# ---------------------------------------------------------------- line breaking


@case("many_eqns_names_past_z", scalar())
def _(lax, jit):
    def f(x):
        for _ in range(60):
            x = lax.sin(x)
        return x

    return f


@case("names_past_zz", scalar())
def _(lax, jit):
    def f(x):
        for _ in range(700):
            x = lax.neg(x)
        return x

    return f


@case("many_inputs_fill_lines", *[scalar()] * 40)
def _(lax, jit):
    return lambda *xs: lax.add(xs[0], xs[-1])


@case("many_outputs_fill_lines", scalar())
def _(lax, jit):
    return lambda x: tuple(x for _ in range(40))


@case("many_constvars", scalar())
def _(lax, jit):
    consts = [np.full((2,), i, f32) for i in range(12)]

    def f(x):
        for c in consts:
            x = lax.add(x, c)
        return x

    return f


# Flat widths around the 80-column limit (the closing " }" is not counted).
for _k, (_shape, _ops) in enumerate([((1, 1), ("cos", "sin")), ((1, 1, 1), ("cos", "sin")),
                                     ((1, 1, 1), ("cos", "tanh")), ((1, 1, 1), ("tanh", "tanh")),
                                     ((10, 1, 1), ("cos", "sin")), ((1, 1, 1, 1), ("cos", "sin"))]):
    def _build(lax, jit, ops=_ops):
        return lambda x: getattr(lax, ops[1])(getattr(lax, ops[0])(x))

    CASES.append((f"width_boundary_{_k}", _build, lambda shape=_shape: (ones(shape),)))


# A whole line of 80 columns stays flat, 81 breaks; `let name = ... in` lines may reach 83 (" in" is not counted).
for _shape in [(1,) * 23, (1,) * 22 + (10,), (1,) * 24, (1,) * 23 + (10,)]:
    CASES.append((f"width_identity_{len(_shape)}_{_shape[-1]}", lambda lax, jit: (lambda x: x),
                   lambda shape=_shape: (ones(shape),)))
for _shape in [(1,) * 17, (1,) * 16 + (10,)]:
    def _build_shared(lax, jit):
        g = jit(lambda y: y)
        return lambda x: g(g(x))

    CASES.append((f"width_shared_{len(_shape)}_{_shape[-1]}", _build_shared, lambda shape=_shape: (ones(shape),)))


@case("long_eqn_lhs_breaks", scalar())
def _(lax, jit):
    return lambda x: jit(lambda y: tuple(lax.neg(y) for _ in range(30)))(x)


# ---------------------------------------------------------------- jit


@case("jit_simple", scalar())
def _(lax, jit):
    return lambda x: lax.add(jit(lambda y: lax.mul(y, 2.0))(x), 1.0)


@case("jit_nested_three_deep", scalar())
def _(lax, jit):
    inner = lambda z: lax.mul(lax.sin(z), 2.0)
    middle = lambda y: lax.add(jit(inner)(y), 1.0)
    return lambda x: lax.mul(jit(middle)(x), 3.0)


@case("jit_literal_and_repeated_args", scalar())
def _(lax, jit):
    return lambda x: jit(lambda a, b, c: (lax.add(a, b), c, a))(x, 2.0, x)


@case("jit_same_arg_twice", scalar())
def _(lax, jit):
    return lambda x: jit(lambda a, b: (lax.mul(a, b), lax.mul(a, b)))(x, x)


@case("jit_returns_input_unused_input", scalar(), scalar())
def _(lax, jit):
    return lambda x, y: jit(lambda a, b: a)(x, y)


@case("jit_dropped_output", scalar(), scalar())
def _(lax, jit):
    return lambda x, y: jit(lambda a, b: (a, np.float32(3.0)))(x, y)[1]


@case("jit_dropped_computed_output", scalar())
def _(lax, jit):
    return lambda x: jit(lambda a: (lax.sin(a), lax.cos(a)))(x)[1]


@case("jit_no_arguments", scalar())
def _(lax, jit):
    return lambda x: jit(lambda: np.float32(1.0))()


@case("jit_closure_over_outer_tracer", scalar(), scalar())
def _(lax, jit):
    return lambda x, y: jit(lambda z: lax.mul(z, x))(y)


@case("jit_closure_over_numpy_constant", ones(3))
def _(lax, jit):
    c = np.arange(3.0, dtype=f32)
    return lambda x: jit(lambda y: lax.add(y, c))(x)


@case("seed003_func12", scalar())
def _(lax, jit):
    def func12(arg):
        @jit
        def inner(x):
            ones = lax.broadcast_in_dim(1.0, (1,), ())
            return lax.add(lax.convert_element_type(x, f32),
                           lax.mul(lax.convert_element_type(arg, f32), ones))

        return lax.add(lax.convert_element_type(arg, f32), inner(lax.sub(arg, 2.0)))

    return func12


@case("jit_shared_twice", scalar())
def _(lax, jit):
    g = jit(lambda z: lax.sin(z))
    return lambda x: g(g(x))


@case("jit_two_shared_functions", scalar())
def _(lax, jit):
    @jit
    def foo(x):
        return lax.sin(x)

    @jit
    def bar(x):
        return lax.cos(x)

    return lambda x: bar(foo(bar(foo(x))))


@case("jit_shared_names_collide", scalar())
def _(lax, jit):
    def make():
        @jit
        def f(x):
            return lax.exp(x)

        return f

    f1, f2 = make(), make()
    return lambda x: f2(f2(f1(f1(x))))


@case("jit_shared_inside_inline_jit", scalar())
def _(lax, jit):
    @jit
    def foo(x):
        return lax.sin(x)

    @jit
    def outer(x):
        return foo(foo(x))

    return lambda x: lax.add(outer(x), foo(x))


@case("jit_shared_contains_shared", scalar())
def _(lax, jit):
    @jit
    def foo(x):
        return lax.sin(x)

    @jit
    def outer(x):
        return lax.cos(foo(x))

    return lambda x: outer(outer(x))


@case("jit_shared_name_skips_var_name", scalar())
def _(lax, jit):
    @jit
    def c(x):
        return lax.sin(x)

    return lambda x: c(c(x))


@case("jit_long_body_hoisted", scalar())
def _(lax, jit):
    @jit
    def long_body(x):
        for _ in range(11):
            x = lax.sin(x)
        return x

    return lambda x: lax.neg(long_body(x))


@case("jit_ten_eqn_body_inline", scalar())
def _(lax, jit):
    @jit
    def ten(x):
        for _ in range(10):
            x = lax.sin(x)
        return x

    return lambda x: lax.neg(ten(x))


@case("jit_inner_unused_eqn_named", scalar())
def _(lax, jit):
    def body(y):
        lax.cos(y)
        return lax.sin(y)

    return lambda x: jit(body)(x)


@case("jit_multi_line_inner", ones((2, 3)))
def _(lax, jit):
    def body(y):
        z = lax.reshape(y, (3, 2))
        return lax.reduce_sum(lax.transpose(z, (1, 0)), (1,)), lax.broadcast_in_dim(z, (4, 3, 2), (1, 2))

    return lambda x: jit(body)(x)


# ---------------------------------------------------------------- Python operators


@case("operators_same_dtype", scalar(), scalar())
def _(lax, jit):
    return lambda x, y: (x + y, x - y, x * y, x / y, -x, x < y, x >= y, x == y, x != y)


@case("operators_python_scalars", scalar())
def _(lax, jit):
    return lambda x: (x * 2.0, 3.0 - x, x / 4.5, 1.5 + x)


@case("operators_numpy_scalars", scalar())
def _(lax, jit):
    return lambda x: (x * np.float32(2.0), x + np.float32(0.1))


@case("operators_integers", ones(3, np.int32))
def _(lax, jit):
    return lambda x: (x + 1, x * x, x - np.int32(7))


@case("operators_rank_promotion", ones((2, 3)), ones(3))
def _(lax, jit):
    return lambda x, y: x + y


@case("operators_weak_strong_mix", ones(3))
def _(lax, jit):
    return lambda x: jit(lambda y: y * 2.0)(x) + 1.0


@case("seed003_func1_operators", np.zeros(8, f32), np.ones(8, f32))
def _(lax, jit):
    return lambda first, second: lax.reduce_sum(first + lax.sin(second) * 3.0, (0,))


@case("methods_reshape_transpose_astype", ones((2, 3)))
def _(lax, jit):
    return lambda x: (x.reshape(3, 2), x.T, x.astype(np.int32))


@case("getitem_static", ones((4, 5)))
def _(lax, jit):
    return lambda x: (x[1], x[1:3], x[:, 2])


# An integer index out of range is applied as a dynamic index, which clamps it into range.
@case("getitem_static_out_of_range", ones((3, 4)))
def _(lax, jit):
    return lambda x: (x[10], x[-10], x[1, 7])


@case("operators_int_scalars_with_floats", ones(3))
def _(lax, jit):
    return lambda x: (3 - x, x / 4, x * 2)


@case("operators_matmul", ones(2), ones((2, 3)), ones((4, 2)))
def _(lax, jit):
    return lambda v, m, w: (v @ m, w @ v, w @ m)


@case("operators_strong_scalar_conversion", ones(3))
def _(lax, jit):
    return lambda x: (x * np.float16(2), x * np.ones(3, np.float16))


@case("jit_inline", scalar())
def _(lax, jit):
    return lambda x: jit(lambda y: lax.mul(y, 2.0), inline=True)(x) + 1.0


@case("stop_gradient_pytree_and_copy", scalar())
def _(lax, jit):
    return lambda x: (lax.stop_gradient((x, 2 * x, np.int32(1))), lax.copy_p.bind(x))


@case("mulhi", ones(3, np.int32))
def _(lax, jit):
    return lambda x: lax.mulhi(x, x)


@case("jit_params_shown_when_not_default", scalar(), scalar())
def _(lax, jit):
    donating = jit(lambda a, b: lax.add(a, b), donate_argnums=(1,))
    keeping = jit(lambda a, b: lax.sin(a), keep_unused=True)
    return lambda x, y: (donating(x, y), keeping(x, y))



# ---------------------------------------------------------------- control flow traced once per function
# A function traced again on the same types is the same jaxpr, printed once as ``let jaxpr = ... in``.

_TABLE = np.arange(3, dtype=f32)


def _sin_twice(lax):
    return lambda x: lax.mul(lax.sin(x), 2.0)


def _sin_times_table(lax):
    return lambda x: lax.mul(lax.sin(x), _TABLE)


@case("cond_same_function_both_branches", True, scalar())
def _(lax, jit):
    f = _sin_twice(lax)
    return lambda p, x: lax.cond(p, f, f, x)


@case("cond_same_functions_twice", True, scalar())
def _(lax, jit):
    f, g = _sin_twice(lax), lax.cos
    return lambda p, x: lax.add(lax.cond(p, f, g, x), lax.cond(p, f, g, x))


@case("cond_same_function_with_constants", True, ones(3))
def _(lax, jit):
    f = _sin_times_table(lax)
    return lambda p, x: lax.cond(p, f, f, x)


@case("cond_same_closure_over_tracer", scalar())
def _(lax, jit):
    def h(y):
        k = lambda x: lax.mul(x, y)  # noqa: E731
        return lax.cond(lax.gt(y, 0.0), k, k, y)

    return h


@case("switch_shared_branch_padded", np.int32(1), ones(3))
def _(lax, jit):
    g = lambda x: lax.mul(x, 2.0)  # noqa: E731
    return lambda i, x: lax.switch(i, [g, g, _sin_times_table(lax)], x)


@case("while_same_functions_twice", scalar())
def _(lax, jit):
    cond = lambda c: lax.lt(c, 3.0)  # noqa: E731
    body = lambda c: lax.add(c, 1.0)  # noqa: E731
    return lambda x: lax.add(lax.while_loop(cond, body, x), lax.while_loop(cond, body, x))


@case("fori_same_body_twice", scalar(), scalar())
def _(lax, jit):
    body = lambda i, c: lax.add(c, lax.convert_element_type(i, np.float32))  # noqa: E731
    return lambda x, n: (lax.add(lax.fori_loop(0, 3, body, x), lax.fori_loop(0, 3, body, x)),
                         lax.fori_loop(0, lax.convert_element_type(n, np.int32), body, x),
                         lax.fori_loop(0, lax.convert_element_type(n, np.int32), body, x))


@case("scan_same_body_twice", ones(3))
def _(lax, jit):
    def body(c, x):
        return lax.add(c, lax.sin(x)), c

    return lambda xs: lax.add(lax.scan(body, np.float32(0), xs)[0], lax.scan(body, np.float32(0), xs)[0])


# ---------------------------------------------------------------- dead-code elimination

# ``(name, build, args, used_outputs, instantiate)``: the jaxpr of ``build(lax, jit)``
# pruned by ``dce_jaxpr``; goldens hold the printed result and the used-inputs flags.
DCE_CASES: list[tuple[str, Callable, Callable[[], tuple], list[bool], Any]] = [
    ("dce_drop_outputs_and_inputs", lambda lax, jit: lambda x, y, z: (lax.sin(x), lax.cos(y), lax.add(x, y)),
     lambda: (scalar(), scalar(), scalar()), [True, False, False], False),
    ("dce_instantiate_inputs", lambda lax, jit: lambda x, y, z: (lax.sin(x), lax.cos(y)),
     lambda: (scalar(), scalar(), scalar()), [False, True], [True, False, False]),
    ("dce_instantiate_all", lambda lax, jit: lambda x, y: lax.neg(y),
     lambda: (scalar(), scalar()), [True], True),
    ("dce_chain_keeps_needed", lambda lax, jit: lambda x: (lax.log(lax.exp(x)), lax.tanh(lax.exp(x))),
     lambda: (scalar(),), [False, True], False),
    ("dce_inside_jit", lambda lax, jit: lambda x, y: jit(lambda a, b: (lax.sin(a), lax.cos(b), lax.exp(a)))(x, y),
     lambda: (scalar(), scalar()), [False, True, False], False),
    ("dce_jit_unused_entirely", lambda lax, jit: lambda x: (jit(lambda a: lax.sin(a))(x), lax.cos(x)),
     lambda: (scalar(),), [False, True], False),
    ("dce_literal_and_input_outputs", lambda lax, jit: lambda x, y: (x, np.float32(2.0), y),
     lambda: (scalar(), scalar()), [True, True, False], False),
    ("dce_constvars_kept", lambda lax, jit: lambda x: (lax.add(x, np.arange(3.0, dtype=f32)), lax.neg(x)),
     lambda: (ones(3),), [False, True], False),
]
