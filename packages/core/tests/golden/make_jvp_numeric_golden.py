"""Print the jaxpr of ``jvp`` through reduce_prod, convolution, the windowed reductions and the special functions,
as JSON, to compare jaxle with JAX 0.10.2.

Usage: ``python make_jvp_numeric_golden.py jax [OUT.json]`` (with JAX 0.10.2's interpreter) writes the goldens;
with ``jaxle_core`` it prints jaxle's text.
"""

from __future__ import annotations

import numpy as np
from make_jvp_golden import render_table, write_golden

f32 = np.float32


def cases(lax, jvp):
    """``(name, function, example arguments)`` triples; each function returns a jvp's outputs."""
    vec, cube = np.ones(5, f32), np.ones((3, 2, 5), f32)
    image, kernel = np.ones((2, 4, 5, 5), f32), np.ones((6, 2, 3, 3), f32)
    grid = np.ones((4, 6), f32)
    shape_a, shape_b = np.full(5, 2.0, f32), np.full(5, 3.0, f32)

    def pair(fn, *primals):
        """``fn`` differentiated in all its arguments; the example takes primals then tangents."""
        n = len(primals)
        return lambda *a: jvp(fn, a[:n], a[n:]), (*primals, *primals)

    def pool(computation, init, **kw):
        return lambda x: lax.reduce_window(x, init, computation, (2, 3), (1, 2), "SAME", **kw)

    return [
        ("reduce_prod", *pair(lambda x: lax.reduce_prod(x, (0,)), vec)),
        ("reduce_prod_axes", *pair(lambda x: lax.reduce_prod(x, (0, 2)), cube)),
        ("reduce_prod_inner", *pair(lambda x: lax.reduce_prod(x, (2,)), cube)),
        ("reduce_prod_empty", *pair(lambda x: lax.reduce_prod(x, (0,)), np.ones((0, 3), f32))),
        ("conv", *pair(lambda x, w: lax.conv_general_dilated(x, w, (1, 2), "SAME", rhs_dilation=(1, 2),
                                                              feature_group_count=2), image, kernel)),
        ("conv_lhs_only", *pair(lambda x: lax.conv(x, kernel[:, :4 // 2], (1, 1), "VALID"),
                                np.ones((2, 2, 5, 5), f32))),
        ("reduce_window_sum", *pair(pool(lax.add, 0.0), grid)),
        ("reduce_window_max", *pair(pool(lax.max, -np.inf, base_dilation=(2, 1)), grid)),
        ("reduce_window_min", *pair(pool(lax.min, np.inf, window_dilation=(1, 2)), grid)),
        ("erf", *pair(lax.erf, vec)),
        ("erfc", *pair(lax.erfc, vec)),
        ("erf_inv", *pair(lax.erf_inv, vec)),
        ("lgamma", *pair(lax.lgamma, vec)),
        ("digamma", *pair(lax.digamma, vec)),
        ("polygamma_x", *pair(lambda x: lax.polygamma(shape_a, x), vec)),
        ("igamma", *pair(lax.igamma, shape_a, vec)),
        ("igammac", *pair(lax.igammac, shape_a, vec)),
        ("bessel_i0e", *pair(lax.bessel_i0e, vec)),
        ("bessel_i1e", *pair(lax.bessel_i1e, vec)),
        ("betainc_x", *pair(lambda x: lax.betainc(shape_a, shape_b, x), vec)),
    ]


def render(module_name: str) -> dict[str, str]:
    return render_table(module_name, lambda impl, lax: cases(lax, impl.jvp))


if __name__ == "__main__":
    write_golden(render)
