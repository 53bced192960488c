"""Forward-mode differentiation: values against analytic derivatives and finite differences, symbolic zeros,
float0 tangents, composition with jit and with itself, argument errors, and jaxprs against JAX 0.10.2's."""

from __future__ import annotations

import operator

import numpy as np
import pytest
from jvp_checks import assert_jaxprs_match_golden, check_jvp, finite_difference, x64_everywhere  # noqa: F401  (x64_everywhere: an autouse fixture)
from make_jvp_golden import render

from jaxle_core import dtypes, jit, lax, make_jaxpr
from jaxle_core.ad import jvp

f64 = np.float64
float0 = dtypes.float0


rng = np.random.default_rng(0)

# (function, point, analytic derivative)
UNARY = [
    (lax.neg, 0.7, lambda x: -1.0),
    (lax.exp, 0.7, np.exp),
    (lax.exp2, 0.7, lambda x: np.log(2) * 2 ** x),
    (lax.log, 0.7, lambda x: 1 / x),
    (lax.log1p, 0.7, lambda x: 1 / (1 + x)),
    (lax.expm1, 0.7, np.exp),
    (lax.tanh, 0.7, lambda x: 1 - np.tanh(x) ** 2),
    (lax.logistic, 0.7, lambda x: np.exp(-x) / (1 + np.exp(-x)) ** 2),
    (lax.sin, 0.7, np.cos),
    (lax.cos, 0.7, lambda x: -np.sin(x)),
    (lax.tan, 0.7, lambda x: 1 / np.cos(x) ** 2),
    (lax.asin, 0.7, lambda x: 1 / np.sqrt(1 - x * x)),
    (lax.acos, 0.7, lambda x: -1 / np.sqrt(1 - x * x)),
    (lax.atan, 0.7, lambda x: 1 / (1 + x * x)),
    (lax.sinh, 0.7, np.cosh),
    (lax.cosh, 0.7, np.sinh),
    (lax.asinh, 0.7, lambda x: 1 / np.sqrt(x * x + 1)),
    (lax.acosh, 2.5, lambda x: 1 / np.sqrt(x * x - 1)),
    (lax.atanh, 0.7, lambda x: 1 / (1 - x * x)),
    (lax.sqrt, 0.7, lambda x: 0.5 / np.sqrt(x)),
    (lax.rsqrt, 0.7, lambda x: -0.5 * x ** -1.5),
    (lax.cbrt, 0.7, lambda x: x ** (-2 / 3) / 3),
    (lax.abs, -0.7, lambda x: -1.0),
    (lax.abs, 0.7, lambda x: 1.0),
    (lax.square, 0.7, lambda x: 2 * x),
    (lambda x: lax.integer_pow(x, 3), 0.7, lambda x: 3 * x * x),
    (lambda x: lax.integer_pow(x, -2), 0.7, lambda x: -2 * x ** -3),
    (lambda x: lax.integer_pow(x, 1), 0.7, lambda x: 1.0),
    (lambda x: lax.integer_pow(x, 0), 0.7, lambda x: 0.0),
    (lax.reciprocal, 0.7, lambda x: -1 / x ** 2),
]


@pytest.mark.parametrize("fun, x, derivative", UNARY, ids=lambda v: getattr(v, "__name__", None))
def test_unary_matches_analytic_and_finite_differences(fun, x, derivative):
    xs = np.array([x, x / 2, x * 1.1])
    ts = np.array([1.0, -0.5, 2.0])
    value, tangent = jvp(fun, (xs,), (ts,))
    assert np.asarray(tangent).dtype == np.float64
    np.testing.assert_allclose(np.asarray(tangent), derivative(xs) * ts, rtol=1e-12, atol=1e-12)
    check_jvp(fun, (xs,), (ts,))


