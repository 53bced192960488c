"""Print the jaxprs of ``lax.scan`` and ``lax.map`` (and of their jvp, vmap and jit) as JSON, to compare jaxle
with JAX 0.10.2.

Usage: ``python make_scan_golden.py jax [OUT.json]`` (with JAX 0.10.2's interpreter) writes the goldens; with
``jaxle_core`` it prints jaxle's text.
"""

from __future__ import annotations

import numpy as np
from make_jvp_golden import render_table, write_golden

f32 = np.float32
XS = np.arange(4, dtype=f32)
MATRIX = np.arange(12, dtype=f32).reshape(3, 4)


def _seed_func11(lax):
    def func11(arr, extra):
        ones = lax.broadcast_in_dim(1.0, arr.shape, ())

        def body(carry, aelems):
            ae1, ae2 = aelems
            return (carry + ae1 * ae2 + extra, carry)

        return lax.scan(body, 0., (arr, ones))
    return func11


def _markov_chain(lax):
    """A Markov chain: the state moves to the first column whose cumulative probability exceeds the draw."""
    cdf = np.cumsum(np.array([[0.9, 0.1, 0.0], [0.2, 0.5, 0.3], [0.1, 0.1, 0.8]], f32), axis=1)

    def chain(state, draws):
        def step(s, u):
            row = lax.dynamic_index_in_dim(cdf, s, 0, keepdims=False)
            nxt = lax.reduce_sum(lax.convert_element_type(lax.lt(row, u), np.int32), (0,))
            return nxt, nxt
        return lax.scan(step, state, draws)
    return chain


