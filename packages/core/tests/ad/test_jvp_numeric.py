"""Forward-mode differentiation of reduce_prod, convolution, the windowed reductions and the special functions:
values against finite differences and analytic derivatives, the errors JAX raises, and the equations JAX 0.10.2
emits."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sp
from jvp_checks import assert_jaxprs_match_golden, finite_difference, x64_everywhere  # noqa: F401  (x64_everywhere: an autouse fixture)
from jvp_checks import check_jvp as check_jvp_with
from make_jvp_numeric_golden import render

from jaxle_core import lax
from jaxle_core.ad import jvp

rng = np.random.default_rng(3)


def check_jvp(fun, primals, tangents=None, rtol=1e-6, atol=1e-8):
    """``jvp_checks.check_jvp`` drawing random tangents from this module's generator."""
    return check_jvp_with(fun, primals, tangents, rtol, atol, rng)


# ---------------------------------------------------------------- reduce_prod


@pytest.mark.parametrize("shape,axes", [((5,), (0,)), ((3, 2, 5), (0, 2)), ((3, 2, 5), (2,)), ((3, 4), (1, 0)),
                                        ((2, 3), ()), ((7, 1), (0,))])
def test_reduce_prod_matches_finite_differences(shape, axes):
    x = rng.uniform(0.5, 1.5, shape) * rng.choice([-1.0, 1.0], shape)
    check_jvp(lambda x: lax.reduce_prod(x, axes), [x])


def leave_one_out_products(x):
    return np.array([np.prod(np.delete(x, i)) for i in range(x.size)])


@pytest.mark.parametrize("x", [[1.0, 2.0, 0.0, 3.0], [0.0, 2.0, 0.0, 3.0, 5.0], [0.0], [2.0, -0.0, 4.0]])
def test_reduce_prod_with_zeros_is_exact(x):
    x = np.array(x)
    t = rng.standard_normal(x.shape)
    value, derivative = jvp(lambda x: lax.reduce_prod(x, (0,)), (x,), (t,))
    assert float(np.asarray(value)) == np.prod(x)
    np.testing.assert_allclose(np.asarray(derivative), t @ leave_one_out_products(x), rtol=1e-12, atol=1e-15)


def test_reduce_prod_of_empty_axis_is_one_with_zero_tangent():
    x = np.ones((0, 3))
    value, derivative = jvp(lambda x: lax.reduce_prod(x, (0,)), (x,), (x,))
    np.testing.assert_array_equal(np.asarray(value), np.ones(3))
    np.testing.assert_array_equal(np.asarray(derivative), np.zeros(3))


# ---------------------------------------------------------------- convolution

CONVS = [
    (dict(window_strides=(1, 1), padding="VALID"), (2, 3, 6, 5), (4, 3, 3, 2)),
    (dict(window_strides=(2, 1), padding="SAME", rhs_dilation=(1, 2)), (2, 3, 7, 6), (4, 3, 3, 2)),
    (dict(window_strides=(1, 1), padding=((1, 2), (0, 1)), lhs_dilation=(2, 1)), (1, 2, 4, 5), (3, 2, 2, 3)),
    (dict(window_strides=(1, 1), padding="VALID", feature_group_count=2), (2, 4, 5, 5), (6, 2, 3, 3)),
    (dict(window_strides=(1,), padding="SAME", batch_group_count=2), (4, 3, 6), (4, 3, 3)),
    (dict(window_strides=(1, 2), padding="SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")), (2, 6, 5, 3),
     (3, 2, 3, 4)),
]