@pytest.mark.parametrize("fun", [lax.sign, lax.floor, lax.ceil, lax.round])
def test_piecewise_constant_functions_have_zero_tangent(fun):
    value, tangent = jvp(fun, (np.array([0.3, -1.7]),), (np.array([1.0, 1.0]),))
    np.testing.assert_array_equal(np.asarray(tangent), [0.0, 0.0])
    assert np.asarray(tangent).dtype == np.float64


BINARY = [lax.add, lax.sub, lax.mul, lax.div, lax.rem, lax.pow, lax.max, lax.min, lax.atan2]


@pytest.mark.parametrize("fun", BINARY, ids=lambda f: f.__name__)
@pytest.mark.parametrize("which", ["both", "first", "second"])
def test_binary_matches_finite_differences(fun, which):
    x = np.array([0.7, 1.3, 2.2])
    y = np.array([1.9, 0.4, 3.1])
    tx, ty = np.array([1.0, -0.5, 0.25]), np.array([0.3, 2.0, -1.0])
    if which == "first":
        check_jvp(lambda a: fun(a, y), (x,), (tx,))
    elif which == "second":
        check_jvp(lambda b: fun(x, b), (y,), (ty,))
    else:
        check_jvp(fun, (x, y), (tx, ty))


def test_mul_and_div_analytic():
    x, y, tx, ty = f64(1.5), f64(-2.0), f64(0.5), f64(3.0)
    np.testing.assert_allclose(jvp(lax.mul, (x, y), (tx, ty))[1], tx * y + x * ty)
    np.testing.assert_allclose(jvp(lax.div, (x, y), (tx, ty))[1], tx / y - x * ty / y ** 2)


def test_max_splits_ties_evenly():
    value, tangent = jvp(lax.max, (f64(1.0), f64(1.0)), (f64(2.0), f64(4.0)))
    assert float(np.asarray(tangent)) == 3.0


def test_scalar_operand_broadcasts_tangent():
    y = np.ones(3)
    _, tangent = jvp(lambda a: lax.add(a, y), (f64(2.0),), (f64(5.0),))
    np.testing.assert_array_equal(np.asarray(tangent), [5.0, 5.0, 5.0])


def test_pow_with_integer_exponent():
    x = np.array([0.5, 2.0])
    n = np.array([3, 2], np.int32)
    _, tangent = jvp(lambda a: lax.pow(a, n), (x,), (np.ones(2),))
    np.testing.assert_allclose(np.asarray(tangent), n * x ** (n - 1))


def test_complex_parts_and_abs():
    z = np.array([1.0 + 2.0j, -0.5 + 0.25j])
    dz = np.array([0.5 - 1.0j, 2.0 + 1.0j])
    check_jvp(lax.real, (z,), (dz,))
    check_jvp(lax.imag, (z,), (dz,))
    check_jvp(lax.conj, (z,), (dz,))
    check_jvp(lax.abs, (z,), (dz,))
    x, y = np.array([1.0, -2.0]), np.array([0.5, 3.0])
    check_jvp(lax.complex, (x, y), (np.array([1.0, 2.0]), np.array([-1.0, 0.5])))
    check_jvp(lambda b: lax.complex(x, b), (y,), (np.array([-1.0, 0.5]),))


def test_abs_of_complex_divides_in_complex_arithmetic():
    """JAX forms dz conj(z) / |z| in the operand's complex type (|z| converted back), and 0 at z = 0."""
    z = np.array([1 + 2j, -3 + 0.5j, 0j, 3e-20 + 4e-20j], np.complex64)
    dz = np.array([0.5 - 1j, 2 + 1j, 1 + 1j, 1 - 2j], np.complex64)
    magnitude = np.abs(z)
    denominator = np.where(magnitude == 0, 1, magnitude).astype(np.complex64)
    _, tangent = jvp(lax.abs, (z,), (dz,))
    np.testing.assert_array_equal(np.asarray(tangent), np.real(dz * (np.conj(z) / denominator)))


# ---------------------------------------------------------------- structural primitives

