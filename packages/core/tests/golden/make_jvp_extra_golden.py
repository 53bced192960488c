"""Print the jaxpr of ``jvp`` through copy, bitcast_convert_type, the generic reduce and reduce_window and the
pooling primitives select_and_gather_add / select_and_scatter_add, as JSON, to compare jaxle with JAX 0.10.2.

Usage: ``python make_jvp_extra_golden.py jax [OUT.json]`` (with JAX 0.10.2's interpreter) writes the goldens;
with ``jaxle_core`` it prints jaxle's text.
"""

from __future__ import annotations

import importlib

import numpy as np
from make_jvp_golden import render_table, write_golden

f32 = np.float32
# Where each implementation keeps the pooling primitives, which neither exports from ``lax``.
WINDOWED_MODULES = {"jax": "jax._src.lax.windowed_reductions", "jaxle_core": "jaxle_core.lax.windowed"}


def not_associative(u, v):
    return u * v + u


def pairs_of(u, v):
    """A computation on pairs: a sum beside a (non-associative) mix of both operands."""
    return u[0] + v[0], u[1] * v[1] + u[0]


def primitive_of(impl, fn, *args):
    """The primitive of the one equation ``fn`` emits (``lax`` need not export it)."""
    return impl.make_jaxpr(fn)(*args).jaxpr.eqns[0].primitive


def cases(impl, lax):
    """``(name, function, example arguments)`` triples; each function returns a jvp's outputs."""
    jvp, jit = impl.jvp, impl.jit
    windowed = importlib.import_module(WINDOWED_MODULES[impl.__name__])
    vec3, vec5, cube = np.ones(3, f32), np.ones(5, f32), np.ones((3, 2, 5), f32)
    grid, pooled = np.ones((4, 6), f32), np.ones((4, 3), f32)
    ge, le = (primitive_of(impl, fn, f32(0), f32(0)) for fn in (lax.ge, lax.le))
    gather_window = dict(select_prim=ge, window_dimensions=(2, 3), window_strides=(1, 2),
                         padding=((0, 1), (1, 1)), base_dilation=(1, 1), window_dilation=(1, 1))
    scatter_window = dict(select_prim=le, window_dimensions=(2, 3), window_strides=(1, 2),
                          padding=((0, 1), (1, 1)))

    def pair(fn, *primals):
        """``fn`` differentiated in all its arguments; the example takes primals then tangents."""
        n = len(primals)
        return lambda *a: jvp(fn, a[:n], a[n:]), (*primals, *primals)

    def reduce(init, axes, computation=not_associative):
        return lambda x: lax.reduce(x, f32(init), computation, axes)

    def window(init, computation=not_associative, **kw):
        return lambda x: lax.reduce_window(x, init, computation, (2,), (1,), "VALID", **kw)

    def gather(tangents, operand):
        return windowed.select_and_gather_add_p.bind(tangents, operand, **gather_window)

    def scatter(source, operand):
        return windowed.select_and_scatter_add_p.bind(source, operand, **scatter_window)

    return [
        ("copy", *pair(lax.copy_p.bind, vec3)),
        ("bitcast_to_int", *pair(lambda x: lax.bitcast_convert_type(x, np.int32), f32(1.5))),
        ("bitcast_same", *pair(lambda x: lax.bitcast_convert_type(x, np.float32), vec3)),
        ("bitcast_narrower", *pair(lambda x: lax.bitcast_convert_type(x, np.float16), vec3)),
        ("bitcast_then_mul", *pair(lambda x: lax.bitcast_convert_type(x, np.float32) * x, vec3)),
        ("reduce_even", *pair(reduce(0.0, (0,)), np.ones(4, f32))),
        ("reduce_odd", *pair(reduce(0.0, (0,)), vec5)),
        ("reduce_init_pads", *pair(reduce(3.0, (0,)), vec3)),
        ("reduce_axes", *pair(reduce(0.0, (0, 2)), cube)),
        ("reduce_inner", *pair(reduce(0.0, (2,)), cube)),
        ("reduce_empty", *pair(reduce(3.0, (0,)), np.ones((0, 3), f32))),
        ("reduce_no_axes", *pair(reduce(0.0, ()), vec5)),
        ("reduce_single_row", *pair(reduce(3.0, (0,)), np.ones((1, 2), f32))),
        ("reduce_pairs", *pair(lambda x: lax.reduce((x, x), (f32(0), f32(1)), pairs_of, (0,)), vec3)),
        ("reduce_window", *pair(window(f32(0)), vec5)),
        ("reduce_window_pairs",
         *pair(lambda x: lax.reduce_window((x, x * 2), (f32(0), f32(1)), pairs_of, (2,), (1,), "VALID"), vec5)),
        ("reduce_window_dilated", *pair(lambda x: lax.reduce_window(x, f32(1), not_associative, (2, 2), (1, 2),
                                                                    ((1, 0), (0, 1)), base_dilation=(2, 1),
                                                                    window_dilation=(1, 2)), grid)),
        ("reduce_window_jit", *pair(jit(window(f32(0))), vec5)),
        ("select_and_gather_add", *pair(gather, grid, grid)),
        ("select_and_gather_add_tangents_only", *pair(lambda t: gather(t, grid), grid)),
        ("select_and_gather_add_operand_only", *pair(lambda x: gather(grid, x), grid)),
        ("select_and_scatter_add", *pair(scatter, pooled, grid)),
        ("select_and_scatter_add_source_only", *pair(lambda s: scatter(s, grid), pooled)),
        ("select_and_scatter_add_operand_only", *pair(lambda x: scatter(pooled, x), grid)),
    ]


def render(module_name: str) -> dict[str, str]:
    return render_table(module_name, cases)


if __name__ == "__main__":
    write_golden(render)
