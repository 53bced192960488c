"""Forward-mode differentiation of copy, bitcast_convert_type, the generic reduce and reduce_window and the
pooling primitives: values against finite differences and exact linear maps, the errors JAX raises, and the
equations JAX 0.10.2 emits."""

from __future__ import annotations

import numpy as np
import pytest
from jvp_checks import assert_jaxprs_match_golden, finite_difference, x64_everywhere  # noqa: F401  (x64_everywhere: an autouse fixture)
from jvp_checks import check_jvp as check_jvp_with
from make_jvp_extra_golden import render

from jaxle_core import dtypes, lax
from jaxle_core.ad import jvp
from jaxle_core.lax import elementwise, windowed

rng = np.random.default_rng(5)


def check_jvp(fun, primals, tangents=None, rtol=1e-6, atol=1e-8):
    """``jvp_checks.check_jvp`` drawing random tangents from this module's generator."""
    return check_jvp_with(fun, primals, tangents, rtol, atol, rng)


def merge(u, v):
    """An associative, commutative computation with identity 0 that is no lax monoid: (1+u)(1+v) - 1."""
    return u + v + u * v


def merge_pairs(u, v):
    """Pairs combined by ``merge`` in the first place and by a product in the second (identities 0 and 1)."""
    return merge(u[0], v[0]), u[1] * v[1]


def dual_product(u, v):
    """The product of dual numbers a + b eps (commutative and associative, identity (1, 0))."""
    return u[0] * v[0], u[0] * v[1] + u[1] * v[0]


# ---------------------------------------------------------------- copy and bitcast_convert_type


def test_copy_is_linear():
    x, t = rng.standard_normal((2, 3)), rng.standard_normal((2, 3))
    value, tangent = jvp(lax.copy_p.bind, (x,), (t,))
    np.testing.assert_array_equal(np.asarray(value), x)
    np.testing.assert_array_equal(np.asarray(tangent), t)


@pytest.mark.parametrize("new_dtype,shape", [(np.float64, (3,)), (np.float32, (3, 2)), (np.float16, (3, 4))])
def test_bitcast_to_floats_has_zero_tangent(new_dtype, shape):
    x = rng.standard_normal(3)
    value, tangent = jvp(lambda x: lax.bitcast_convert_type(x, new_dtype), (x,), (np.ones(3),))
    np.testing.assert_array_equal(np.asarray(value), x.view(new_dtype).reshape(shape))
    assert np.asarray(tangent).dtype == new_dtype
    np.testing.assert_array_equal(np.asarray(tangent), np.zeros(shape))


def test_bitcast_to_integers_has_float0_tangent():
    x = rng.standard_normal(3)
    value, tangent = jvp(lambda x: lax.bitcast_convert_type(x, np.int64), (x,), (np.ones(3),))
    np.testing.assert_array_equal(np.asarray(value), x.view(np.int64))
    assert tangent.dtype == dtypes.float0 and tangent.shape == (3,)


# ---------------------------------------------------------------- the generic reduce


@pytest.mark.parametrize("shape,axes", [((5,), (0,)), ((8,), (0,)), ((3, 2, 5), (0, 2)), ((3, 2, 5), (2,)),
                                        ((3, 4), (1, 0)), ((2, 3), ()), ((1, 4), (0,)), ((7, 3), (0,))])
def test_reduce_matches_finite_differences(shape, axes):
    x = rng.uniform(-0.5, 0.5, shape)
    check_jvp(lambda x: lax.reduce(x, 0.0, merge, axes), [x])


def test_reduce_of_pairs_matches_finite_differences():
    x, y = rng.uniform(-0.5, 0.5, (5, 3)), rng.uniform(0.5, 1.5, (5, 3))
    check_jvp(lambda x, y: lax.reduce((x, y), (0.0, 1.0), merge_pairs, (0,)), [x, y])
    # A constant second operand: its zero tangent still meets the first's in the dual-number product.
    check_jvp(lambda x: lax.reduce((x, y), (1.0, 0.0), dual_product, (0,))[1], [x])


def test_reduce_beside_an_integer_operand():
    x, counts = rng.uniform(-0.5, 0.5, 6), np.arange(6)
    t = rng.standard_normal(6)

    def fun(x):
        return lax.reduce((x, counts), (0.0, 0), lambda u, v: (merge(u[0], v[0]), u[1] + v[1]), (0,))

    (value, total), (tangent, total_tangent) = jvp(fun, (x,), (t,))
    assert int(np.asarray(total)) == 15 and total_tangent.dtype == dtypes.float0
    np.testing.assert_allclose(np.asarray(tangent), finite_difference(lambda x: fun(x)[0], [x], [t]), rtol=1e-6)


def test_reduce_over_nothing_gives_the_initial_value_and_zero_tangent():
    x = np.ones((0, 3))
    value, tangent = jvp(lambda x: lax.reduce(x, 0.0, merge, (0,)), (x,), (x,))
    np.testing.assert_array_equal(np.asarray(value), np.zeros(3))
    np.testing.assert_array_equal(np.asarray(tangent), np.zeros(3))


