"""The trace stack: staging, nesting, concretization errors and escaped tracers."""

import numpy as np
import pytest

import jaxle_core as jc
from jaxle_core import errors, lax
from jaxle_core.avals import ShapedArray


def f32(*values):
    return np.asarray(values, np.float32)


def test_make_jaxpr_records_equations_with_avals():
    closed = jc.make_jaxpr(lambda x: lax.sin(x) * 2.0 + x[0])(f32(1, 2, 3))
    assert [e.primitive.name for e in closed.eqns] == ["sin", "mul", "slice", "squeeze", "add"]
    assert closed.in_avals == [ShapedArray((3,), np.float32)]
    assert closed.out_avals == [ShapedArray((3,), np.float32)]
    mul = closed.eqns[1]
    assert mul.invars[1].val == 2.0 and mul.invars[1].aval == ShapedArray((), np.float32, weak_type=True)


def test_python_scalar_argument_is_weakly_typed():
    closed = jc.make_jaxpr(lambda x: x)(1.0)
    assert closed.in_avals == [ShapedArray((), np.float32, weak_type=True)]


def test_array_constants_are_hoisted_and_scalars_inlined():
    const = np.ones(3, np.float32)
    closed = jc.make_jaxpr(lambda x: x * const + 1.0)(np.float32(2))
    assert len(closed.jaxpr.constvars) == 1 and closed.consts[0] is const
    assert any(type(a).__name__ == "Literal" for a in closed.eqns[-1].invars)


def test_closed_jaxpr_evaluates_like_the_function():
    def fun(x):
        return lax.exp(x) - lax.cos(x) * x

    x = f32(0.5, -1.0, 2.0)
    closed = jc.make_jaxpr(fun)(x)
    (out,) = closed(x)
    np.testing.assert_allclose(np.asarray(out), np.exp(x) - np.cos(x) * x, rtol=1e-6)


def test_unused_equations_are_kept_by_make_jaxpr():
    def fun(x):
        lax.cos(x)
        return lax.sin(x)

    assert [e.primitive.name for e in jc.make_jaxpr(fun)(1.0).eqns] == ["cos", "sin"]


@pytest.mark.parametrize("convert, error", [
    (bool, errors.TracerBoolConversionError),
    (int, errors.ConcretizationTypeError),
    (float, errors.ConcretizationTypeError),
    (np.asarray, errors.TracerArrayConversionError),
    (lambda x: range(x), errors.TracerIntegerConversionError),
])
def test_concretizing_a_tracer_raises(convert, error):
    with pytest.raises(error) as info:
        jc.jit(lambda x, y: convert(y))(1, 2)
    message = str(info.value)
    assert "argument y" in message and "jit" in message


def test_concrete_or_error_passes_values_and_refuses_tracers():
    value = np.ones(2)
    assert jc.core.concrete_or_error(value, "unused") is value

    def needs_value(x, y):
        return jc.core.concrete_or_error(y, "The error arose in f().")

    with pytest.raises(errors.ConcretizationTypeError) as info:
        jc.jit(needs_value)(1, f32(1, 2))
    lines = str(info.value).splitlines()
    assert lines[:2] == ["Abstract tracer value encountered where concrete value is expected: traced array with "
                         "shape float32[2]", "The error arose in f()."]
    assert "argument y" in lines[2]


def test_bool_error_is_a_concretization_error_and_a_type_error():
    assert issubclass(errors.TracerBoolConversionError, errors.ConcretizationTypeError)
    assert issubclass(errors.ConcretizationTypeError, TypeError)
    assert issubclass(errors.UnexpectedTracerError, TypeError)


def test_escaped_tracer_is_detected():
    leaked = []

    def fun(x):
        leaked.append(x)
        return x

    jc.jit(fun)(1.0)
    with pytest.raises(errors.UnexpectedTracerError, match="escape the scope"):
        leaked[0] + 1.0
    with pytest.raises(errors.UnexpectedTracerError):
        jc.make_jaxpr(lambda y: y * leaked[0])(1.0)


def test_inner_trace_sees_outer_tracer_as_constant():
    def outer(x):
        return jc.jit(lambda y: y * np.ones(3, np.float32) + x)(x)

    closed = jc.make_jaxpr(outer)(np.float32(1))
    (eqn,) = closed.eqns
    assert eqn.primitive.name == "jit"
    # as JAX's: with a tracer closed over, every constant (the ones, then x) becomes an operand
    assert len(eqn.invars) == 3 and eqn.invars[1] is eqn.invars[2] is closed.jaxpr.invars[0]
    inner = eqn.params["jaxpr"]
    assert not inner.jaxpr.constvars and closed.jaxpr.constvars == [eqn.invars[0]]
    np.testing.assert_array_equal(np.asarray(closed.consts[0]), np.ones(3, np.float32))
    (out,) = closed(np.float32(2))
    np.testing.assert_allclose(np.asarray(out), [4.0, 4.0, 4.0])


def test_non_array_argument_is_a_type_error():
    with pytest.raises(TypeError, match="str"):
        jc.jit(lambda x: x)("add")
    with pytest.raises(TypeError, match="Error interpreting argument to add as a JAX value"):
        lax.add("add", 1.0)


