"""Print the jaxpr of ``grad`` through slicing, padding, concatenation, splitting, dynamic slices, gather/scatter,
cumulative scans, sort and top_k, as JSON, to compare jaxle with JAX 0.10.2.

Usage: ``python make_grad_indexing_golden.py jax [OUT.json]`` (with JAX 0.10.2's interpreter) writes the goldens;
with ``jaxle_core`` it prints jaxle's text.
"""

from __future__ import annotations

import numpy as np
from make_jvp_golden import render_table, write_golden

f32 = np.float32
i32 = np.int32


def cases(lax, grad):
    """``(name, function, example arguments)`` triples; each function is a gradient."""
    point = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                        scatter_dims_to_operand_dims=(0,))
    rows = lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,),
                                       scatter_dims_to_operand_dims=(0,))
    take = lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,))
    take_rows = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
    repeated, distinct = np.array([[1], [4], [1]], i32), np.array([[1], [4]], i32)
    vec, mat = np.arange(1, 7, dtype=f32), np.arange(1, 13, dtype=f32).reshape(3, 4)
    one = f32(1.0)

    def total(y, ndim=1):
        return lax.reduce_sum(y, tuple(range(ndim)))

    def scaled(x):
        """``x`` behind a multiplication, so that the operand of the primitive under test is not an input."""
        return lax.mul(x, f32(2.0))

    def on_vec(fn):
        return grad(lambda x: total(fn(x))), (vec,)

    def on_mat(fn, ndim=2):
        return grad(lambda x: total(fn(x), ndim)), (mat,)

    table = [
        ("slice", *on_vec(lambda x: lax.slice(x, (1,), (5,)))),
        ("slice_full", *on_vec(lambda x: lax.slice(x, (0,), (6,)))),
        ("slice_strides_one", *on_vec(lambda x: lax.slice(x, (2,), (4,), (1,)))),
        ("slice_strided", *on_mat(lambda x: lax.slice(x, (0, 1), (3, 4), (2, 2)))),
        ("slice_empty", *on_vec(lambda x: lax.slice(x, (2,), (2,)))),
        ("slice_empty_strided", *on_vec(lambda x: lax.slice(x, (2,), (2,), (2,)))),
        ("pad_interior", *on_vec(lambda x: lax.pad(x, f32(0.0), [(1, 2, 1)]))),
        ("pad_negative", *on_vec(lambda x: lax.pad(x, f32(0.0), [(-1, 2, 0)]))),
        ("pad_nothing", *on_vec(lambda x: lax.pad(x, f32(0.0), [(0, 0, 0)]))),
        ("pad_2d", *on_mat(lambda x: lax.pad(x, f32(0.0), [(1, -1, 2), (0, 1, 0)]))),
        ("pad_operand_and_value", grad(lambda x, v: total(lax.pad(x, v, [(1, 2, 1)])), argnums=(0, 1)), (vec, one)),
        ("dynamic_slice", *on_vec(lambda x: lax.dynamic_slice(x, (i32(2),), (3,)))),
        ("dynamic_slice_clamped", *on_mat(lambda x: lax.dynamic_slice(x, (i32(-7), i32(3)), (2, 3)))),
        ("dynamic_slice_scalar", grad(lambda x: lax.dynamic_slice(x, (), ())), (one,)),
        ("dynamic_update_slice", *on_vec(lambda x: lax.dynamic_update_slice(x, scaled(lax.slice(x, (0,), (2,))),
                                                                            (i32(2),)))),
        ("dynamic_update_slice_update_only", grad(lambda u: total(lax.dynamic_update_slice(vec, u, (i32(5),)))),
         (vec[:3],)),
        ("gather", *on_vec(lambda x: lax.gather(x, repeated, take, (1,)))),
        ("gather_fill", *on_vec(lambda x: lax.gather(x, repeated, take, (1,), mode="fill", fill_value=2.0))),
        ("gather_clip", *on_vec(lambda x: lax.gather(x, repeated, take, (1,), mode="clip"))),
        ("gather_unique_sorted", *on_vec(lambda x: lax.gather(x, distinct, take, (1,), unique_indices=True,
                                                              indices_are_sorted=True))),
        ("gather_rows", *on_mat(lambda x: lax.gather(x, repeated, take_rows, (1, 4)))),
        ("scatter_add", *on_vec(lambda x: lax.scatter_add(scaled(x), repeated, lax.slice(x, (0,), (3,)), point))),
        ("scatter_sub", *on_vec(lambda x: lax.scatter_sub(scaled(x), repeated, lax.slice(x, (0,), (3,)), point))),
        ("scatter_add_updates_clip", grad(lambda u: total(lax.scatter_add(vec, repeated, u, point, mode="clip",
                                                                          unique_indices=True,
                                                                          indices_are_sorted=True))), (vec[:3],)),
        ("scatter_add_rows", *on_mat(lambda x: lax.scatter_add(x, repeated, lax.slice(x, (0, 0), (3, 4)), rows))),
        ("scatter", *on_vec(lambda x: lax.scatter(scaled(x), repeated, lax.slice(x, (0,), (3,)), point))),
        ("scatter_unique", *on_vec(lambda x: lax.scatter(scaled(x), distinct, lax.slice(x, (0,), (2,)), point,
                                                         unique_indices=True))),
        ("scatter_mul_unique", *on_vec(lambda x: lax.scatter_mul(scaled(x), distinct, lax.slice(x, (0,), (2,)),
                                                                 point, unique_indices=True))),
        ("cumsum", *on_vec(lambda x: lax.cumsum(x))),
        ("cumsum_reverse_axis1", *on_mat(lambda x: lax.cumsum(x, axis=1, reverse=True))),
        ("sort", *on_vec(lambda x: lax.slice(lax.sort(x), (0,), (2,)))),
        ("sort_two_operands", *on_mat(lambda x: lax.sort((x, scaled(x)), dimension=0, num_keys=1)[1])),
        ("top_k", *on_mat(lambda x: lax.top_k(x, 2)[0])),
        ("copy", *on_vec(lambda x: lax.copy_p.bind(x))),
        ("concatenate", *on_mat(lambda x: lax.concatenate([x, mat, scaled(x)], 1))),
        ("concatenate_two_operands", grad(lambda x, y: total(lax.concatenate([x, y], 0), 2), argnums=(0, 1)),
         (mat, mat)),
        ("split", *on_mat(lambda x: lax.split(x, (1, 3), 1)[1])),
        ("split_product_of_pieces", *on_vec(lambda x: lax.mul(*lax.split(x, (3, 3))))),
        ("split_one_piece_used", *on_vec(lambda x: lax.split(scaled(x), (2, 0, 4))[0])),
    ]
    return table


def render(module_name: str) -> dict[str, str]:
    return render_table(module_name, lambda impl, lax: cases(lax, impl.grad))


if __name__ == "__main__":
    write_golden(render)
