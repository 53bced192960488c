"""Print the jaxpr of ``jvp`` through gather, scatter, cumulative scans, sort and top_k, as JSON, to compare
jaxle with JAX 0.10.2.

Usage: ``python make_jvp_indexing_golden.py jax [OUT.json]`` (with JAX 0.10.2's interpreter) writes the goldens;
with ``jaxle_core`` it prints jaxle's text.
"""

from __future__ import annotations

import numpy as np
from make_jvp_golden import render_table, write_golden

f32 = np.float32
i32 = np.int32


def cases(lax, jvp):
    """``(name, function, example arguments)`` triples; each function returns a jvp's outputs."""
    point = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                        scatter_dims_to_operand_dims=(0,))
    rows = lax.ScatterDimensionNumbers(update_window_dims=(2,), inserted_window_dims=(0,),
                                       scatter_dims_to_operand_dims=(0,))
    take = lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,))
    repeated = np.array([[1], [4], [1]], i32)
    grid = np.array([[[0], [2]], [[1], [1]]], i32)
    vec, mat, upd = np.ones(6, f32), np.ones((3, 4), f32), np.ones(3, f32)

    def pair(fn, *primals):
        """``fn`` differentiated in all its arguments; the example takes primals then tangents."""
        n = len(primals)
        return lambda *a: jvp(fn, a[:n], a[n:]), (*primals, *primals)

    table = [
        ("gather", *pair(lambda x: lax.gather(x, repeated, take, (1,)), vec)),
        ("gather_fill", *pair(lambda x: lax.gather(x, repeated, take, (1,), mode="fill", fill_value=2.0), vec)),
        ("scatter_add", *pair(lambda x, u: lax.scatter_add(x, repeated, u, point), vec, upd)),
        ("scatter_sub_updates_only", *pair(lambda u: lax.scatter_sub(vec, repeated, u, point), upd)),
        ("scatter", *pair(lambda x, u: lax.scatter(x, repeated, u, point), vec, upd)),
        ("scatter_windows_clip", *pair(lambda x, u: lax.scatter(x, grid, u, rows, mode="clip"), mat,
                                       np.ones((2, 2, 4), f32))),
        ("scatter_unique", *pair(lambda x, u: lax.scatter(x, repeated[:2], u, point, unique_indices=True), vec,
                                 upd[:2])),
        ("scatter_mul_unique", *pair(lambda x, u: lax.scatter_mul(x, repeated[:2], u, point, unique_indices=True),
                                     vec, upd[:2])),
        ("scatter_max", *pair(lambda x, u: lax.scatter_max(x, repeated, u, point), vec, upd)),
        ("scatter_min", *pair(lambda x, u: lax.scatter_min(x, repeated, u, point), vec, upd)),
        ("scatter_min_sorted_unique", *pair(lambda x, u: lax.scatter_min(x, repeated[:1], u[:1], point,
                                                                         indices_are_sorted=True, unique_indices=True),
                                            vec, upd)),
        ("cumsum", *pair(lambda x: lax.cumsum(x, axis=1), mat)),
        ("cumprod", *pair(lambda x: lax.cumprod(x), vec)),
        ("cumprod_reverse", *pair(lambda x: lax.cumprod(x, axis=1, reverse=True), np.ones((2, 7), f32))),
        # cumlogsumexp is the associative scan of the custom-JVP logaddexp; cummax and cummin of max and min
        ("cumlogsumexp", *pair(lambda x: lax.cumlogsumexp(x), np.linspace(-1, 1, 5, dtype=f32))),
        ("cumlogsumexp_reverse", *pair(lambda x: lax.cumlogsumexp(x, axis=1, reverse=True), mat)),
        ("cumlogsumexp_complex", *pair(lambda x: lax.cumlogsumexp(x), np.array([1 + 1j, -2j, 0.5], np.complex64))),
        ("cummax_axis0", *pair(lambda x: lax.cummax(x, axis=0), mat)),
        ("cummin_reverse", *pair(lambda x: lax.cummin(x, reverse=True), vec)),
        ("sort", *pair(lambda x: lax.sort(x), vec)),
        ("sort_two_operands", *pair(lambda x, y: lax.sort((x, y), dimension=0, num_keys=1), mat, mat)),
        ("sort_key_val_values_only", *pair(lambda y: lax.sort_key_val(vec, y), vec)),
        ("top_k", *pair(lambda x: lax.top_k(x, 2)[0], vec)),
        ("top_k_axis0", *pair(lambda x: lax.top_k(x, 2, axis=0)[0], mat)),
    ]
    return table


def render(module_name: str) -> dict[str, str]:
    return render_table(module_name, lambda impl, lax: cases(lax, impl.jvp))


if __name__ == "__main__":
    write_golden(render)