A = rng.standard_normal((2, 3))
TA = rng.standard_normal((2, 3))
STRUCTURAL = {
    "broadcast_in_dim": lambda a: lax.broadcast_in_dim(a, (4, 2, 3), (1, 2)),
    "reshape": lambda a: lax.reshape(a, (3, 2)),
    "transpose": lambda a: lax.transpose(a, (1, 0)),
    "squeeze": lambda a: lax.squeeze(lax.reshape(a, (1, 2, 3)), (0,)),
    "rev": lambda a: lax.rev(a, (1,)),
    "slice": lambda a: lax.slice(a, (0, 1), (2, 3)),
    "dynamic_slice": lambda a: lax.dynamic_slice(a, (np.int32(1), np.int32(1)), (1, 2)),
    "dynamic_update_slice": lambda a: lax.dynamic_update_slice(a, lax.sin(a[:1, :2]), (np.int32(1), np.int32(0))),
    "pad": lambda a: lax.pad(a, f64(0.5), ((1, 0, 1), (0, 2, 0))),
    "concatenate": lambda a: lax.concatenate([a, lax.exp(a), np.ones((1, 3))], 0),
    "select_n": lambda a: lax.select_n(A > 0, lax.sin(a), a * a),
    "clamp": lambda a: lax.clamp(f64(-0.5), a, f64(0.5)),
    "reduce_sum": lambda a: lax.reduce_sum(a, (1,)),
    "reduce_max": lambda a: lax.reduce_max(a, (0,)),
    "reduce_min": lambda a: lax.reduce_min(a, (0, 1)),
    "dot_general": lambda a: lax.dot_general(a, lax.transpose(a, (1, 0)), (((1,), (0,)), ((), ()))),
    "reduce_precision": lambda a: lax.reduce_precision(a, 11, 52),
}


@pytest.mark.parametrize("name", sorted(STRUCTURAL))
def test_structural_matches_finite_differences(name):
    check_jvp(STRUCTURAL[name], (A,), (TA,))


def test_convert_element_type_converts_the_tangent():
    value, tangent = jvp(lambda a: lax.convert_element_type(a, np.float32), (A,), (TA,))
    assert np.asarray(tangent).dtype == np.float32
    np.testing.assert_array_equal(np.asarray(tangent), TA.astype(np.float32))


def test_dot_general_with_constant_operand():
    b = rng.standard_normal((3, 4))
    check_jvp(lambda a: lax.dot_general(a, b, (((1,), (0,)), ((), ()))), (A,), (TA,))
    check_jvp(lambda c: lax.dot_general(A, c, (((1,), (0,)), ((), ()))), (b,), (np.ones((3, 4)),))


# ---------------------------------------------------------------- symbolic zeros and float0


def _has_zero_constant(closed) -> bool:
    """Whether the jaxpr builds an array of zeros or uses a zero literal."""
    for eqn in closed.jaxpr.eqns:
        for atom in eqn.invars:
            if hasattr(atom, "val") and np.size(atom.val) and np.all(np.asarray(atom.val) == 0):
                return True
    return False


def test_zero_tangents_are_never_materialised():
    c = np.arange(3.0)

    def f(i, x):
        return lax.mul(lax.sin(c), x) + lax.exp(c) + lax.convert_element_type(i, np.float64)

    closed = make_jaxpr(lambda i, x, t: jvp(f, (i, x), (np.zeros((), float0), t)))(np.int32(2), c, c)
    assert not _has_zero_constant(closed)
    names = [e.primitive.name for e in closed.jaxpr.eqns]
    assert "broadcast_in_dim" not in names
    # sin c, mul, exp c, add, convert, add for the primal; one mul for the tangent.
    assert names.count("mul") == 2 and "add_any" not in names


def test_zero_output_tangent_is_instantiated_at_the_end():
    value, tangent = jvp(lambda x: lax.broadcast_in_dim(f64(3.0), (2,), ()), (f64(1.0),), (f64(1.0),))
    np.testing.assert_array_equal(np.asarray(tangent), [0.0, 0.0])
    assert np.asarray(tangent).dtype == np.float64


