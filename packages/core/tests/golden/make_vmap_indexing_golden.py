"""Print the jaxpr of ``vmap`` over slices, dynamic slices and updates, gathers and scatters, as JSON, to compare
jaxle with JAX 0.10.2.

Usage: ``python make_vmap_indexing_golden.py jax [OUT.json]`` (with JAX 0.10.2's interpreter) writes the goldens;
with ``jaxle_core`` it prints jaxle's text.
"""

from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_jvp_golden import render_table, write_golden  # noqa: E402
from make_vmap_numeric_golden import arr, vmap_of  # noqa: E402

i32 = np.int32


def take_rows(lax, mode=None, fill_value=None):
    """Rows ``idx[:, 0]`` of a 2-d ``x`` (``idx`` of shape (n, 1)), as a gather."""
    dn = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
    return lambda x, idx: lax.gather(x, idx, dn, (1, x.shape[1]), mode=mode, fill_value=fill_value)


def take_points(lax, mode=None):
    """Elements of a 2-d ``x`` at the (row, column) pairs in ``idx`` of shape (n, 2)."""
    dn = lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0, 1), start_index_map=(0, 1))
    return lambda x, idx: lax.gather(x, idx, dn, (1, 1), mode=mode)


def put_rows(lax, op, mode=None):
    """``op`` of rows ``u`` (n, k) into rows ``idx[:, 0]`` (``idx`` of shape (n, 1)) of ``x`` (m, k)."""
    dn = lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,),
                                     scatter_dims_to_operand_dims=(0,))
    return lambda x, idx, u: getattr(lax, op)(x, idx, u, dn, mode=mode)