def test_tracer_operators_and_methods():
    def fun(x):
        return ((x + 1) * 2 - x / 4) ** 2, -x, x.T, x.reshape(-1), x.astype(np.int32), x[::-1][0], x.shape, x.ndim

    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = jc.jit(fun, static_argnums=())(x)
    np.testing.assert_allclose(np.asarray(out[0]), ((x + 1) * 2 - x / 4) ** 2, rtol=1e-6)
    np.testing.assert_array_equal(np.asarray(out[1]), -x)
    np.testing.assert_array_equal(np.asarray(out[2]), x.T)
    np.testing.assert_array_equal(np.asarray(out[3]), x.reshape(-1))
    assert np.asarray(out[4]).dtype == np.int32
    np.testing.assert_array_equal(np.asarray(out[5]), x[::-1][0])


def test_operators_promote_like_numpy_with_weak_types():
    i = np.arange(3, dtype=np.int32)
    assert (jc.eval_shape(lambda x: x + 1, i)).dtype == np.int32
    assert (jc.eval_shape(lambda x: x + 1.0, i)).dtype == np.float32
    assert (jc.eval_shape(lambda x: x / 2, i)).dtype == np.float32
    out = jc.eval_shape(lambda x: x * 2.0, 1.0)
    assert out.dtype == np.float32 and out.weak_type
    assert jc.eval_shape(lambda x, y: x + y, i, np.ones((2, 1), np.float32)).shape == (2, 3)


@pytest.mark.parametrize("x, y", [(7, 2), (-7, 2), (7, -2), (-7, -2)])
def test_floor_division_and_modulo_follow_python(x, y):
    a, b = np.int32(x), np.int32(y)
    assert int(jc.jit(lambda p, q: p // q)(a, b)) == x // y
    assert int(jc.jit(lambda p, q: p % q)(a, b)) == x % y
    assert float(jc.jit(lambda p, q: p % q)(np.float32(x), np.float32(y))) == x % y


def test_basic_indexing_matches_numpy():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    for index in [0, -1, (1, 2), (slice(None), 1), (Ellipsis, 2), (None, 0), (slice(1, None), slice(None, None, 2)),
                  (0, slice(None, None, -1), None, 3)]:
        got = jc.jit(lambda a, i=index: a[i])(x)
        np.testing.assert_array_equal(np.asarray(got), x[index])
    # out-of-range integers are clamped into range, as JAX does (not an IndexError as in NumPy)
    for index, clamped in [(5, 1), (-9, 0), ((1, 7), (1, 2)), ((0, -1, 4), (0, 2, 3))]:
        np.testing.assert_array_equal(np.asarray(jc.jit(lambda a, i=index: a[i])(x)), x[clamped])


def test_ensure_compile_time_eval_computes_concretely_inside_jit():
    seen = []

    def fun(x):
        with jc.ensure_compile_time_eval():
            y = lax.add(np.float32(2), np.float32(3))
            seen.append(float(y))
        return x * y

    assert float(jc.jit(fun)(np.float32(2))) == 10.0
    assert seen == [5.0]


def test_ensure_compile_time_eval_on_tracers_of_nested_traces_uses_the_innermost():
    # An operand of the enclosing jit beside one of the grad inside it: grad's trace (the inner one) must take the
    # operation, or jit's would capture grad's tracer as a constant and it would escape (JAX 0.10.2: 12.0).
    def fun(x, flag):
        def inner(y):
            with jc.ensure_compile_time_eval():
                w = lax.add(flag, y)
            return lax.mul(w, y)

        return jc.grad(inner)(x)

    assert float(jc.jit(fun)(np.float32(2), np.float32(8))) == 12.0


def test_tracers_print_as_jax_prints_them():
    # What JAX 0.10.2 prints for a value traced by jit (weak types marked "~") and by vmap.
    printed = []

    def show(x):
        printed.append(str(x))
        return x

    jc.jit(show)(np.arange(3, dtype=np.int32))
    jc.jit(show)(1.0)
    jc.vmap(show)(np.arange(3.0, dtype=np.float32))
    jc.vmap(show, in_axes=1)(np.ones((2, 3), np.float32))
    jc.grad(show)(1.0)
    jc.jvp(show, (np.ones(2, np.float32),), (np.ones(2, np.float32),))
    jc.jit(jc.grad(show))(1.0)
    assert printed == ["JitTracer(int32[3])", "JitTracer(~float32[])", "VmapTracer(aval=float32[], batched=float32[3])",
                       "VmapTracer(aval=float32[2], batched=float32[2,3])",
                       "GradTracer(primal=1.0, typeof(tangent)=f32[])", "JVPTracer(primal=[1. 1.], tangent=[1. 1.])",
                       "GradTracer(primal=JitTracer(~float32[]), typeof(tangent)=f32[])"]


def test_jitted_function_under_ensure_compile_time_eval_inside_grad():
    # The tracer of the enclosing grad reaches the jitted function: its own trace interprets the equations
    # (the executable cannot take it), as JAX's do.
    inner = jc.jit(lambda x: lax.mul(x, x))

    def fun(x):
        with jc.ensure_compile_time_eval():
            y = inner(x)
        return y

    assert float(jc.grad(fun)(np.float32(3))) == 6.0
