"""Print the jaxpr of ``vmap`` over contractions, convolutions, windowed reductions and special functions, as JSON,
to compare jaxle with JAX 0.10.2.

Usage: ``python make_vmap_numeric_golden.py jax [OUT.json]`` (with JAX 0.10.2's interpreter) writes the goldens;
with ``jaxle_core`` it prints jaxle's text.
"""

from __future__ import annotations

import importlib
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_jvp_golden import render_table, write_golden  # noqa: E402

f32 = np.float32


def arr(*shape):
    """A deterministic float32 array of ``shape``."""
    return (np.arange(int(np.prod(shape)), dtype=f32).reshape(shape) % 7 - 3) / 4


def vmap_of(module_name: str):
    impl = importlib.import_module(module_name)
    return impl.vmap if module_name == "jax" else importlib.import_module(f"{module_name}.batching").vmap


def conv(lax, **kw):
    return lambda x, w: lax.conv_general_dilated(x, w, (1,), "SAME", dimension_numbers=("NCH", "OIH", "NCH"), **kw)


def cases(impl, lax, vmap):
    """``(name, function, example arguments)`` triples; each function applies a vmap."""

    def matvec(m, v):
        return lax.dot_general(m, v, (((1,), (0,)), ((), ())))

    def bmm(a, b):
        return lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,))))

    def window_sum(x):
        return lax.reduce_window(x, 0.0, lax.add, (2, 2), (1, 2), "SAME")

    def window_max(x):
        return lax.reduce_window(x, -np.inf, lax.max, (2,), (1,), "VALID")

    def window_min(x):
        return lax.reduce_window(x, np.inf, lax.min, (3,), (2,), ((1, 1),))

    def window_prod(x):
        return lax.reduce_window(x, 1.0, lax.mul, (2,), (1,), "VALID")

    def max_pool_vjp(x, c):
        return impl.vjp(window_max, x)[1](c)[0]

    table = [
        ("matvec_matrix_batched", vmap(matvec, in_axes=(0, None)), (arr(5, 3, 4), arr(4))),
        ("matvec_vector_batched", vmap(matvec, in_axes=(None, 0)), (arr(3, 4), arr(5, 4))),
        ("matvec_both_batched", vmap(matvec), (arr(5, 3, 4), arr(5, 4))),
        ("matvec_axis1", vmap(matvec, in_axes=(1, 1)), (arr(3, 5, 4), arr(4, 5))),
        ("matvec_matrix_axis2", vmap(matvec, in_axes=(2, None)), (arr(3, 4, 5), arr(4))),
        ("matvec_vector_axis1", vmap(matvec, in_axes=(None, 1)), (arr(3, 4), arr(4, 5))),
        ("bmm_lhs_batched", vmap(bmm, in_axes=(1, None)), (arr(2, 5, 3, 4), arr(2, 4, 6))),
        ("bmm_rhs_batched", vmap(bmm, in_axes=(None, 2)), (arr(2, 3, 4), arr(2, 4, 5, 6))),
        ("bmm_both_batched", vmap(bmm, in_axes=(3, 0)), (arr(2, 3, 4, 5), arr(5, 2, 4, 6))),
        ("dot_preferred", vmap(lambda a, b: lax.dot_general(a, b, (((0,), (0,)), ((), ())),
                                                            preferred_element_type=np.float32), in_axes=(0, None)),
         (arr(5, 3).astype(np.float16), arr(3, 2).astype(np.float16))),
        ("conv_lhs_batched", vmap(conv(lax), in_axes=(0, None)), (arr(5, 2, 3, 8), arr(4, 3, 3))),
        ("conv_rhs_batched", vmap(conv(lax), in_axes=(None, 1)), (arr(2, 3, 8), arr(4, 5, 3, 3))),
        ("conv_both_batched", vmap(conv(lax), in_axes=(0, 3)), (arr(5, 2, 3, 8), arr(4, 3, 3, 5))),
        ("conv_groups_lhs", vmap(conv(lax, feature_group_count=3), in_axes=(1, None)),
         (arr(2, 5, 6, 8), arr(6, 2, 3))),
        ("conv_groups_rhs", vmap(conv(lax, feature_group_count=3), in_axes=(None, 0)),
         (arr(2, 6, 8), arr(5, 6, 2, 3))),
        ("conv_groups_both", vmap(conv(lax, feature_group_count=3)), (arr(5, 2, 6, 8), arr(5, 6, 2, 3))),
        ("conv_batch_groups_lhs", vmap(conv(lax, batch_group_count=2), in_axes=(0, None)),
         (arr(5, 4, 3, 8), arr(6, 3, 3))),
        ("conv_batch_groups_rhs", vmap(conv(lax, batch_group_count=2), in_axes=(None, 0)),
         (arr(4, 3, 8), arr(5, 6, 3, 3))),
        ("conv_batch_groups_both", vmap(conv(lax, batch_group_count=2)), (arr(5, 4, 3, 8), arr(5, 6, 3, 3))),
        ("reduce_window_sum", vmap(window_sum, in_axes=1), (arr(4, 5, 6),)),
        ("reduce_window_max", vmap(window_max), (arr(5, 6),)),
        ("reduce_window_min", vmap(window_min, in_axes=1), (arr(6, 5),)),
        ("reduce_window_generic", vmap(window_prod, in_axes=1), (arr(6, 5),)),
        ("select_and_gather_add", vmap(lambda x, t: impl.jvp(window_max, (x,), (t,))[1], in_axes=(0, 1)),
         (arr(5, 6), arr(6, 5))),
        ("select_and_gather_add_tangent_unbatched",
         vmap(lambda x, t: impl.jvp(window_max, (x,), (t,))[1], in_axes=(0, None)), (arr(5, 6), arr(6))),
        ("select_and_scatter_add", vmap(max_pool_vjp, in_axes=(1, 0)), (arr(6, 5), arr(5, 5))),
        ("select_and_scatter_add_cotangent_unbatched", vmap(max_pool_vjp, in_axes=(0, None)),
         (arr(5, 6), arr(5))),
        # an outer-level binary op with one unbatched operand of higher rank: JAX expands it before the batched one
        ("mul_nested_second_unbatched", vmap(vmap(lax.mul, in_axes=(None, 0)), in_axes=(0, None)), (arr(3), arr(4))),
        ("mul_nested_first_unbatched", vmap(vmap(lax.mul, in_axes=(0, None)), in_axes=(None, 0)), (arr(3), arr(4))),
        ("erf", vmap(lax.erf, in_axes=1), (arr(3, 5),)),
        ("lgamma", vmap(lax.lgamma), (arr(5, 3) + 4,)),
        ("igamma_first_batched", vmap(lax.igamma, in_axes=(0, None)), (arr(5, 3) + 2, arr(3) + 1)),
        ("igamma_scalar", vmap(lax.igamma, in_axes=(0, None)), (arr(5) + 2, f32(1.5))),
        ("betainc", vmap(lax.betainc, in_axes=(None, 1, 0)), (f32(2.0), arr(3, 5) + 2, arr(5, 3) / 4 + 0.5)),
    ]
    return table


def render(module_name: str) -> dict[str, str]:
    vmap = vmap_of(module_name)
    return render_table(module_name, lambda impl, lax: cases(impl, lax, vmap))


if __name__ == "__main__":
    write_golden(render)
