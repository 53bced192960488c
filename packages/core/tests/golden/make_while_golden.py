"""Print the jaxprs of ``while_loop`` / ``fori_loop`` and their jvp/vmap/jit compositions as JSON, to compare
jaxle with JAX 0.10.2.

Usage: ``python make_while_golden.py jax [OUT.json]`` (with JAX 0.10.2's interpreter) writes the goldens;
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


def cases(impl, lax, vmap):
    loop = lambda x: lax.while_loop(lambda c: c[0] < 10, lambda c: (c[0] + 1, c[1] * x), (0, x))  # noqa: E731
    pred_loop = lambda x: lax.while_loop(lambda c: c[1] < 10., lambda c: (c[0] + 1, c[1] * 2.), (0, x))  # noqa: E731
    fwd = lambda x, y: lax.while_loop(lambda c: c[0] < c[1], lambda c: (c[0] + x, c[1], c[2] * 2.),  # noqa: E731
                                      (1., y, x))
    counter = lambda x: lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1]), (0, x))[1] * x  # noqa: E731
    ones = lambda x: x * 0 + 1  # noqa: E731

    def seed10(arg, n):
        ones = lax.broadcast_in_dim(f32(1.), arg.shape, ())  # jnp.ones(arg.shape) in the seed
        return lax.fori_loop(0, n, lambda i, carry: carry + ones * 3. + arg, arg + ones)

    return [
        ("while_basic", loop, (f32(2.),)),
        ("while_weak_carry", lambda x: lax.while_loop(lambda c: c < 3., lambda c: c + x, 1.), (f32(1.),)),
        ("while_int_only", lambda x: lax.while_loop(lambda c: c < 3, lambda c: c + 1, 1), (f32(1.),)),
        ("while_forwarded_carry",
         lambda x: lax.while_loop(lambda c: c[0] < 3., lambda c: (c[0] + x, c[1]), (1., x)), (f32(1.),)),
        ("while_cond_reads_invariant", fwd, (f32(1.), f32(3.))),
        ("fori_static", lambda x: lax.fori_loop(0, 5, lambda i, c: c * x + i, x), (f32(2.),)),
        ("fori_static_numpy_bounds", lambda x: lax.fori_loop(np.int32(1), np.int32(3), lambda i, c: c + x, x),
         (f32(1.),)),
        ("fori_static_unroll", lambda x: lax.fori_loop(0, 4, lambda i, c: c + x, x, unroll=2), (f32(1.),)),
        ("fori_dynamic", lambda x, n: lax.fori_loop(0, n, lambda i, c: c * x + i, x), (f32(2.), np.int32(3))),
        ("fori_dynamic_lower", lambda x, n: lax.fori_loop(n, 5, lambda i, c: c + x, x), (f32(1.), np.int32(1))),
        ("seed_fori_consts", seed10, (np.ones(16, f32), np.int32(5))),
        ("jvp_while", lambda x: impl.jvp(loop, (x,), (x,)), (f32(2.),)),
        ("jvp_while_forwarding", lambda x, y: impl.jvp(fwd, (x, y), (x, y)), (f32(1.), f32(3.))),
        ("jvp_fori_dynamic", lambda x, n: impl.jvp(lambda v: lax.fori_loop(0, n, lambda i, c: c * v, v), (x,),
                                                   (ones(x),)), (f32(2.), np.int32(3))),
        ("grad_counter_loop", impl.grad(counter), (f32(2.),)),
        ("grad_fori_static", impl.grad(lambda x: lax.fori_loop(0, 3, lambda i, c: c * x, x)), (f32(2.),)),
        ("vmap_unbatched_pred", vmap(loop), (np.ones(3, f32),)),
        ("vmap_batched_pred", vmap(pred_loop), (np.ones(3, f32),)),
        ("vmap_batched_const_only", lambda x, y: vmap(fwd, (None, 0))(x, y), (f32(1.), np.ones(3, f32))),
        ("vmap_fori_dynamic", vmap(lambda x, n: lax.fori_loop(0, n, lambda i, c: c * x, x)),
         (np.ones(3, f32), np.arange(3, dtype=np.int32))),
        ("vmap_jvp_while", vmap(lambda x: impl.jvp(loop, (x,), (x,))), (np.ones(2, f32),)),
        ("jit_while", impl.jit(loop), (f32(2.),)),
        ("jvp_jit_while", lambda x: impl.jvp(impl.jit(loop), (x,), (x,)), (f32(2.),)),
        ("vmap_vmap_batched_pred", vmap(vmap(pred_loop)), (np.ones((2, 3), f32),)),
    ]


def render(module_name: str) -> dict[str, str]:
    impl = importlib.import_module(module_name)
    vmap = impl.vmap if module_name == "jax" else importlib.import_module(f"{module_name}.batching").vmap
    return render_table(module_name, lambda impl, lax: cases(impl, lax, vmap))


if __name__ == "__main__":
    write_golden(render)