@pytest.mark.parametrize("params,lhs_shape,rhs_shape", CONVS)
def test_conv_matches_finite_differences(params, lhs_shape, rhs_shape):
    lhs, rhs = rng.standard_normal(lhs_shape), rng.standard_normal(rhs_shape)

    def conv(x, w):
        return lax.conv_general_dilated(x, w, **params)

    check_jvp(conv, [lhs, rhs])
    # One operand at a time: the bilinear terms conv(dlhs, rhs) and conv(lhs, drhs).
    t_lhs, t_rhs = rng.standard_normal(lhs_shape), rng.standard_normal(rhs_shape)
    _, d_lhs = jvp(lambda x: conv(x, rhs), (lhs,), (t_lhs,))
    _, d_rhs = jvp(lambda w: conv(lhs, w), (rhs,), (t_rhs,))
    np.testing.assert_allclose(np.asarray(d_lhs), np.asarray(conv(t_lhs, rhs)), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(np.asarray(d_rhs), np.asarray(conv(lhs, t_rhs)), rtol=1e-12, atol=1e-12)


# ---------------------------------------------------------------- windowed reductions

WINDOWS = [
    dict(window_dimensions=(2, 3), window_strides=(1, 2), padding="SAME"),
    dict(window_dimensions=(3, 2), window_strides=(2, 1), padding="VALID", window_dilation=(1, 2)),
    dict(window_dimensions=(2, 2), window_strides=(1, 1), padding=((1, 0), (1, 1)), base_dilation=(2, 1)),
]


@pytest.mark.parametrize("window", WINDOWS)
@pytest.mark.parametrize("computation,init", [(lax.add, 0.0), (lax.max, -np.inf), (lax.min, np.inf)])
def test_reduce_window_matches_finite_differences(window, computation, init):
    x = rng.permutation(24).reshape(4, 6) + rng.uniform(0, 0.1, (4, 6))  # distinct values: no ties
    check_jvp(lambda x: lax.reduce_window(x, init, computation, **window), [x])


@pytest.mark.parametrize("computation,init", [(lax.max, -np.inf), (lax.min, np.inf)])
def test_reduce_window_extremum_takes_the_first_tied_tangent(computation, init):
    x = np.array([1.0, 1.0, 2.0, 2.0, 1.0])
    t = np.array([1.0, 10.0, 100.0, 1000.0, 10000.0])
    _, derivative = jvp(lambda x: lax.reduce_window(x, init, computation, (2,), (1,), "VALID"), (x,), (t,))
    expected = [1.0, 100.0, 100.0, 1000.0] if computation is lax.max else [1.0, 10.0, 100.0, 10000.0]
    np.testing.assert_array_equal(np.asarray(derivative), expected)


def test_reduce_window_max_over_padding_only_has_zero_tangent():
    x = np.array([3.0, 1.0])
    _, derivative = jvp(lambda x: lax.reduce_window(x, -np.inf, lax.max, (1,), (1,), ((1, 1),)), (x,),
                        (np.array([5.0, 7.0]),))
    np.testing.assert_array_equal(np.asarray(derivative), [0.0, 5.0, 7.0, 0.0])


# ---------------------------------------------------------------- special functions

def gamma_density(a, x):
    return np.exp(-x + (a - 1) * np.log(x) - sp.gammaln(a))


# (function, points, analytic derivative)
UNARY = [
    (lax.erf, [-1.3, 0.0, 0.4, 2.0], lambda x: 2 / np.sqrt(np.pi) * np.exp(-x * x)),
    (lax.erfc, [-1.3, 0.0, 0.4, 2.0], lambda x: -2 / np.sqrt(np.pi) * np.exp(-x * x)),
    (lax.erf_inv, [-0.9, 0.0, 0.3, 0.7], lambda x: np.sqrt(np.pi) / 2 * np.exp(sp.erfinv(x) ** 2)),
    (lax.lgamma, [-2.5, 0.3, 1.0, 4.2], sp.digamma),
    (lax.digamma, [-2.5, 0.3, 1.0, 4.2], lambda x: sp.polygamma(1, x)),
    (lambda x: lax.polygamma(np.full(3, 2.0), x), [0.3, 1.0, 4.2], lambda x: sp.polygamma(3, x)),
    (lambda x: lax.igamma(np.full(3, 1.7), x), [0.2, 1.0, 3.5], lambda x: gamma_density(1.7, x)),
    (lambda x: lax.igammac(np.full(3, 1.7), x), [0.2, 1.0, 3.5], lambda x: -gamma_density(1.7, x)),
    (lax.bessel_i0e, [-3.0, -0.2, 0.0, 0.5, 4.0], lambda x: sp.i1e(x) - np.sign(x) * sp.i0e(x)),
    (lax.bessel_i1e, [-3.0, -0.2, 0.5, 4.0], lambda x: sp.i0e(x) - sp.i1e(x) * (np.sign(x) + 1 / x)),
    (lambda x: lax.betainc(np.full(3, 2.5), np.full(3, 1.5), x), [0.1, 0.5, 0.9],
     lambda x: x ** 1.5 * (1 - x) ** 0.5 / sp.beta(2.5, 1.5)),
]


@pytest.mark.parametrize("fun,points,derivative", UNARY)
def test_special_function_derivatives(fun, points, derivative):
    x = np.array(points)
    t = rng.standard_normal(x.shape)
    value, tangent = jvp(fun, (x,), (t,))
    np.testing.assert_allclose(np.asarray(value), np.asarray(fun(x)), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(tangent), t * derivative(x), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(np.asarray(tangent), finite_difference(fun, [x], [t]), rtol=1e-6, atol=1e-8)


def test_bessel_i1e_slope_at_zero_is_one_half():
    _, tangent = jvp(lax.bessel_i1e, (np.array([0.0, -0.0, 1e-20]),), (np.array([2.0, 2.0, 2.0]),))
    np.testing.assert_array_equal(np.asarray(tangent), [1.0, 1.0, 1.0])


@pytest.mark.parametrize("fun", [lax.igamma, lax.igammac])
def test_incomplete_gamma_in_both_arguments(fun):
    a, x = np.array([0.7, 1.7, 3.0]), np.array([0.5, 2.0, 2.5])
    check_jvp(fun, [a, x], rtol=1e-5, atol=1e-7)
    t = rng.standard_normal(3)
    _, tangent = jvp(lambda a: fun(a, x), (a,), (t,))
    sign = 1.0 if fun is lax.igamma else -1.0
    np.testing.assert_allclose(np.asarray(tangent), sign * t * np.asarray(lax.igamma_grad_a(a, x)), rtol=1e-12)


def test_special_functions_under_broadcast_scalars():
    x = np.array([0.2, 0.6])
    check_jvp(lambda x: lax.betainc(2.0, 3.0, x), [x])
    check_jvp(lambda x: lax.igamma(1.5, x), [x])
    check_jvp(lambda x: lax.polygamma(1.0, x), [x])


@pytest.mark.parametrize("fun,error,message", [
    (lambda m: lax.polygamma(m, 2.0), ValueError, "polygamma gradient with respect to m is not supported"),
    (lambda a: lax.betainc(a, 2.0, 0.3), ValueError, "Betainc gradient with respect to a and b not supported."),
    (lambda b: lax.betainc(1.5, b, 0.3), ValueError, "Betainc gradient with respect to a and b not supported."),
    (lambda x: lax.zeta(x, 2.0), NotImplementedError, "Differentiation rule for 'zeta' not implemented"),
    (lambda q: lax.zeta(3.0, q), NotImplementedError, "Differentiation rule for 'zeta' not implemented"),
    (lambda a: lax.igamma_grad_a(a, 2.0), NotImplementedError,
     "Differentiation rule for 'igamma_grad_a' not implemented"),
])
def test_derivatives_jax_does_not_define_raise(fun, error, message):
    with pytest.raises(error) as info:
        jvp(fun, (1.5,), (1.0,))
    assert str(info.value) == message


# ---------------------------------------------------------------- the equations JAX emits

def test_jaxprs_match_jax():
    assert_jaxprs_match_golden("jvp_numeric_golden.json", render)