def test_integer_inputs_take_float0_tangents():
    value, tangent = jvp(lambda i: i * 2, (3,), (np.zeros((), float0),))
    assert int(np.asarray(value)) == 6
    assert tangent.dtype == float0 and tangent.shape == ()
    value, tangent = jvp(lambda b: lax.bitwise_not(b), (np.array([True, False]),), (np.zeros(2, float0),))
    assert tangent.dtype == float0 and tangent.shape == (2,)


def test_integer_output_gets_float0_tangent():
    _, tangent = jvp(lambda x: lax.convert_element_type(x, np.int32), (np.ones(3),), (np.ones(3),))
    assert tangent.dtype == float0 and tangent.shape == (3,)
    _, tangent = jvp(lambda x: lax.gt(x, 0.0), (f64(1.0),), (f64(1.0),))
    assert tangent.dtype == float0


def test_mixed_integer_and_float_inputs():
    _, tangent = jvp(lambda i, x: lax.mul(lax.convert_element_type(i, np.float64), x), (np.int32(4), f64(2.0)),
                     (np.zeros((), float0), f64(0.5)))
    assert float(np.asarray(tangent)) == 2.0


# ---------------------------------------------------------------- composition


def test_jit_inside_jvp_keeps_a_jit_equation():
    f = jit(lambda a: lax.sin(a) * a)
    closed = make_jaxpr(lambda x, t: jvp(f, (x,), (t,)))(f64(0.5), f64(1.0))
    assert [e.primitive.name for e in closed.jaxpr.eqns] == ["jit"]
    inner = closed.jaxpr.eqns[0].params["jaxpr"]
    assert len(inner.jaxpr.invars) == 2 and len(inner.jaxpr.outvars) == 2
    value, tangent = jvp(f, (f64(0.5),), (f64(2.0),))
    np.testing.assert_allclose(np.asarray(tangent), 2.0 * (np.cos(0.5) * 0.5 + np.sin(0.5)), rtol=1e-12)


def test_jit_inside_jvp_drops_zero_tangents():
    f = jit(lambda a, b: (lax.mul(a, b), lax.sin(b)))
    closed = make_jaxpr(lambda x, y, t: jvp(f, (x, y), (t, f64(0.0))))(f64(0.5), f64(2.0), f64(1.0))
    eqn = closed.jaxpr.eqns[0]
    assert eqn.primitive.name == "jit" and len(eqn.invars) == 4  # y's tangent is an array the user gave
    g = jit(lambda a, b: (lax.mul(a, b), lax.sin(b)))
    closed = make_jaxpr(lambda x, y, t: jvp(lambda a: g(a, y), (x,), (t,)))(f64(0.5), f64(2.0), f64(1.0))
    eqn = closed.jaxpr.eqns[0]
    assert len(eqn.invars) == 3 and len(eqn.outvars) == 3  # sin(b) has a zero tangent: no output for it


def test_jvp_inside_jit():
    f = jit(lambda x, t: jvp(lax.sin, (x,), (t,)))
    value, tangent = f(f64(0.5), f64(3.0))
    np.testing.assert_allclose(np.asarray(tangent), 3.0 * np.cos(0.5), rtol=1e-12)


def test_nested_jvp_gives_second_derivatives():
    def second(f, x):
        return jvp(lambda y: jvp(f, (y,), (f64(1.0),))[1], (x,), (f64(1.0),))[1]

    x = f64(0.7)
    np.testing.assert_allclose(np.asarray(second(lax.sin, x)), -np.sin(0.7), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(second(lambda y: lax.integer_pow(y, 3), x)), 6 * 0.7, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(second(lax.exp, x)), np.exp(0.7), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(second(lambda y: lax.tanh(y) * y, x)),
                               finite_difference(lambda y: jvp(lambda z: lax.tanh(z) * z, (y,), (f64(1.0),))[1],
                                                 (x,), (f64(1.0),)), rtol=1e-6)


