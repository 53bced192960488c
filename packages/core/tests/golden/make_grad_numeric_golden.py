"""Print the jaxpr of ``grad`` through convolution, the windowed reductions, the reductions, the special functions
and ``dot_general``, as JSON, to compare jaxle with JAX 0.10.2.

Usage: ``python make_grad_numeric_golden.py jax [OUT.json]`` (with JAX 0.10.2's interpreter) writes the goldens;
with ``jaxle_core`` it prints jaxle's text.
"""

from __future__ import annotations

import numpy as np
from make_jvp_golden import render_table, write_golden

f32 = np.float32

# (name, lhs shape, rhs shape, conv_general_dilated keyword arguments)
CONVS = [
    ("plain", (2, 3, 5, 5), (4, 3, 3, 3), dict(window_strides=(1, 1), padding="VALID")),
    ("strided_same", (2, 3, 7, 6), (4, 3, 3, 2), dict(window_strides=(2, 3), padding="SAME")),
    ("dilated", (1, 2, 8, 7), (3, 2, 2, 3), dict(window_strides=(1, 2), padding=((1, 2), (0, 1)),
                                                lhs_dilation=(2, 1), rhs_dilation=(1, 2))),
    ("feature_groups", (2, 4, 6, 5), (6, 2, 3, 2), dict(window_strides=(2, 1), padding="SAME",
                                                       feature_group_count=2)),
    ("batch_groups", (4, 3, 6, 5), (6, 3, 2, 2), dict(window_strides=(1, 1), padding=((0, 1), (1, 0)),
                                                     batch_group_count=2)),
    ("nhwc_hwio", (2, 6, 5, 4), (3, 2, 4, 6), dict(window_strides=(2, 1), padding=((1, 1), (2, 0)),
                                                  rhs_dilation=(2, 1), dimension_numbers=("NHWC", "HWIO", "NHWC"))),
    ("odd_layout_groups", (6, 3, 4, 5), (4, 3, 2, 2), dict(window_strides=(1, 2), padding="VALID",
                                                          feature_group_count=2,
                                                          dimension_numbers=("HWCN", "OHWI", "CNWH"))),
    ("conv1d_preferred", (2, 3, 9), (4, 3, 3), dict(window_strides=(2,), padding=((2, 1),),
                                                    preferred_element_type=np.float32)),
    ("conv1d_negative_pad", (2, 3, 9), (4, 3, 3), dict(window_strides=(1,), padding=((-1, 2),))),
    ("conv3d_channels_last", (2, 5, 4, 6, 3), (2, 3, 2, 3, 4), dict(
        window_strides=(2, 1, 3), padding=((1, 0), (0, 2), (1, 1)), lhs_dilation=(1, 2, 1), rhs_dilation=(2, 1, 1),
        dimension_numbers=("NDHWC", "DHWIO", "NDHWC"))),
    ("conv0d", (3, 4), (5, 4), dict(window_strides=(), padding=())),
]

# (name, reduce_window computation name, init, window, strides, padding, base dilation, window dilation)
POOLS = [
    ("sum", "add", 0.0, (2, 3), (1, 2), "SAME", None, None),
    ("sum_dilated", "add", 0.0, (2, 2), (2, 1), ((1, 0), (0, 2)), (1, 2), (2, 1)),
    ("max", "max", -np.inf, (2, 3), (1, 2), "SAME", None, None),
    ("max_base_dilated", "max", -np.inf, (3, 2), (2, 1), "VALID", (2, 1), None),
    ("min", "min", np.inf, (3, 3), (2, 2), ((1, 1), (0, 1)), None, None),
]


def cases(lax, grad):
    """``(name, function, example arguments)`` triples; each function returns a gradient."""

    def total(y):
        return lax.reduce_sum(y, tuple(range(len(y.shape))))

    table = []
    for name, lhs_shape, rhs_shape, kw in CONVS:
        def conv(x, w, kw=kw):
            return total(lax.sin(lax.conv_general_dilated(x, w, **kw)))

        lhs, rhs = np.ones(lhs_shape, f32), np.ones(rhs_shape, f32)
        table.append((f"conv_{name}", grad(conv, argnums=(0, 1)), (lhs, rhs)))
    for name, op, init, window, strides, padding, base, dilation in POOLS:
        def pool(x, op=op, init=init, window=window, strides=strides, padding=padding, base=base, dil=dilation):
            y = lax.reduce_window(x, init, getattr(lax, op), window, strides, padding, base, dil)
            return total(lax.sin(y))

        table.append((f"pool_{name}", grad(pool), (np.arange(24, dtype=f32).reshape(4, 6),)))
    def max_pool(x):
        return total(lax.sin(lax.reduce_window(x, -np.inf, lax.max, (2, 2), (1, 1), "VALID")))

    vec, grid = np.linspace(0.2, 0.8, 5, dtype=f32), np.arange(6, dtype=f32).reshape(2, 3)
    shape_a, shape_b = np.full(5, 2.0, f32), np.full(5, 3.0, f32)
    table += [
        ("max_pool_second_order", grad(lambda x: total(lax.sin(grad(max_pool)(x)))), (grid,)),
        ("reduce_max", grad(lambda x: total(lax.sin(lax.reduce_max(x, (1,))))), (grid,)),
        ("reduce_min", grad(lambda x: total(lax.sin(lax.reduce_min(x, (0,))))), (grid,)),
        ("reduce_prod", grad(lambda x: total(lax.reduce_prod(x, (1,)))), (grid,)),
        ("reduce_generic", grad(lambda x: total(lax.reduce(x, f32(0), lambda a, b: a * b + a + b, (1,)))), (grid,)),
        ("argmax_sum", grad(lambda x: lax.reduce_sum(x, (0, 1)) * lax.convert_element_type(
            lax.argmax(x, 1, np.int32)[0], np.float32)), (grid,)),
        ("erf", grad(lambda x: total(lax.erf(x))), (vec,)),
        ("erfc", grad(lambda x: total(lax.erfc(x))), (vec,)),
        ("erf_inv", grad(lambda x: total(lax.erf_inv(x))), (vec,)),
        ("lgamma", grad(lambda x: total(lax.lgamma(x))), (vec,)),
        ("digamma", grad(lambda x: total(lax.digamma(x))), (vec,)),
        ("polygamma", grad(lambda x: total(lax.polygamma(shape_a, x))), (vec,)),
        ("igamma", grad(lambda x: total(lax.igamma(shape_a, x))), (vec,)),
        ("igammac", grad(lambda x: total(lax.igammac(shape_a, x))), (vec,)),
        ("bessel_i0e", grad(lambda x: total(lax.bessel_i0e(x))), (vec,)),
        ("bessel_i1e", grad(lambda x: total(lax.bessel_i1e(x))), (vec,)),
        ("betainc", grad(lambda x: total(lax.betainc(shape_a, shape_b, x))), (vec,)),
        ("dot_batch_preferred", grad(lambda a, b: total(lax.sin(lax.dot_general(
            a, b, (((2,), (1,)), ((0,), (2,))), preferred_element_type=np.float32))), argnums=(0, 1)),
         (np.ones((2, 3, 4), f32), np.ones((5, 4, 2), f32))),
    ]
    return table


def render(module_name: str) -> dict[str, str]:
    return render_table(module_name, lambda impl, lax: cases(lax, impl.grad))


if __name__ == "__main__":
    write_golden(render)
