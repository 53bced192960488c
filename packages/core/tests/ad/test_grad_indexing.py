"""Reverse-mode differentiation of slicing, padding, concatenation, splitting, dynamic slices, gather/scatter, the
cumulative scans, sort and top_k: cotangents against finite differences and the jvp (dot-product identity), second
order, the transposes' errors, and the equations JAX 0.10.2 emits."""

from __future__ import annotations

import numpy as np
import pytest
from jvp_checks import assert_jaxprs_match_golden, check_jvp, finite_difference, x64_everywhere  # noqa: F401  (x64_everywhere: an autouse fixture)
from make_grad_indexing_golden import render

from jaxle_core import lax, make_jaxpr
from jaxle_core.ad import UndefinedPrimal, grad, jvp, linear_transpose, transpose_rules, vjp

GDN = lax.GatherDimensionNumbers
SDN = lax.ScatterDimensionNumbers
POINT = SDN(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
ROWS = SDN(update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
TAKE = GDN(offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,))
TAKE_ROWS = GDN(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))

rng = np.random.default_rng(0)
V = rng.standard_normal(7)
X = rng.standard_normal((4, 5))
REPEATED = np.array([[3], [0], [3], [1]])
OUT_OF_BOUNDS = np.array([[3], [9], [-2], [1]])
DISTINCT = np.array([[5], [0], [2]])


def check_vjp(fun, *primals, rtol=1e-6, atol=1e-8):
    """The pullback of random cotangents against the jvp (dot-product identity) and against central differences
    along random tangents."""
    out, pullback = vjp(fun, *primals)
    ct = rng.standard_normal(np.shape(out))
    cts = pullback(ct)
    tangents = [rng.standard_normal(np.shape(p)) for p in primals]
    assert [np.shape(c) for c in cts] == [np.shape(p) for p in primals]
    reverse = sum(float(np.vdot(np.asarray(c), t)) for c, t in zip(cts, tangents))
    _, forward = jvp(fun, primals, tuple(tangents))
    np.testing.assert_allclose(reverse, np.vdot(ct, np.asarray(forward)), rtol=rtol, atol=atol)
    np.testing.assert_allclose(reverse, np.vdot(ct, finite_difference(fun, primals, tangents)), rtol=rtol,
                               atol=atol)
    return [np.asarray(c) for c in cts]


def check_second_order(fun, x):
    """The Hessian-vector product from reverse over reverse against central differences of the gradient."""
    v = rng.standard_normal(np.shape(x))
    hvp = grad(lambda y: lax.reduce_sum(lax.mul(grad(fun)(y), v), tuple(range(np.ndim(x)))))(x)
    np.testing.assert_allclose(np.asarray(hvp), finite_difference(grad(fun), (x,), (v,)), rtol=1e-5, atol=1e-7)


def total(y):
    return lax.reduce_sum(y, tuple(range(np.ndim(y))))


# ---------------------------------------------------------------- slice, pad, concatenate


@pytest.mark.parametrize("start, limit, strides", [
    ((1, 0), (3, 5), None), ((0, 1), (4, 5), (2, 3)), ((0, 0), (4, 5), (1, 1)), ((2, 2), (2, 4), (2, 1)),
    ((0, 0), (0, 0), None), ((3, 4), (4, 5), (5, 5))])
def test_slice(start, limit, strides):
    check_vjp(lambda x: lax.slice(x, start, limit, strides), X)