def test_second_derivative_of_reduce():
    x, t = rng.uniform(-0.5, 0.5, 5), rng.standard_normal(5)

    def first(x):
        return jvp(lambda x: lax.reduce(x, 0.0, merge, (0,)), (x,), (t,))[1]

    check_jvp(first, [x], [t], rtol=1e-5)


# ---------------------------------------------------------------- the generic reduce_window

WINDOWS = [
    dict(window_dimensions=(2, 3), window_strides=(1, 2), padding="SAME"),
    dict(window_dimensions=(3, 2), window_strides=(2, 1), padding="VALID", window_dilation=(1, 2)),
    dict(window_dimensions=(2, 2), window_strides=(1, 1), padding=((1, 0), (1, 1)), base_dilation=(2, 1)),
]


@pytest.mark.parametrize("window", WINDOWS)
def test_reduce_window_matches_finite_differences(window):
    x = rng.uniform(-0.5, 0.5, (4, 6))
    check_jvp(lambda x: lax.reduce_window(x, 0.0, merge, **window), [x])


def test_reduce_window_of_pairs_and_an_integer_operand():
    x, y, counts = rng.uniform(-0.5, 0.5, 7), rng.uniform(0.5, 1.5, 7), np.arange(7)
    check_jvp(lambda x, y: lax.reduce_window((x, y), (0.0, 1.0), merge_pairs, (3,), (2,), "SAME"), [x, y])
    t = rng.standard_normal(7)

    def fun(x):
        return lax.reduce_window((x, counts), (0.0, 0), lambda u, v: (merge(u[0], v[0]), u[1] + v[1]), (3,),
                                 (1,), "VALID")

    (value, total), (tangent, total_tangent) = jvp(fun, (x,), (t,))
    np.testing.assert_array_equal(np.asarray(total), [3, 6, 9, 12, 15])
    assert total_tangent.dtype == dtypes.float0 and total_tangent.shape == (5,)
    np.testing.assert_allclose(np.asarray(tangent), finite_difference(lambda x: fun(x)[0], [x], [t]), rtol=1e-6)


def test_second_derivative_of_reduce_window():
    x, t = rng.uniform(-0.5, 0.5, 6), rng.standard_normal(6)

    def first(x):
        return jvp(lambda x: lax.reduce_window(x, 0.0, merge, (3,), (1,), "SAME"), (x,), (t,))[1]

    check_jvp(first, [x], [t], rtol=1e-5)


@pytest.mark.parametrize("fun,error,message", [
    (lambda i: lax.reduce(np.ones(3), i, merge, (0,)), NotImplementedError,
     "Gradient of general lax.reduce with non-zero tangents for initial values to reduction not implemented"),
    (lambda i: lax.reduce_window(np.ones(3), i, merge, (2,), (1,), "VALID"), TypeError,
     "reduce_window jvp does not support non-zero init_value_tangent."),
])
def test_initial_value_tangents_raise_as_in_jax(fun, error, message):
    with pytest.raises(error) as info:
        jvp(fun, (0.0,), (1.0,))
    assert str(info.value) == message


# ---------------------------------------------------------------- select_and_gather_add, select_and_scatter_add

GATHER = dict(window_dimensions=(2, 3), window_strides=(1, 2), padding=((0, 1), (1, 1)), base_dilation=(1, 1),
              window_dilation=(1, 1))
SCATTER = dict(window_dimensions=(2, 3), window_strides=(1, 2), padding=((0, 1), (1, 1)))


@pytest.mark.parametrize("select_prim", [elementwise.ge_p, elementwise.le_p])
def test_select_and_gather_add_is_linear_in_its_tangents(select_prim):
    x = rng.permutation(24).reshape(4, 6) + rng.uniform(0, 0.1, (4, 6))  # distinct values: no ties

    def gather(tangents, operand):
        return windowed.select_and_gather_add_p.bind(tangents, operand, select_prim=select_prim, **GATHER)

    tangents = rng.standard_normal((4, 6))
    derivative = check_jvp(gather, [tangents, x])
    s = rng.standard_normal((4, 6))
    _, exact = jvp(lambda a: gather(a, x), (tangents,), (s,))
    np.testing.assert_array_equal(np.asarray(exact), np.asarray(gather(s, x)))
    assert derivative.shape == (4, 3)


@pytest.mark.parametrize("select_prim", [elementwise.ge_p, elementwise.le_p])
def test_select_and_scatter_add_is_linear_in_its_source(select_prim):
    x = rng.permutation(24).reshape(4, 6) + rng.uniform(0, 0.1, (4, 6))

    def scatter(source, operand):
        return windowed.select_and_scatter_add_p.bind(source, operand, select_prim=select_prim, **SCATTER)

    source = rng.standard_normal((4, 3))
    check_jvp(scatter, [source, x])
    s = rng.standard_normal((4, 3))
    _, exact = jvp(lambda a: scatter(a, x), (source,), (s,))
    np.testing.assert_array_equal(np.asarray(exact), np.asarray(scatter(s, x)))
    _, by_operand = jvp(lambda b: scatter(source, b), (x,), (np.ones((4, 6)),))
    np.testing.assert_array_equal(np.asarray(by_operand), np.zeros((4, 6)))


# ---------------------------------------------------------------- the equations JAX emits

def test_jaxprs_match_jax():
    assert_jaxprs_match_golden("jvp_extra_golden.json", render)
