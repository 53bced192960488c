"""Print the jaxpr of ``vmap`` over structural, reduction, cumulative and sorting primitives, as JSON, to compare
jaxle with JAX 0.10.2.

Usage: ``python make_vmap_structural_golden.py jax [OUT.json]`` (with JAX 0.10.2's interpreter) writes the goldens;
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
i32 = np.int32


def arr(*shape, dtype=f32):
    """A deterministic array of ``shape`` (with repeats, so sorts and arg-reductions meet ties)."""
    return ((np.arange(int(np.prod(shape))).reshape(shape) * 5 % 7 - 3) / 4).astype(dtype)


def vmap_of(module_name: str):
    impl = importlib.import_module(module_name)
    return impl.vmap if module_name == "jax" else importlib.import_module(f"{module_name}.batching").vmap


def unary_cases(lax):
    """``(name, function of one array, unbatched example shape)``: the single-operand primitives."""
    add = lax.add
    return [
        ("broadcast_in_dim", lambda x: lax.broadcast_in_dim(x, (3, 2, 4), (0, 2)), (3, 4)),
        ("broadcast_in_dim_permuted", lambda x: lax.broadcast_in_dim(x, (4, 2, 3), (2, 0)), (3, 4)),
        ("reshape", lambda x: lax.reshape(x, (4, 3)), (3, 4)),
        ("reshape_dimensions", lambda x: lax.reshape(x, (12,), (1, 0)), (3, 4)),
        ("squeeze", lambda x: lax.squeeze(x, (1,)), (3, 1, 4)),
        ("transpose", lambda x: lax.transpose(x, (2, 0, 1)), (2, 3, 4)),
        ("rev", lambda x: lax.rev(x, (0, 1)), (3, 4)),
        ("pad", lambda x: lax.pad(x, f32(0.5), ((1, 2, 1), (-1, 0, 0))), (3, 4)),
        ("concatenate_const", lambda x: lax.concatenate([x, np.ones((3, 2), f32)], 1), (3, 4)),
        ("split", lambda x: lax.split(x, (1, 0, 3), 1), (3, 4)),
        ("split_axis0", lambda x: lax.split(x, (2, 1), 0), (3, 4)),
        ("bitcast_narrow", lambda x: lax.bitcast_convert_type(x, np.int16), (3, 4)),
        ("bitcast_same", lambda x: lax.bitcast_convert_type(x, np.int32), (3, 4)),
        ("copy", lambda x: lax.copy_p.bind(x), (3, 4)),
        ("stop_gradient", lambda x: lax.stop_gradient(x), (3, 4)),
        ("reduce_sum", lambda x: lax.reduce_sum(x, (1,)), (3, 4)),
        ("reduce_sum_all", lambda x: lax.reduce_sum(x, (0, 1)), (3, 4)),
        ("reduce_max", lambda x: lax.reduce_max(x, (0,)), (3, 4)),
        ("reduce_min", lambda x: lax.reduce_min(x, (1,)), (3, 4)),
        ("reduce_prod", lambda x: lax.reduce_prod(x, (0,)), (3, 4)),
        ("reduce_and", lambda x: lax.reduce_and(x > 0, (1,)), (3, 4)),
        ("reduce_or", lambda x: lax.reduce_or(x > 0, (0,)), (3, 4)),
        ("reduce_xor", lambda x: lax.reduce_xor(lax.convert_element_type(x * 4, np.int32), (1,)), (3, 4)),
        ("argmax", lambda x: lax.argmax(x, 1, np.int32), (3, 4)),
        ("argmin", lambda x: lax.argmin(x, 0, np.int32), (3, 4)),
        ("reduce_generic", lambda x: lax.reduce(x, f32(0), add, (1,)), (3, 4)),
        ("reduce_pair", lambda x: lax.reduce((x, x), (f32(0), f32(1)),
                                             lambda a, b: (add(a[0], b[0]), lax.mul(a[1], b[1])), (0,)), (3, 4)),
        ("cumsum", lambda x: lax.cumsum(x, 1), (3, 4)),
        ("cumprod", lambda x: lax.cumprod(x, 0, reverse=True), (3, 4)),
        ("cummax", lambda x: lax.cummax(x, 1), (3, 4)),
        ("cummin", lambda x: lax.cummin(x, 0), (3, 4)),
        ("cumlogsumexp", lambda x: lax.cumlogsumexp(x, 1, reverse=True), (3, 4)),
        ("sort", lambda x: lax.sort(x, dimension=1), (3, 4)),
        ("sort_dim0", lambda x: lax.sort(x, dimension=0), (3, 4)),
        ("sort_key_val_const", lambda x: lax.sort((x, lax.iota(np.int32, 4) * np.ones((3, 4), np.int32)),
                                                  dimension=1, num_keys=1), (3, 4)),
        ("top_k", lambda x: lax.top_k(x, 2), (3, 4)),
        ("top_k_axis0", lambda x: lax.top_k(x, 2, axis=0), (3, 4)),
    ]


def binary_cases(lax):
    """``(name, function of two arrays, example shapes)``: primitives with several batched operands."""
    return [
        ("pad_value", lambda x, v: lax.pad(x, v, ((1, 0, 1), (0, 1, 0))), ((3, 4), ())),
        ("concatenate", lambda x, y: lax.concatenate([x, y], 0), ((3, 4), (2, 4))),
        ("sort_two_keys", lambda x, y: lax.sort((x, y), dimension=1, num_keys=2), ((3, 4), (3, 4))),
        ("select_scalar_case", lambda p, c: lax.select_n(p > 0, c, f32(2)), ((), ())),
        ("select_array_case", lambda p, c: lax.select_n(p > 0, np.ones((3, 4), f32), c), ((3, 4), (3, 4))),
        ("select_scalar_predicate", lambda p, c: lax.select_n(p > 0, c, 2 * c), ((), (3, 4))),
        ("clamp_scalar_bounds", lambda lo, x: lax.clamp(lo, x, f32(1)), ((), (3, 4))),
        ("clamp_array_bound", lambda hi, x: lax.clamp(f32(-1), x, hi), ((3, 4), (3, 4))),
        ("reduce_two", lambda x, y: lax.reduce((x, y), (f32(0), f32(0)),
                                               lambda a, b: (lax.add(a[0], b[0]), lax.max(a[1], b[1])), (1,)),
         ((3, 4), (3, 4))),
    ]


def batched_shape(shape, axis, size=2):
    return shape if axis is None else shape[:axis] + (size,) + shape[axis:]


def cases(impl, lax, vmap):
    """``(name, function, example arguments)`` triples; each function applies a vmap."""
    table = []
    for name, fn, shape in unary_cases(lax):
        for axis in (0, 1):
            table.append((f"{name}_in{axis}", vmap(fn, in_axes=axis), (arr(*batched_shape(shape, axis)),)))
    for name, fn, shapes in binary_cases(lax):
        for axes in ((0, 0), (1, 0), (0, None), (None, 0)):
            if any(a == 1 and not len(s) for a, s in zip(axes, shapes)):
                continue
            args = tuple(arr(*batched_shape(s, a)) for s, a in zip(shapes, axes))
            table.append((f"{name}_in{axes[0]}{axes[1]}".replace("None", "N"), vmap(fn, in_axes=axes), args))
    table += [
        ("iota_inside", vmap(lambda x: x + lax.iota(np.float32, 4)), (arr(2, 4),)),
        ("bitcast_widen", vmap(lambda x: lax.bitcast_convert_type(x, np.float32)), (arr(2, 3, 2, dtype=np.int16),)),
        ("nested", vmap(vmap(lambda x: lax.reduce_sum(lax.transpose(x, (1, 0)), (0,))), in_axes=1),
         (arr(2, 3, 4, 5),)),
    ]
    return table


def render(module_name: str) -> dict[str, str]:
    return render_table(module_name, lambda impl, lax: cases(impl, lax, vmap_of(module_name)))


if __name__ == "__main__":
    write_golden(render)
