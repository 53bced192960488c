"""Forward-mode differentiation of gather, scatter, the cumulative scans, sort and top_k: values against
finite differences and analytic tangents, symbolic zeros, and the equations JAX 0.10.2 emits."""

from __future__ import annotations

import numpy as np
import pytest
from jvp_checks import assert_jaxprs_match_golden, check_jvp, x64_everywhere  # noqa: F401  (x64_everywhere: an autouse fixture)
from make_jvp_indexing_golden import render

from jaxle_core import dtypes, lax, make_jaxpr
from jaxle_core.ad import jvp

GDN = lax.GatherDimensionNumbers
SDN = lax.ScatterDimensionNumbers


def primitives(fun, *args):
    return [e.primitive.name for e in make_jaxpr(fun)(*args).jaxpr.eqns]


rng = np.random.default_rng(0)
X = rng.standard_normal((4, 5))
V = rng.standard_normal(7)

# ---------------------------------------------------------------- gather


def test_gather_rows_with_repeats():
    indices = np.array([[3], [0], [3], [1]])
    dn = GDN(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
    check_jvp(lambda x: lax.gather(x, indices, dn, (1, 5)), [X])


def test_gather_windows():
    indices = np.array([[0, 1], [2, 3], [1, 0]])
    dn = GDN(offset_dims=(1, 2), collapsed_slice_dims=(), start_index_map=(0, 1))
    check_jvp(lambda x: lax.gather(x, indices, dn, (2, 2)), [X])


def test_gather_fill_has_zero_tangent_out_of_bounds():
    indices = np.array([[0], [9], [2]])
    dn = GDN(offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,))
    value, tangent = jvp(lambda x: lax.gather(x, indices, dn, (1,), mode="fill", fill_value=5.0), (V,),
                         (np.ones(7),))
    np.testing.assert_array_equal(np.asarray(value), [V[0], 5.0, V[2]])
    np.testing.assert_array_equal(np.asarray(tangent), [1.0, 0.0, 1.0])
    eqns = make_jaxpr(lambda x, t: jvp(lambda x: lax.gather(x, indices, dn, (1,), mode="fill", fill_value=5.0),
                                       (x,), (t,)))(V, V).jaxpr.eqns
    assert [e.params["fill_value"] for e in eqns] == [5.0, 0]


def test_gather_with_integer_operand_has_float0_tangent():
    indices = np.array([[1]])
    dn = GDN(offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,))
    _, tangent = jvp(lambda x: lax.gather(x, indices, dn, (1,)), (np.arange(3),), (np.zeros(3, dtypes.float0),))
    assert tangent.dtype == dtypes.float0 and tangent.shape == (1,)


# ---------------------------------------------------------------- scatter

