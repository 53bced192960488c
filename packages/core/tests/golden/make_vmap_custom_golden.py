"""Print the jaxprs of ``vmap`` over functions with custom derivatives (``custom_jvp``, ``custom_vjp``), alone and
composed with ``grad``/``jacrev``, as JSON, to compare jaxle with JAX 0.10.2.

Usage: ``python make_vmap_custom_golden.py jax [OUT.json]`` (with JAX 0.10.2's interpreter) writes the goldens;
with ``jaxle_core`` it prints jaxle's text.
"""

from __future__ import annotations

import importlib
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_jvp_golden import render_table, write_golden  # noqa: E402
from make_vmap_numeric_golden import arr, vmap_of  # noqa: E402

f32 = np.float32


def examples(cd, lax):
    """``(f, g)``: a custom_jvp function whose rule doubles the true derivative of ``sin``, and a custom_vjp
    function ``sin(x) * y`` whose backward function triples the cotangent of ``x``."""

    @cd.custom_jvp
    def f(x):
        return lax.sin(x)

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return f(x), lax.cos(x) * t * 2.0

    @cd.custom_vjp
    def g(x, y):
        return lax.sin(x) * y

    def g_fwd(x, y):
        return g(x, y), (lax.cos(x), y)

    def g_bwd(res, ct):
        c, y = res
        return c * ct * 3.0, ct

    g.defvjp(g_fwd, g_bwd)
    return f, g


def cases(impl, lax, vmap):
    """``(name, function, example arguments)`` triples; each function applies a vmap."""
    cd = importlib.import_module(f"{impl.__name__}.custom_derivatives") if impl.__name__ != "jax" else impl
    f, g = examples(cd, lax)
    x = np.arange(3, dtype=f32)
    return [
        ("jvp_call", vmap(f), (x,)),
        ("jvp_call_axis1", vmap(f, in_axes=1), (arr(2, 3),)),
        ("jvp_grad_inside", vmap(impl.grad(f)), (x,)),
        ("jvp_grad_outside", impl.grad(lambda a: lax.reduce_sum(vmap(f)(a), (0,))), (x,)),
        ("jvp_jvp_outside", lambda a, t: impl.jvp(vmap(f, in_axes=1), (a,), (t,)), (arr(2, 3), arr(2, 3))),
        ("vjp_call", vmap(g, in_axes=(0, None)), (x, f32(2))),
        ("vjp_call_both", vmap(g), (x, x)),
        ("vjp_grad_inside", vmap(impl.grad(g), in_axes=(0, None)), (x, f32(2))),
        ("vjp_grad_outside", impl.grad(lambda a: lax.reduce_sum(vmap(g, in_axes=(0, None))(a, f32(2)), (0,))),
         (x,)),
        ("vjp_grad_outside_axis1", impl.grad(lambda a, b: lax.reduce_sum(vmap(g, in_axes=(1, None))(a, b), (0, 1)),
                                             argnums=(0, 1)), (arr(2, 3), arr(2))),
    ]


def render(module_name: str) -> dict[str, str]:
    vmap = vmap_of(module_name)
    return render_table(module_name, lambda impl, lax: cases(impl, lax, vmap))


if __name__ == "__main__":
    write_golden(render)