def cases(impl, lax):
    """``(name, function, example arguments)`` triples."""
    jvp, vmap, jit = impl.jvp, impl.vmap, impl.jit
    scan = lax.scan
    weak = lambda xs: scan(lambda c, x: (c + x, c * x), 0.0, xs)  # noqa: E731

    def g(c0, xs, w):
        return scan(lambda c, x: (c * w + x, (c * x, f32(2.) * x)), c0, xs)

    def swap(c0, xs):
        return scan(lambda c, x: ((c[1], c[0] * x), (c[0], x)), c0, xs)

    def tree_body(c, x):
        return {"a": c["a"] + x[0], "b": c["b"] * x[1]}, None

    c0, w = np.ones(3, f32), np.full(3, 2., f32)
    ten = np.arange(10., dtype=f32)
    return [
        ("seed_func11", _seed_func11(lax), (np.ones(16, f32), 5.)),
        ("weak_float_carry", weak, (XS,)),
        ("reverse_unroll", lambda xs: scan(lambda c, x: (c + x, c * x), 0.0, xs, reverse=True, unroll=2), (XS,)),
        ("unroll_true", lambda xs: scan(lambda c, x: (c + x, c), f32(0), xs, unroll=True), (XS,)),
        ("length_only", lambda: scan(lambda c, x: (c + 1, None), 0, length=3), ()),
        ("weak_int_carry_promoted", lambda xs: scan(lambda c, x: (c + x, c * x), 0, xs), (XS,)),
        ("strong_carry_weak_output", lambda xs: scan(lambda c, x: (2.0, c * x), f32(1), xs), (XS,)),
        ("forwarding", lambda xs, y: scan(lambda c, x: (c, (c * x, x, y, c)), 1.0, xs), (XS, 2.0)),
        ("forwarding_swap", lambda xs, y: scan(lambda c, x: ((c[1], c[0]), x), (y, y), xs), (XS, 2.0)),
        ("pytree_carry_and_xs", lambda xs, ys: scan(tree_body, {"a": f32(0), "b": f32(1)}, (xs, ys)), (XS, XS)),
        ("closure_consts", lambda xs, y: scan(lambda c, x: (c * y + np.ones(3, f32), x * y), np.zeros(3, f32), xs),
         (MATRIX.T[:, :3], f32(2))),
        ("cumulative_sum", lambda xs: scan(lambda c, x: (c + x, c + x), f32(0), xs), (XS,)),
        ("markov_chain", _markov_chain(lax), (np.int32(0), np.linspace(0, 1, 6).astype(f32))),
        ("nested_scan", lambda m: scan(lambda c, row: (c + scan(lambda d, x: (d + x, None), f32(0), row)[0], c),
                                       f32(0), m), (MATRIX,)),
        ("map", lambda xs: lax.map(lambda x: x * 2, xs), (XS,)),
        ("map_batch_remainder", lambda xs: lax.map(lambda x: x * 2, xs, batch_size=3), (ten,)),
        ("map_batch_exact", lambda xs: lax.map(lambda x: x * 2, xs, batch_size=2), (ten,)),
        ("map_batch_larger", lambda xs: lax.map(lambda x: x * 2, xs, batch_size=12), (ten,)),
        ("map_batch_tuple", lambda xs: lax.map(lambda x: (x[0] * 2, x[1] + x[0]), xs, batch_size=3),
         ((ten, np.ones((10, 2), np.int32)),)),
        ("jit_of_scan", jit(weak), (XS,)),
        ("scan_of_jit", lambda xs: scan(jit(lambda c, x: (c + x, c * x)), f32(0), xs), (XS,)),
        ("jvp_weak", lambda xs, t: jvp(weak, (xs,), (t,)), (XS, XS)),
        ("jvp_all", lambda c, xs, w, t: jvp(g, (c, xs, w), (t, xs, w)), (f32(1), XS, f32(3), f32(1))),
        ("jvp_carry_and_const", lambda c, xs, w, t: jvp(lambda c, w: g(c, xs, w), (c, w), (t, w)),
         (f32(1), XS, f32(3), f32(1))),
        ("jvp_xs_only_fixed_point", lambda c, xs, w: jvp(lambda xs: g(c, xs, w), (xs,), (xs,)),
         (f32(1), XS, f32(3))),
        ("jvp_swap_fixed_point", lambda c, xs: jvp(lambda c: swap((c, f32(1)), xs), (c,), (c,)), (f32(1), XS)),
        ("vmap_xs", vmap(weak), (MATRIX,)),
        ("vmap_xs_axis1", vmap(weak, in_axes=1), (MATRIX,)),
        ("vmap_carry", vmap(g, in_axes=(0, None, None)), (c0, XS, f32(2))),
        ("vmap_const", vmap(g, in_axes=(None, None, 0)), (f32(1), XS, w)),
        ("vmap_xs_axis1_const_carry", vmap(g, in_axes=(None, 1, None)), (f32(1), MATRIX[:, :3].T.copy(), f32(2))),
        ("vmap_swap_fixed_point", vmap(lambda c, xs: swap((c, f32(1)), xs), in_axes=(0, None)), (c0, XS)),
        ("vmap_map", vmap(lambda xs: lax.map(lambda x: x * 2, xs), in_axes=1), (MATRIX,)),
        ("vmap_of_jvp", vmap(lambda xs, t: jvp(weak, (xs,), (t,))), (MATRIX, MATRIX)),
        ("jvp_of_vmap", lambda xs, t: jvp(vmap(weak), (xs,), (t,)), (MATRIX, MATRIX)),
        ("vmap_psum_of_xs", vmap(lambda xs: scan(lambda c, x: (c + lax.psum(x, "i"), c * x), 0.0, xs), axis_name="i"),
         (MATRIX,)),
        ("vmap_psum_of_unbatched_scan",
         vmap(lambda a, xs: scan(lambda c, x: (c + lax.psum(a, "i"), c * x), 0.0, xs), in_axes=(0, None),
              axis_name="i"), (MATRIX[:, 0], XS)),
    ]


def render(module_name: str) -> dict[str, str]:
    return render_table(module_name, cases)


if __name__ == "__main__":
    write_golden(render)