POINT_DN = SDN(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
REPEATED = np.array([[1], [4], [1], [6], [4]])
UNIQUE = np.array([[5], [0], [2]])
ROW_DN = SDN(update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
ROWS = np.array([[2], [0], [2]])


@pytest.mark.parametrize("scatter", [lax.scatter_add, lax.scatter_sub])
def test_scatter_add_and_sub_are_linear(scatter):
    updates = rng.standard_normal(5)
    check_jvp(lambda x, u: scatter(x, REPEATED, u, POINT_DN), [V, updates])
    derivative = check_jvp(lambda u: scatter(V, REPEATED, u, POINT_DN), [updates], [np.ones(5)])
    sign = 1.0 if scatter is lax.scatter_add else -1.0
    np.testing.assert_array_equal(derivative, sign * np.array([0, 2, 0, 0, 2, 0, 1]))
    check_jvp(lambda x, u: scatter(x, ROWS, u, ROW_DN), [X, rng.standard_normal((3, 5))])


@pytest.mark.parametrize("indices, unique", [(REPEATED, False), (UNIQUE, True), (UNIQUE, False)])
def test_scatter_replaces_tangents(indices, unique):
    updates = rng.standard_normal(len(indices))
    t_x, t_u = rng.standard_normal(7), rng.standard_normal(len(indices))
    value, tangent = jvp(lambda x, u: lax.scatter(x, indices, u, POINT_DN, unique_indices=unique),
                         (V, updates), (t_x, t_u))
    np.testing.assert_array_equal(np.asarray(value), np.asarray(lax.scatter(V, indices, updates, POINT_DN)))
    # The tangent is itself a scatter of the update tangents over the operand tangent.
    np.testing.assert_array_equal(np.asarray(tangent), np.asarray(lax.scatter(t_x, indices, t_u, POINT_DN)))


def test_scatter_of_windows_and_clipped_indices():
    updates = rng.standard_normal((3, 5))
    check_jvp(lambda x, u: lax.scatter(x, ROWS, u, ROW_DN), [X, updates])
    clipped = np.array([[9], [-3], [1]])
    check_jvp(lambda x, u: lax.scatter(x, clipped, u, ROW_DN, mode="clip"), [X, updates])
    dropped = np.array([[9], [1], [1]])
    value, tangent = jvp(lambda x, u: lax.scatter(x, dropped, u, ROW_DN), (X, updates),
                         (np.ones_like(X), 2 * np.ones_like(updates)))
    np.testing.assert_array_equal(np.asarray(tangent), [[1.0] * 5, [2.0] * 5, [1.0] * 5, [1.0] * 5])


def test_scatter_with_constant_updates_zeroes_the_written_positions():
    _, tangent = jvp(lambda x: lax.scatter(x, REPEATED, np.zeros(5), POINT_DN), (V,), (np.ones(7),))
    np.testing.assert_array_equal(np.asarray(tangent), [1, 0, 1, 1, 0, 1, 0])


def test_scatter_equations_match_jax():
    def fun(x, u, t, s):
        return jvp(lambda x, u: lax.scatter(x, REPEATED, u, POINT_DN), (x, u), (t, s))

    updates = np.ones(5)
    assert primitives(fun, V, updates, V, updates) == [
        "iota", "broadcast_in_dim", "add", "broadcast_in_dim", "scatter", "gather", "broadcast_in_dim", "eq",
        "broadcast_in_dim", "select_n", "eq", "broadcast_in_dim", "select_n", "broadcast_in_dim", "eq",
        "broadcast_in_dim", "select_n", "eq", "broadcast_in_dim", "select_n", "scatter-add", "scatter-add"]


def test_scatter_mul_with_unique_indices():
    updates = rng.standard_normal(3)
    check_jvp(lambda x, u: lax.scatter_mul(x, UNIQUE, u, POINT_DN, unique_indices=True), [V, updates])
    check_jvp(lambda u: lax.scatter_mul(V, UNIQUE, u, POINT_DN, unique_indices=True), [updates])
    check_jvp(lambda x: lax.scatter_mul(x, UNIQUE, updates, POINT_DN, unique_indices=True), [V])
    with pytest.raises(NotImplementedError, match="unique_indices=True"):
        jvp(lambda x: lax.scatter_mul(x, UNIQUE, updates, POINT_DN), (V,), (V,))


@pytest.mark.parametrize("scatter", [lax.scatter_max, lax.scatter_min])
def test_scatter_extrema_match_finite_differences_without_ties(scatter):
    updates = rng.standard_normal(5)
    check_jvp(lambda x, u: scatter(x, REPEATED, u, POINT_DN), [V, updates])
    check_jvp(lambda x, u: scatter(x, ROWS, u, ROW_DN), [X, rng.standard_normal((3, 5))])


def test_scatter_max_shares_tangents_among_ties():
    indices = np.array([[1], [1], [3], [2]])
    operand, updates = np.array([0.0, 2.0, 5.0, 4.0]), np.array([2.0, 1.0, 4.0, 7.0])
    value, tangent = jvp(lambda x, u: lax.scatter_max(x, indices, u, POINT_DN), (operand, updates),
                         (np.array([1.0, 2.0, 3.0, 4.0]), np.array([10.0, 20.0, 30.0, 40.0])))
    np.testing.assert_array_equal(np.asarray(value), [0.0, 2.0, 7.0, 4.0])
    # Position 1: operand and first update tie at 2; position 3: operand and update tie at 4.
    np.testing.assert_allclose(np.asarray(tangent), [1.0, 6.0, 40.0, 17.0])


# ---------------------------------------------------------------- cumulative scans


@pytest.mark.parametrize("name", ["cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp"])
@pytest.mark.parametrize("axis, reverse", [(0, False), (1, False), (1, True), (0, True)])
def test_cumulative_matches_finite_differences(name, axis, reverse):
    fun = getattr(lax, name)
    check_jvp(lambda x: fun(x, axis=axis, reverse=reverse), [X])


def test_complex_cumlogsumexp_is_holomorphic():
    z = np.array([1 + 1j, -0.5 + 2j, 0.25 - 1j, 2j])
    check_jvp(lax.cumlogsumexp, [z], [np.array([1.0, 0.5j, -1 + 1j, 2.0])])


def test_cumulative_analytic_values():
    x = np.array([2.0, -1.0, 3.0, 0.0, 5.0])
    t = np.ones(5)
    _, tangent = jvp(lax.cumprod, (x,), (t,))
    np.testing.assert_allclose(np.asarray(tangent), [1.0, 1.0, 1.0, -6.0, -30.0])
    _, tangent = jvp(lax.cummax, (x,), (np.arange(5.0),))
    np.testing.assert_array_equal(np.asarray(tangent), [0.0, 0.0, 2.0, 2.0, 4.0])
    _, tangent = jvp(lax.cumsum, (x,), (t,))
    np.testing.assert_array_equal(np.asarray(tangent), [1.0, 2.0, 3.0, 4.0, 5.0])
    # A softmax-weighted sum of the tangents; -inf entries carry no weight.
    y = np.array([0.5, -np.inf, 1.5])
    _, tangent = jvp(lax.cumlogsumexp, (y,), (np.array([1.0, 7.0, 2.0]),))
    weights = np.exp(y - np.logaddexp.reduce(y))
    np.testing.assert_allclose(np.asarray(tangent), [1.0, 1.0, weights[0] + 2 * weights[2]])


def test_cumulative_of_one_element_and_empty_axes():
    for fun in (lax.cumprod, lax.cummax, lax.cumlogsumexp):
        _, tangent = jvp(fun, (np.array([3.0]),), (np.array([2.0]),))
        np.testing.assert_array_equal(np.asarray(tangent), [2.0])
        _, tangent = jvp(fun, (np.zeros((0, 2)),), (np.zeros((0, 2)),))
        assert np.asarray(tangent).shape == (0, 2)


def test_cumulative_ties_split_like_jax():
    x = np.array([1.0, 3.0, 3.0, 2.0, 3.0, 5.0, 5.0])
    t = np.arange(7.0)
    # Values from JAX 0.10.2: ties share tangents according to the shape of the parallel scan.
    np.testing.assert_allclose(np.asarray(jvp(lax.cummax, (x,), (t,))[1]), [0, 1, 1.5, 1.5, 2.75, 5, 5.5])
    np.testing.assert_allclose(np.asarray(jvp(lax.cummin, (-x,), (t,))[1]), [0, 1, 1.5, 1.5, 2.75, 5, 5.5])
    np.testing.assert_allclose(np.asarray(jvp(lambda x: lax.cummax(x, reverse=True), (x,), (t,))[1]),
                               [5.5, 5.5, 5.5, 5.5, 5.5, 5.5, 6.0])
    value, tangent = jvp(lax.cumlogsumexp, (np.array([0.0, -np.inf, np.inf, 1.0]),), (np.arange(4.0),))
    np.testing.assert_array_equal(np.asarray(value), [0.0, 0.0, np.inf, np.inf])
    np.testing.assert_allclose(np.asarray(tangent), [0.0, 0.0, 2.0, 10.15484549], rtol=1e-8)


def test_cumsum_is_a_single_linear_equation():
    assert primitives(lambda x, t: jvp(lax.cumsum, (x,), (t,)), V, V) == ["cumsum", "cumsum"]


# ---------------------------------------------------------------- sort and top_k


@pytest.mark.parametrize("dimension", [0, 1])
def test_sort_permutes_tangents(dimension):
    derivative = check_jvp(lambda x: lax.sort(x, dimension=dimension), [X], [np.arange(20.0).reshape(4, 5)])
    order = np.argsort(X, axis=dimension)
    np.testing.assert_array_equal(derivative, np.take_along_axis(np.arange(20.0).reshape(4, 5), order, dimension))


def test_sort_several_operands():
    keys = np.array([3.0, 1.0, 2.0, 1.0])
    values = rng.standard_normal(4)
    t_keys, t_values = np.array([10.0, 20.0, 30.0, 40.0]), np.array([1.0, 2.0, 3.0, 4.0])
    out, tangents = jvp(lambda k, v: lax.sort((k, v), num_keys=1), (keys, values), (t_keys, t_values))
    np.testing.assert_array_equal(np.asarray(out[0]), [1.0, 1.0, 2.0, 3.0])
    np.testing.assert_array_equal(np.asarray(tangents[0]), [20.0, 40.0, 30.0, 10.0])
    np.testing.assert_array_equal(np.asarray(tangents[1]), [2.0, 4.0, 3.0, 1.0])
    _, (t_k, t_v) = jvp(lambda v: lax.sort_key_val(keys, v), (values,), (t_values,))
    np.testing.assert_array_equal(np.asarray(t_k), np.zeros(4))
    np.testing.assert_array_equal(np.asarray(t_v), [2.0, 4.0, 3.0, 1.0])


def test_sort_by_integer_keys():
    keys = np.array([2, 0, 1])
    _, (t_k, t_v) = jvp(lambda v: lax.sort_key_val(keys, v), (np.zeros(3),), (np.array([1.0, 2.0, 3.0]),))
    assert t_k.dtype == dtypes.float0
    np.testing.assert_array_equal(np.asarray(t_v), [2.0, 3.0, 1.0])


def test_sort_equations_match_jax():
    assert primitives(lambda x, t: jvp(lax.sort, (x,), (t,)), V, V) == ["iota", "sort", "broadcast_in_dim", "gather"]


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_top_k_gathers_tangents(axis):
    derivative = check_jvp(lambda x: lax.top_k(x, 3, axis=axis)[0], [X.T], [np.arange(20.0).reshape(5, 4)])
    order = np.argsort(-X.T, axis=axis, kind="stable")
    expected = np.take_along_axis(np.arange(20.0).reshape(5, 4), np.take(order, range(3), axis=axis), axis)
    np.testing.assert_array_equal(derivative, expected)


def test_top_k_indices_have_float0_tangents():
    _, (t_values, t_indices) = jvp(lambda x: lax.top_k(x, 2), (V,), (np.ones(7),))
    np.testing.assert_array_equal(np.asarray(t_values), [1.0, 1.0])
    assert t_indices.dtype == dtypes.float0 and t_indices.shape == (2,)
    assert primitives(lambda x, t: jvp(lambda x: lax.top_k(x, 2)[0], (x,), (t,)), V, V) == [
        "top_k", "reshape", "gather"]

def test_jaxprs_match_jax():
    assert_jaxprs_match_golden("jvp_indexing_golden.json", render)
