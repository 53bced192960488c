"""Print the jaxprs of host callbacks (``pure_callback``, ``io_callback``, ``debug.print``, ``debug.callback``)
under ``make_jaxpr``, ``jit``, ``vmap``, ``grad`` and ``scan``, as JSON, to compare jaxle with JAX 0.10.2.

Usage: ``python make_callbacks_golden.py jax [OUT.json]`` (with JAX 0.10.2's interpreter) writes the goldens;
with ``jaxle_core`` it prints jaxle's text.
"""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import numpy as np
from make_jvp_golden import render_table, write_golden

f32 = np.float32


def host_sin(a):
    return np.sin(a)


def host_mul(a, b):
    return np.asarray(a) * np.asarray(b)


def host_pair(pair, scale=1.0):
    return {"sum": np.asarray(pair[0]) + np.asarray(pair[1]), "scaled": np.asarray(pair[0]) * scale}


def host_print(*args, **kwargs):
    print(*args, **kwargs)


def callback_api(impl) -> SimpleNamespace:
    """``pure_callback``, ``io_callback`` and the ``debug`` module of an implementation: JAX keeps them in
    ``jax``, ``jax.experimental`` and ``jax.debug``; jaxle-core in its ``callbacks`` and ``debugging`` modules."""
    name = impl.__name__
    if hasattr(impl, "debug"):
        io_module, debug = importlib.import_module(f"{name}.experimental"), impl.debug
    else:
        io_module, debug = importlib.import_module(f"{name}.callbacks"), importlib.import_module(f"{name}.debugging")
    return SimpleNamespace(pure_callback=impl.pure_callback, io_callback=io_module.io_callback, debug=debug,
                           sds=impl.ShapeDtypeStruct)


def cases(impl, lax):
    """``(name, function, example arguments)`` triples."""
    api = callback_api(impl)
    pure_callback, io_callback, debug, sds = api.pure_callback, api.io_callback, api.debug, api.sds
    jit, vmap, grad = impl.jit, impl.vmap, impl.grad
    x = np.arange(3, dtype=f32)
    m = np.arange(6, dtype=f32).reshape(2, 3)
    like = lambda a: sds(a.shape, a.dtype)  # noqa: E731

    def pure(method):
        return lambda a, b: pure_callback(host_mul, like(a), a, b, vmap_method=method)

    def prints(a):
        debug.print("x={x}", x=a)
        debug.print("y={} {}", a, "label", ordered=True)
        debug.print("no placeholders")
        debug.print("n={}", 2)
        debug.print("tree={}", [a, {"k": a}])
        return a

    def callbacks(a):
        debug.callback(host_print, a, "s", 3, sep="|")
        debug.callback(host_print, a, ordered=True)
        return a

    def scanned_io(a):
        def body(carry, row):
            return carry + io_callback(host_sin, like(row), row, ordered=True), None

        return lax.scan(body, np.zeros(3, f32), a)[0]

    custom_jvp = importlib.import_module(f"{impl.__name__}.custom_derivatives").custom_jvp

    @custom_jvp
    def host_sin_differentiable(a):
        return pure_callback(host_sin, like(a), a)

    host_sin_differentiable.defjvp(lambda p, t: (host_sin_differentiable(p[0]),
                                                 pure_callback(np.cos, like(p[0]), p[0]) * t[0]))

    def branches(a):
        return lax.cond(a[0] > 0, lambda b: debug.print("pos {}", b, ordered=True), lambda b: None, a)

    def loop(a):
        return lax.fori_loop(0, 2, lambda i, c: (debug.print("i={i} c={c}", i=i, c=c), c + 1.0)[1], a)

    cases = [
        ("pure", lambda a: pure_callback(host_sin, like(a), a), (x,)),
        ("pure_custom_jvp_grad", grad(lambda a: lax.reduce_sum(host_sin_differentiable(a), (0,))), (x,)),
        ("debug_callback_grad", grad(lambda a: (debug.callback(host_print, a), lax.reduce_sum(a * a, (0,)))[1]),
         (x,)),
        ("debug_print_cond", branches, (x,)),
        ("debug_print_loop", loop, (x,)),
        ("pure_pytrees", lambda a: pure_callback(host_pair, {"sum": like(a), "scaled": like(a)}, (a, a),
                                                 scale=2.0), (x,)),
        ("pure_jit", jit(lambda a: pure_callback(host_sin, like(a), a) * 2.0), (x,)),
        ("pure_scalar_result", lambda a: pure_callback(lambda b: np.float32(b.sum()), sds((), f32), a), (x,)),
        ("io_unordered", lambda a: io_callback(host_sin, like(a), a), (x,)),
        ("io_ordered", lambda a: io_callback(host_sin, like(a), a, ordered=True), (x,)),
        ("io_no_results", lambda a: io_callback(host_print, None, a), (x,)),
        ("io_vmap", vmap(lambda a: io_callback(host_sin, like(a), a)), (m,)),
        ("io_scan_ordered", scanned_io, (m,)),
        ("debug_print", prints, (x,)),
        ("debug_print_vmap", vmap(lambda a: debug.print("v {}", a)), (m,)),
        ("debug_print_grad", grad(lambda a: (debug.print("g {}", a), lax.reduce_sum(a * a, (0, 1)))[1]), (m,)),
        ("debug_print_jit", jit(prints), (x,)),
        ("debug_callback", callbacks, (x,)),
        ("debug_callback_vmap", vmap(lambda a: debug.callback(host_print, a)), (m,)),
    ]
    for method in ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", "legacy_vectorized"):
        cases.append((f"pure_vmap_{method}", vmap(pure(method), (1, None)), (m, np.ones(2, f32))))
    cases.append(("pure_vmap_nested_expand_dims", vmap(vmap(pure("expand_dims"), (0, None)), (0, None)),
                  (np.ones((4, 2, 3), f32), np.ones(3, f32))))
    return cases


def render(module_name: str) -> dict[str, str]:
    return render_table(module_name, cases)


if __name__ == "__main__":
    write_golden(render)