def cases(impl, lax, vmap):
    """``(name, function, example arguments)`` triples; each function applies a vmap."""
    idx = np.array([3, -1, 0, 7, 2], i32)
    rows = np.array([[0, 2, 1], [1, 1, 0], [3, 0, 2], [2, 9, 1], [0, -1, 0]], i32)[..., None]
    pairs_of_rows = np.stack([rows, rows[::-1]], 1)
    pairs = np.array([[[0, 1], [2, 3]], [[1, 0], [5, 1]], [[2, 2], [0, 0]], [[1, 3], [2, 1]], [[0, 0], [1, 1]]], i32)

    def dslice2(x, i, j):
        return lax.dynamic_slice(x, (i, j), (2, 3))

    def dupdate2(x, u, i, j):
        return lax.dynamic_update_slice(x, u, (i, j))

    table = [
        ("slice_axis0", vmap(lambda x: lax.slice(x, (1,), (4,))), (arr(5, 6),)),
        ("slice_axis1_strided", vmap(lambda x: lax.slice(x, (1, 0), (5, 3), (2, 2)), in_axes=1), (arr(5, 4, 3),)),
        ("dynamic_slice_operand_batched", vmap(lambda x: lax.dynamic_slice(x, (i32(1),), (3,))), (arr(5, 6),)),
        ("dynamic_slice_index_batched", vmap(lambda x, i: lax.dynamic_slice(x, (i,), (3,)), in_axes=(None, 0)),
         (arr(6), idx)),
        ("dynamic_slice_both_batched", vmap(lambda x, i: lax.dynamic_slice(x, (i,), (3,)), in_axes=(1, 0)),
         (arr(6, 5), idx)),
        ("dynamic_slice_2d_one_index_batched", vmap(dslice2, in_axes=(None, 0, None)), (arr(4, 5), idx, i32(1))),
        ("dynamic_slice_2d_all_batched", vmap(dslice2, in_axes=(2, 0, 0)), (arr(4, 5, 5), idx, idx[::-1].copy())),
        ("dynamic_slice_2d_indices_unbatched", vmap(dslice2, in_axes=(0, None, None)),
         (arr(5, 4, 5), i32(2), i32(-2))),
        ("dynamic_update_slice_operand_batched",
         vmap(lambda x, u: lax.dynamic_update_slice(x, u, (i32(1),)), in_axes=(0, None)), (arr(5, 6), arr(2))),
        ("dynamic_update_slice_update_batched",
         vmap(lambda x, u: lax.dynamic_update_slice(x, u, (i32(4),)), in_axes=(None, 1)), (arr(6), arr(3, 5))),
        ("dynamic_update_slice_index_batched",
         vmap(lambda x, u, i: lax.dynamic_update_slice(x, u, (i,)), in_axes=(None, None, 0)), (arr(6), arr(2), idx)),
        ("dynamic_update_slice_all_batched",
         vmap(lambda x, u, i: lax.dynamic_update_slice(x, u, (i,)), in_axes=(1, 0, 0)), (arr(6, 5), arr(5, 2), idx)),
        ("dynamic_update_slice_2d_mixed", vmap(dupdate2, in_axes=(0, None, None, 0)),
         (arr(5, 4, 5), arr(2, 3), i32(1), idx)),
        ("gather_operand_batched", vmap(take_rows(lax), in_axes=(2, None)), (arr(4, 3, 5), rows[0])),
        ("gather_indices_batched", vmap(take_rows(lax), in_axes=(None, 0)), (arr(4, 3), rows)),
        ("gather_both_batched", vmap(take_rows(lax), in_axes=(0, 1)), (arr(5, 4, 3), rows.transpose(1, 0, 2).copy())),
        ("gather_fill", vmap(take_rows(lax, "fill", -1.0), in_axes=(0, 0)), (arr(5, 4, 3), rows)),
        ("gather_clip_indices_batched", vmap(take_rows(lax, "clip"), in_axes=(None, 0)), (arr(4, 3), rows)),
        ("gather_points_both", vmap(take_points(lax), in_axes=(0, 0)), (arr(5, 3, 4), pairs)),
        ("gather_points_fill_operand", vmap(take_points(lax, "fill"), in_axes=(1, None)), (arr(3, 5, 4), pairs[1])),
        ("scatter_operand_batched", vmap(put_rows(lax, "scatter"), in_axes=(0, None, None)),
         (arr(5, 4, 2), rows[0], arr(3, 2))),
        ("scatter_indices_batched", vmap(put_rows(lax, "scatter"), in_axes=(None, 0, None)),
         (arr(4, 2), rows, arr(3, 2))),
        ("scatter_updates_batched", vmap(put_rows(lax, "scatter"), in_axes=(None, None, 2)),
         (arr(4, 2), rows[0], arr(3, 2, 5))),
        ("scatter_add_all_batched", vmap(put_rows(lax, "scatter_add"), in_axes=(1, 0, 0)),
         (arr(4, 5, 2), rows, arr(5, 3, 2))),
        ("scatter_sub_indices_updates", vmap(put_rows(lax, "scatter_sub"), in_axes=(None, 1, 0)),
         (arr(4, 2), rows.transpose(1, 0, 2).copy(), arr(5, 3, 2))),
        ("scatter_mul_clip", vmap(put_rows(lax, "scatter_mul", "clip"), in_axes=(0, 0, None)),
         (arr(5, 4, 2), rows, arr(3, 2))),
        ("scatter_min_operand", vmap(put_rows(lax, "scatter_min"), in_axes=(0, None, 0)),
         (arr(5, 4, 2), rows[1], arr(5, 3, 2))),
        ("scatter_max_indices", vmap(put_rows(lax, "scatter_max"), in_axes=(None, 0, None)),
         (arr(4, 2), rows, arr(3, 2))),
        ("gather_nested_both", vmap(vmap(take_rows(lax)), in_axes=(1, 1)), (arr(5, 2, 4, 3), pairs_of_rows)),
        ("gather_nested_inner_indices", vmap(vmap(take_rows(lax), in_axes=(None, 0)), in_axes=(0, None)),
         (arr(2, 4, 3), rows)),
        ("scatter_add_nested_both", vmap(vmap(put_rows(lax, "scatter_add")), in_axes=(0, 0, 1)),
         (arr(5, 2, 4, 2), pairs_of_rows, arr(2, 5, 3, 2))),
    ]
    return table


def render(module_name: str) -> dict[str, str]:
    vmap = vmap_of(module_name)
    return render_table(module_name, lambda impl, lax: cases(impl, lax, vmap))


if __name__ == "__main__":
    write_golden(render)
