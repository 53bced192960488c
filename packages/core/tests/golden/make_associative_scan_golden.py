"""Print the jaxprs of ``lax.associative_scan`` (alone, reversed, along other axes, on pytrees, under ``vmap`` and
``grad``) as JSON, to compare jaxle with JAX 0.10.2.

Usage: ``python make_associative_scan_golden.py jax [OUT.json]`` (with JAX 0.10.2's interpreter) writes the
goldens; with ``jaxle_core`` it prints jaxle's text.
"""

from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_jvp_golden import render_table, write_golden  # noqa: E402
from make_vmap_numeric_golden import vmap_of  # noqa: E402

f32 = np.float32


def affine(lax):
    """Composition of affine maps ``x -> a x + b`` given as ``(a, b)`` pairs (first map applied first)."""
    return lambda f, g: (f[0] * g[0], g[0] * f[1] + g[1])


def cases(impl, lax, vmap):
    """``(name, function, example arguments)`` triples."""
    scan = lax.associative_scan
    x6 = np.arange(6, dtype=f32)
    return [
        ("add_6", lambda x: scan(lax.add, x), (x6,)),
        ("add_5_reverse", lambda x: scan(lax.add, x, reverse=True), (np.arange(5, dtype=f32),)),
        ("add_axis1", lambda x: scan(lax.add, x, axis=1), (np.ones((2, 3), f32),)),
        ("add_axis_negative", lambda x: scan(lax.add, x, axis=-2), (np.ones((4, 2), f32),)),
        ("add_1", lambda x: scan(lax.add, x), (np.ones(1, f32),)),
        ("max_7", lambda x: scan(lax.max, x), (np.arange(7, dtype=f32),)),
        ("or_bool", lambda x: scan(lax.bitwise_or, x), (np.array([True, False, True]),)),
        ("mul_int", lambda x: scan(lax.mul, x), (np.arange(1, 5, dtype=np.int32),)),
        ("affine_pytree", lambda a, b: scan(affine(lax), (a, b)), (x6 + 1, x6)),
        ("vmap", vmap(lambda x: scan(lax.add, x), in_axes=1), (np.ones((4, 3), f32),)),
        ("grad_add_6", impl.grad(lambda x: lax.reduce_sum(lax.sin(scan(lax.add, x)), (0,))), (x6,)),
        ("grad_mul_5_reverse", impl.grad(lambda x: lax.reduce_sum(scan(lax.mul, x, reverse=True), (0,))),
         (np.arange(1, 6, dtype=f32),)),
        ("grad_axis1", impl.grad(lambda x: lax.reduce_sum(scan(lax.add, x, axis=1) ** 2, (0, 1))),
         (np.ones((2, 3), f32),)),
        ("grad_affine_pytree", impl.grad(lambda a, b: lax.reduce_sum(scan(affine(lax), (a, b))[1], (0,)),
                                         argnums=(0, 1)), (x6 + 1, x6)),
    ]


def render(module_name: str) -> dict[str, str]:
    vmap = vmap_of(module_name)
    return render_table(module_name, lambda impl, lax: cases(impl, lax, vmap))


if __name__ == "__main__":
    write_golden(render)