def test_nested_jvp_does_not_confuse_perturbations():
    # d/dx [x * d/dy (x + y)] = d/dx [x] = 1
    def outer(x):
        return lax.mul(x, jvp(lambda y: lax.add(x, y), (f64(1.0),), (f64(1.0),))[1])

    np.testing.assert_allclose(np.asarray(jvp(outer, (f64(2.0),), (f64(1.0),))[1]), 1.0)


def test_python_control_flow_on_concrete_primals():
    def f(x):
        return lax.sin(x) if x > 0 else lax.cos(x)

    np.testing.assert_allclose(np.asarray(jvp(f, (f64(0.5),), (f64(1.0),))[1]), np.cos(0.5))
    np.testing.assert_allclose(np.asarray(jvp(f, (f64(-0.5),), (f64(1.0),))[1]), np.sin(0.5))


def test_index_of_a_concrete_primal():
    def f(x):
        with pytest.raises(TypeError):  # a float is no index, even with its value known (not an AttributeError)
            operator.index(x)
        return lax.mul(x, x)

    assert float(np.asarray(jvp(f, (f64(3.0),), (f64(1.0),))[1])) == 6.0


def test_pytrees_and_has_aux():
    def f(params):
        out = {"y": lax.mul(params["a"], params["b"][0])}
        return out, lax.neg(params["a"])

    params = {"a": f64(2.0), "b": [f64(3.0)]}
    tangents = {"a": f64(1.0), "b": [f64(0.5)]}
    out, tangent_out, aux = jvp(f, (params,), (tangents,), has_aux=True)
    assert float(np.asarray(tangent_out["y"])) == 3.0 + 1.0
    assert float(np.asarray(aux)) == -2.0


def test_identity_passes_primals_and_tangents_through():
    assert jvp(lambda x: x, (1.0,), (2.0,)) == (1.0, 2.0)


# ---------------------------------------------------------------- errors


def test_argument_errors():
    with pytest.raises(TypeError, match="must be tuples or lists; found float and float"):
        jvp(lax.sin, 1.0, 1.0)
    with pytest.raises(TypeError, match="same tree structure"):
        jvp(lax.sin, (1.0,), (1.0, 2.0))
    with pytest.raises(TypeError, match="same tree structure"):
        jvp(lax.sin, (1.0,), [1.0])
    with pytest.raises(TypeError, match="expected tangent dtype float64, but got tangent dtype int64"):
        jvp(lax.sin, (1.0,), (1,))
    with pytest.raises(TypeError, match="the tangent dtype must be float0"):
        jvp(lambda x: x, (1,), (1,))
    with pytest.raises(TypeError, match="dtypes must be equal"):
        jvp(lambda x: x, (np.float32(1),), (np.float16(1),))
    with pytest.raises(ValueError, match=r"Got primal shape \(\) and tangent shape as \(2,\)"):
        jvp(lax.sin, (1.0,), (np.ones(2),))
    with pytest.raises(TypeError, match="Expected a callable value"):
        jvp(1, (1.0,), (1.0,))
    with pytest.raises(TypeError, match="not a valid JAX type"):
        jvp(lambda x: "s", (1.0,), (1.0,))
    with pytest.raises(NotImplementedError, match="Differentiation rule for 'nextafter' not implemented"):
        jvp(lambda x: lax.nextafter(x, f64(2.0)), (f64(1.0),), (f64(1.0),))


# ---------------------------------------------------------------- jaxprs against JAX 0.10.2

def test_jaxprs_match_jax():
    assert_jaxprs_match_golden("jvp_golden.json", render)


def test_tangents_passed_straight_through_are_returned_as_given():
    # JAX 0.10.2 hands back a tangent the function did not touch as it was given (a Python float stays one)
    primal, tangent = jvp(lambda x: x, (1.0,), (2.0,))
    assert (primal, tangent) == (1.0, 2.0) and type(tangent) is float
    array = np.ones(2)
    assert jvp(lambda x: x, (array,), (array,))[1] is array
