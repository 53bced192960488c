"""``vmap`` of slices, dynamic slices and updates, gathers and scatters: values against per-example loops and NumPy,
jaxprs against JAX 0.10.2."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import GOLDEN_DIR
from make_vmap_indexing_golden import put_rows, render, take_points, take_rows
from make_vmap_numeric_golden import arr
from test_vmap_numeric import check_batched

import jaxle_core as jc
from jaxle_core import lax
from jaxle_core.batching import vmap

i32 = np.int32
# Start indices past either end (they wrap once if negative, then clamp) and in range.
STARTS = np.array([3, -1, 0, 7, 2, -9, 100], i32)
# Row indices of gathers and scatters, some out of bounds for 4 rows (shape (7, 3, 1)).
ROWS = np.array([[0, 2, 1], [1, 3, 0], [3, 0, 2], [2, 9, 1], [0, -1, 0], [3, 3, 3], [-5, 1, 4]], i32)[..., None]
# Rows that stay distinct within each example after clamping (so plain scatters are order-independent).
DISTINCT_ROWS = np.array([[0, 2, 1], [1, 3, 0], [3, 0, 2], [2, 9, 1], [1, -1, 3], [3, 1, 2], [-5, 1, 4]],
                         i32)[..., None]


def batched_along(x: np.ndarray, axis: int | None) -> np.ndarray:
    """``x`` with its leading (batch) axis moved to ``axis`` (unchanged for None: the first example is used)."""
    return x[0] if axis is None else np.moveaxis(x, 0, axis)


def operand_index_axes(rank: int):
    """(operand axis, index axis) pairs with at least one batched."""
    return [(a, b) for a in (None, *range(rank + 1)) for b in (None, 0) if (a, b) != (None, None)]


# ---------------------------------------------------------------- slice


@pytest.mark.parametrize("axis", [0, 1, 2])
@pytest.mark.parametrize("strides", [None, (2, 1)])
def test_vmap_of_slice(axis, strides):
    x = batched_along(arr(4, 5, 3), axis)
    check_batched(lambda v: lax.slice(v, (1, 0), (5, 2), strides), (axis,), x)


def test_vmap_of_slice_in_dim_with_negative_bounds():
    out = check_batched(lambda v: lax.slice_in_dim(v, -3, None, 2, axis=0), (1,), arr(6, 4))
    np.testing.assert_array_equal(out, arr(6, 4).T[:, 3::2])


# ---------------------------------------------------------------- dynamic_slice


@pytest.mark.parametrize("operand_axis, index_axis", operand_index_axes(1))
def test_vmap_of_dynamic_slice(operand_axis, index_axis):
    x = batched_along(arr(7, 6), operand_axis)
    starts = batched_along(STARTS, index_axis)
    check_batched(lambda v, i: lax.dynamic_slice(v, (i,), (3,)), (operand_axis, index_axis), x, starts)


def test_vmap_of_dynamic_slice_clamps_like_numpy():
    x = arr(7, 6)
    out = np.asarray(vmap(lambda v, i: lax.dynamic_slice(v, (i,), (3,)))(x, STARTS))
    starts = np.clip(np.where(STARTS < 0, STARTS + 6, STARTS), 0, 3)
    np.testing.assert_array_equal(out, np.stack([x[k, s:s + 3] for k, s in enumerate(starts)]))


@pytest.mark.parametrize("in_axes", [(None, 0, None), (2, 0, 0), (0, None, None), (1, None, 0), (None, 0, 0)])
def test_vmap_of_two_dimensional_dynamic_slice(in_axes):
    x = batched_along(arr(7, 4, 5), in_axes[0])
    rows, cols = batched_along(STARTS, in_axes[1]), batched_along(STARTS[::-1].copy(), in_axes[2])
    check_batched(lambda v, i, j: lax.dynamic_slice(v, (i, j), (2, 3)), in_axes, x, rows, cols)


def test_vmap_of_dynamic_slice_of_a_scalar():
    check_batched(lambda v: lax.dynamic_slice(v, (), ()), (0,), arr(5))


def test_vmap_of_dynamic_index_in_dim():
    check_batched(lambda v, i: lax.dynamic_index_in_dim(v, i, 1, keepdims=False), (0, 0), arr(7, 3, 6), STARTS)


# ---------------------------------------------------------------- dynamic_update_slice


@pytest.mark.parametrize("in_axes", [(0, None, None), (None, 1, None), (None, None, 0), (1, 0, 0), (0, 0, None),
                                     (None, 0, 0), (1, None, 0)])
def test_vmap_of_dynamic_update_slice(in_axes):
    x = batched_along(arr(7, 6), in_axes[0])
    update = batched_along(arr(7, 2) + 10, in_axes[1])
    starts = batched_along(STARTS, in_axes[2])
    check_batched(lambda v, u, i: lax.dynamic_update_slice(v, u, (i,)), in_axes, x, update, starts)


def test_vmap_of_dynamic_update_slice_clamps_like_numpy():
    x, update = arr(7, 6), arr(7, 2) + 10
    out = np.asarray(vmap(lambda v, u, i: lax.dynamic_update_slice(v, u, (i,)))(x, update, STARTS))
    expected = x.copy()
    for k, s in enumerate(np.clip(np.where(STARTS < 0, STARTS + 6, STARTS), 0, 4)):
        expected[k, s:s + 2] = update[k]
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("in_axes", [(0, None, None, 0), (None, 2, 0, None), (2, 0, None, 0)])
def test_vmap_of_two_dimensional_dynamic_update_slice(in_axes):
    x = batched_along(arr(7, 4, 5), in_axes[0])
    update = batched_along(arr(7, 2, 3) + 10, in_axes[1])
    rows, cols = batched_along(STARTS, in_axes[2]), batched_along(STARTS[::-1].copy(), in_axes[3])
    check_batched(lambda v, u, i, j: lax.dynamic_update_slice(v, u, (i, j)), in_axes, x, update, rows, cols)


# ---------------------------------------------------------------- gather


@pytest.mark.parametrize("mode, fill_value", [(None, None), ("clip", None), ("fill", None), ("fill", -1.0),
                                              ("promise_in_bounds", None)])
@pytest.mark.parametrize("operand_axis, index_axis", operand_index_axes(2))
def test_vmap_of_gather_rows(mode, fill_value, operand_axis, index_axis):
    x = batched_along(arr(7, 4, 3), operand_axis)
    rows = batched_along(ROWS, index_axis)
    check_batched(take_rows(lax, mode, fill_value), (operand_axis, index_axis), x, rows)


def test_vmap_of_gather_fills_out_of_bounds_rows_like_numpy():
    x = arr(7, 4, 3)
    out = np.asarray(vmap(take_rows(lax, "fill", -1.0))(x, ROWS))
    rows = ROWS[..., 0]
    expected = np.where(((rows >= 0) & (rows < 4))[..., None], x[np.arange(7)[:, None], np.clip(rows, 0, 3)], -1.0)
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("mode", [None, "clip", "fill"])
@pytest.mark.parametrize("in_axes", [(0, 0), (1, None), (None, 1), (2, 0)])
def test_vmap_of_gather_points(mode, in_axes):
    points = np.stack([ROWS[..., 0], ROWS[::-1, :, 0]], -1)
    check_batched(take_points(lax, mode), in_axes, batched_along(arr(7, 4, 5), in_axes[0]),
                  batched_along(points, in_axes[1]))


@pytest.mark.parametrize("mode", [None, "clip", "fill"])
def test_vmap_of_gather_over_an_empty_batch(mode):
    # Operand and indices both batched, over zero examples: an empty result of the per-example shape (as JAX's,
    # whose gather takes no element of the empty batch dimension).
    out = vmap(take_rows(lax, mode))(np.zeros((0, 4, 3), np.float32), np.zeros((0, 3, 1), i32))
    assert np.asarray(out).shape == (0, 3, 3)


X4, ROWS4 = arr(7, 2, 4, 3), np.stack([ROWS, ROWS[::-1]], 1)
# (outer in_axes, inner in_axes, outer arguments, the arguments of example (a, b)).
NESTED_GATHERS = [
    ((1, 1), (0, 0), (np.moveaxis(X4, 0, 1), np.moveaxis(ROWS4, 0, 1)), lambda a, b: (X4[a, b], ROWS4[a, b])),
    ((0, None), (None, 0), (X4[:, 0], ROWS4[0]), lambda a, b: (X4[a, 0], ROWS4[0, b])),
    ((None, 0), (0, None), (X4[0], ROWS4[:, 0]), lambda a, b: (X4[0, b], ROWS4[a, 0])),
]


@pytest.mark.parametrize("outer_axes, inner_axes, args, example", NESTED_GATHERS)
def test_nested_vmap_of_gather(outer_axes, inner_axes, args, example):
    f = take_rows(lax, "fill")
    out = np.asarray(vmap(vmap(f, in_axes=inner_axes), in_axes=outer_axes)(*args))
    assert out.shape == (7, 2, 3, 3)
    for a in range(7):
        for b in range(2):
            np.testing.assert_array_equal(out[a, b], np.asarray(f(*example(a, b))))


# ---------------------------------------------------------------- scatter

ALL_THREE_AXES = [(0, None, None), (None, 0, None), (None, None, 2), (1, 0, None), (None, 1, 0), (0, None, 1),
                  (2, 0, 0)]


@pytest.mark.parametrize("op", ["scatter_add", "scatter_sub", "scatter_mul", "scatter_min", "scatter_max"])
@pytest.mark.parametrize("mode", [None, "clip"])
@pytest.mark.parametrize("in_axes", ALL_THREE_AXES)
def test_vmap_of_combining_scatters(op, mode, in_axes):
    x = batched_along(arr(7, 4, 2), in_axes[0])
    rows = batched_along(ROWS, in_axes[1])
    updates = batched_along(arr(7, 3, 2) * 2 + 1, in_axes[2])
    check_batched(put_rows(lax, op, mode), in_axes, x, rows, updates)


@pytest.mark.parametrize("mode", [None, "clip"])
@pytest.mark.parametrize("in_axes", ALL_THREE_AXES)
def test_vmap_of_scatter(mode, in_axes):
    check_batched(put_rows(lax, "scatter", mode), in_axes, batched_along(arr(7, 4, 2), in_axes[0]),
                  batched_along(DISTINCT_ROWS, in_axes[1]), batched_along(arr(7, 3, 2) + 10, in_axes[2]))


def test_vmap_of_scatter_add_drops_out_of_bounds_rows_like_numpy():
    x, updates = arr(7, 4, 2), arr(7, 3, 2) * 2 + 1
    out = np.asarray(vmap(put_rows(lax, "scatter_add"))(x, ROWS, updates))
    expected = x.copy()
    for k in range(7):
        for j, r in enumerate(ROWS[k, :, 0]):
            if 0 <= r < 4:
                expected[k, r] += updates[k, j]
    np.testing.assert_allclose(out, expected, rtol=1e-6)


def test_nested_vmap_of_scatter_add():
    x, rows, updates = arr(7, 2, 4, 2), np.stack([ROWS, ROWS[::-1]], 1), arr(2, 7, 3, 2)
    out = np.asarray(vmap(vmap(put_rows(lax, "scatter_add")), in_axes=(0, 0, 1))(x, rows, updates))
    for a in range(7):
        for b in range(2):
            expected = np.asarray(put_rows(lax, "scatter_add")(x[a, b], rows[a, b], updates[b, a]))
            np.testing.assert_allclose(out[a, b], expected, rtol=1e-6)


def test_vmap_of_scatter_under_jit():
    f = jc.jit(vmap(put_rows(lax, "scatter_max"), in_axes=(None, 0, 0)))
    check = check_batched(put_rows(lax, "scatter_max"), (None, 0, 0), arr(4, 2), ROWS, arr(7, 3, 2))
    np.testing.assert_array_equal(np.asarray(f(arr(4, 2), ROWS, arr(7, 3, 2))), check)


# ---------------------------------------------------------------- jaxprs


def test_jaxprs_match_jax():
    with open(GOLDEN_DIR / "vmap_indexing_golden.json") as f:
        golden = json.load(f)
    ours = render("jaxle_core")
    assert set(ours) == set(golden)
    for name, text in golden.items():
        assert ours[name] == text, name