def test_slice_cotangent_is_placed_back():
    (ct,) = vjp(lambda x: lax.slice(x, (1,), (6,), (2,)), V)[1](np.array([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(np.asarray(ct), [0, 1, 0, 2, 0, 3, 0])


@pytest.mark.parametrize("config", [
    [(1, 2, 1), (0, 0, 0)], [(-1, 2, 0), (2, -3, 1)], [(0, 0, 0), (0, 0, 0)], [(-2, -1, 2), (1, 1, 3)]])
def test_pad_in_operand_and_padding_value(config):
    check_vjp(lambda x, v: lax.pad(x, v, config), X, np.float64(0.5))


def test_pad_padding_value_alone_receives_the_padding_positions():
    """JAX 0.10.2 fails on this case (it sums the operand's absent cotangent); jaxle gives the derivative."""
    g = grad(lambda v: total(lax.pad(V, v, [(2, -1, 1)])))(np.float64(0.0))
    assert float(g) == 2 + 6 - 0  # two low positions, six interior ones, the cropped one is an original value
    check_vjp(lambda v: lax.pad(V, v, [(2, -1, 1)]), np.float64(0.0))


def test_pad_of_empty_operand():
    check_vjp(lambda x, v: lax.pad(x, v, [(1, 2, 3)]), np.zeros(0), np.float64(1.0))


@pytest.mark.parametrize("dimension", [0, 1])
def test_concatenate(dimension):
    empty = np.zeros((0, 5)) if dimension == 0 else np.zeros((4, 0))
    check_vjp(lambda a, b, c: lax.concatenate([a, X, b, empty, c], dimension), X, X, X)


def test_concatenate_with_some_constant_operands():
    cts = check_vjp(lambda a: lax.concatenate([X, lax.mul(a, 2.0), a], 1), X)
    assert cts[0].shape == X.shape


@pytest.mark.parametrize("sizes, axis", [((2, 0, 3), 1), ((1, 3), 0), ((5,), -1)])
def test_split(sizes, axis):
    def fun(x):
        return lax.concatenate(lax.split(lax.sin(x), sizes, axis)[::-1], axis % 2) * x

    check_jvp(fun, (X,))
    check_vjp(fun, X)


def test_split_with_unused_pieces():
    """Pieces that do not reach the output have symbolic zero cotangents, which the transpose fills with zeros."""
    check_vjp(lambda x: lax.split(x, (1, 2, 2), 1)[1] ** 2, X)
    expected = np.zeros_like(X)
    expected[:, 1:3] = 2 * X[:, 1:3]
    np.testing.assert_allclose(np.asarray(grad(lambda x: total(lax.split(x, (1, 2, 2), 1)[1] ** 2))(X)), expected,
                               rtol=1e-12)


def test_split_transposes_to_concatenate():
    pieces = [np.ones((4, 2)), np.full((4, 3), 2.0)]
    (ct,) = linear_transpose(lambda x: lax.split(x, (2, 3), 1), X)(pieces)
    np.testing.assert_array_equal(np.asarray(ct), np.concatenate(pieces, 1))


def test_split_second_order():
    check_second_order(lambda x: total(lax.mul(*lax.split(lax.sin(x), (3, 3), 0)) ** 2), V[:6])


def test_copy():
    np.testing.assert_array_equal(check_vjp(lambda x: lax.copy_p.bind(x), X)[0].shape, X.shape)


# ---------------------------------------------------------------- dynamic slices


@pytest.mark.parametrize("starts, corner", [((1, 2), (1, 2)), ((3, 3), (2, 2)), ((9, -4), (2, 1)),
                                            ((-7, 10), (0, 2))])
def test_dynamic_slice_clamps_like_the_primal(starts, corner):
    """Negative starts count from the end, then starts are clamped so that the slice fits."""
    out, pullback = vjp(lambda x: lax.dynamic_slice(x, starts, (2, 3)), X)
    (row, col) = corner
    np.testing.assert_array_equal(np.asarray(out), X[row:row + 2, col:col + 3])
    expected = np.zeros_like(X)
    expected[row:row + 2, col:col + 3] = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(np.asarray(pullback(np.arange(6.0).reshape(2, 3))[0]), expected)
    check_vjp(lambda x: lax.dynamic_slice(x, starts, (2, 3)), X)


def test_dynamic_slice_of_a_scalar_and_with_traced_indices():
    check_vjp(lambda x: lax.dynamic_slice(x, (), ()), np.float64(2.0))
    g = grad(lambda x, i: total(lax.dynamic_slice_in_dim(x, i, 3)))(V, np.int32(5))
    np.testing.assert_array_equal(np.asarray(g), [0, 0, 0, 0, 1, 1, 1])


@pytest.mark.parametrize("starts", [(1, 2), (8, -3), (0, 0)])
def test_dynamic_update_slice(starts):
    update = rng.standard_normal((2, 3))
    cts = check_vjp(lambda x, u: lax.dynamic_update_slice(x, u, starts), X, update)
    assert np.count_nonzero(cts[0]) == X.size - update.size


def test_dynamic_update_slice_of_empty_update():
    check_vjp(lambda x, u: lax.dynamic_update_slice(x, u, (2, 1)), X, np.zeros((0, 3)))


# ---------------------------------------------------------------- gather and scatter


@pytest.mark.parametrize("mode", ["clip", "fill", "promise_in_bounds"])
def test_gather_sums_repeated_reads(mode):
    indices = OUT_OF_BOUNDS if mode != "promise_in_bounds" else REPEATED
    cts = check_vjp(lambda x: lax.gather(x, indices, TAKE_ROWS, (1, 5), mode=mode, fill_value=1.5), X)
    if mode == "fill":  # the out-of-bounds rows were filled with a constant
        assert np.all(cts[0][0] == 0) and np.all(cts[0][2] == 0)


def test_gather_cotangent_counts_the_reads():
    (ct,) = vjp(lambda x: lax.gather(x, REPEATED, TAKE, (1,)), V)[1](np.ones(4))
    np.testing.assert_array_equal(np.asarray(ct), [1, 1, 0, 2, 0, 0, 0])


def test_gather_with_batching_dimensions():
    dn = GDN(offset_dims=(), collapsed_slice_dims=(1,), start_index_map=(1,), operand_batching_dims=(0,),
             start_indices_batching_dims=(0,))
    check_vjp(lambda x: lax.gather(x, np.array([[4], [0], [0], [2]]), dn, (1, 1)), X)


@pytest.mark.parametrize("scatter", [lax.scatter_add, lax.scatter_sub])
@pytest.mark.parametrize("mode", ["clip", "fill"])
def test_scatter_add_and_sub(scatter, mode):
    check_vjp(lambda x, u: scatter(x, OUT_OF_BOUNDS, u, ROWS, mode=mode), X, rng.standard_normal((4, 5)))


def test_scatter_add_drops_out_of_bounds_updates():
    cts = vjp(lambda u: lax.scatter_add(V, OUT_OF_BOUNDS, u, POINT), np.ones(4))[1](np.arange(7.0))
    np.testing.assert_array_equal(np.asarray(cts[0]), [3, 0, 0, 1])


@pytest.mark.parametrize("unique", [True, False])
def test_scatter(unique):
    indices = DISTINCT if unique else np.array([[5], [0], [5]])
    check_vjp(lambda x, u: lax.scatter(x, indices, u, POINT, unique_indices=unique), V, rng.standard_normal(3))


def test_scatter_of_windows_with_clipped_indices():
    check_vjp(lambda x, u: lax.scatter(x, np.array([[7], [1]]), u, ROWS, mode="clip", unique_indices=True), X,
              rng.standard_normal((2, 5)))


def transpose_of(fun, *args, linear: int = 0):
    """The transpose rule of the one equation of ``fun``, with its operand ``linear`` undefined."""
    (eqn,) = make_jaxpr(fun)(*args).jaxpr.eqns
    operands = list(args)
    operands[linear] = UndefinedPrimal(eqn.invars[linear].aval)
    return lambda ct: transpose_rules[eqn.primitive](ct, *operands, **eqn.params)


def test_scatter_transpose_needs_unique_indices():
    transpose = transpose_of(lambda x, i, u: lax.scatter(x, i, u, POINT), V, REPEATED, np.zeros(4))
    with pytest.raises(NotImplementedError, match="unique_indices=True"):
        transpose(V)


def test_scatter_mul():
    check_vjp(lambda x, u: lax.scatter_mul(x, DISTINCT, u, POINT, unique_indices=True), V, rng.standard_normal(3))
    transpose = linear_transpose(lambda x: lax.scatter_mul(x, REPEATED, np.full(4, 3.0), POINT), V)
    np.testing.assert_array_equal(np.asarray(transpose(np.ones(7))[0]), [3, 3, 1, 9, 1, 1, 1])
    in_updates = transpose_of(lambda x, i, u: lax.scatter_mul(x, i, u, POINT, unique_indices=True), V, DISTINCT,
                              np.ones(3), linear=2)
    with pytest.raises(NotImplementedError, match="scatter_mul"):
        in_updates(V)


@pytest.mark.parametrize("scatter", [lax.scatter_min, lax.scatter_max])
def test_scatter_extrema_without_ties(scatter):
    check_vjp(lambda x, u: scatter(x, REPEATED, u, POINT), V, rng.standard_normal(4))


# ---------------------------------------------------------------- cumulative scans, sort, top_k, clamp


@pytest.mark.parametrize("name", ["cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp"])
@pytest.mark.parametrize("axis, reverse", [(0, False), (1, True), (1, False)])
def test_cumulative(name, axis, reverse):
    check_vjp(lambda x: getattr(lax, name)(x, axis=axis, reverse=reverse), X)


def test_cumsum_of_empty_and_single_element_axes():
    check_vjp(lambda x: lax.cumsum(x, axis=1), np.zeros((3, 0)))
    check_vjp(lambda x: lax.cumprod(x, axis=0, reverse=True), X[:1])


@pytest.mark.parametrize("dimension", [0, 1])
def test_sort(dimension):
    def fun(x, y):
        keys, values = lax.sort((x, y), dimension=dimension, num_keys=1)
        return lax.add(keys, lax.mul(values, 3.0))

    check_vjp(fun, X, rng.standard_normal(X.shape))


def test_top_k():
    check_vjp(lambda x: lax.top_k(x, 3)[0], X)


def test_clamp():
    check_vjp(lambda x: lax.clamp(-0.5, x, 0.5), X)


# ---------------------------------------------------------------- second order


@pytest.mark.parametrize("fun", [
    lambda x: total(lax.sin(lax.slice(x, (1,), (7,), (2,))) * lax.pad(x, 0.5, [(0, -1, 0)])[:6:2]),
    lambda x: total(lax.sin(lax.gather(x, REPEATED, TAKE, (1,))) ** 2),
    lambda x: total(lax.scatter_add(x, REPEATED, lax.exp(lax.slice(x, (0,), (4,))), POINT) ** 3),
    lambda x: total(lax.cumsum(lax.sin(x)) * lax.cumprod(x, reverse=True)),
    lambda x: total(lax.dynamic_update_slice(x, lax.tanh(lax.dynamic_slice(x, (4,), (3,))), (1,)) ** 2),
    lambda x: total(lax.concatenate([x, lax.sin(x)], 0) ** 2),
    lambda x: total(lax.sort(x) * np.arange(7.0) ** 2),
], ids=["slice_pad", "gather", "scatter_add", "cumulative", "dynamic_slices", "concatenate", "sort"])
def test_second_order(fun):
    check_second_order(fun, V)


# ---------------------------------------------------------------- equations

def test_jaxprs_match_jax():
    assert_jaxprs_match_golden("grad_indexing_golden.json", render)
