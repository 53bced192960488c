"""The jaxpr text and values of named-axis collectives under ``vmap(axis_name=...)``, ``make_jaxpr(axis_env=...)``
and ``grad``, as JSON, to compare jaxle with JAX 0.10.2.

Usage: ``python make_collectives_golden.py jax collectives_golden.json`` (with JAX 0.10.2's interpreter) writes the
goldens; with ``jaxle_core`` it prints jaxle's. Each entry is ``{"jaxpr": text, "value": nested list or null}``.
"""

from __future__ import annotations

import importlib
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_jvp_golden import write_golden  # noqa: E402

f32 = np.float32
CYCLE = [(0, 1), (1, 2), (2, 3), (3, 0)]
X = np.arange(1, 13, dtype=f32).reshape(4, 3)
SQUARE = np.arange(1, 17, dtype=f32).reshape(4, 4)
NESTED = np.arange(1, 25, dtype=f32).reshape(2, 4, 3)
SWAP = np.arange(1, 33, dtype=f32).reshape(4, 2, 4)
RAGGED_INDICES = [np.array(v, np.int32) for v in ([0, 1], [1, 2], [0, 1], [1, 2])]


def env_cases(lax, impl):
    """``(name, function, argument)`` staged with ``axis_env=[('i', 4), ('j', 2)]`` (no values: no axis is bound)."""
    jvp, grad = impl.jvp, impl.grad

    def ragged(operand, output):
        return lax.ragged_all_to_all(operand, output, *RAGGED_INDICES, axis_name="j")

    return [
        ("env_psum", lambda x: lax.psum(x, "i"), X),
        ("env_psum_pair", lambda x: lax.psum((x, x), "i"), X),
        ("env_psum_int", lambda x: lax.psum(x.astype(np.int32), "i"), X),
        ("env_psum_bool", lambda x: lax.psum(x > 1, "i"), X),
        ("env_psum_two_names", lambda x: lax.psum(x, ("i", "j")), X),
        ("env_psum_groups", lambda x: lax.psum(x, "i", axis_index_groups=[[0, 1], [2, 3]]), X),
        ("env_psum_python_float", lambda x: lax.psum(2.0, "i"), X),
        ("env_psum_python_int", lambda x: lax.psum(1, "i"), X),
        ("env_pmean", lambda x: lax.pmean(x, "i"), X),
        ("env_pmean_int", lambda x: lax.pmean(x.astype(np.int32), "i"), X),
        ("env_pmean_groups", lambda x: lax.pmean(x, "i", axis_index_groups=[[0, 1], [2, 3]]), X),
        ("env_pmax", lambda x: lax.pmax(x, "i"), X),
        ("env_pmin", lambda x: lax.pmin(x.astype(np.int32), "i"), X),
        ("env_pmax_bool", lambda x: lax.pmax(x > 2, "i"), X),
        ("env_all_gather", lambda x: lax.all_gather(x, "i"), X),
        ("env_all_gather_tiled", lambda x: lax.all_gather(x, "i", axis=1, tiled=True), X),
        ("env_all_gather_negative", lambda x: lax.all_gather(x, "i", axis=-1), X),
        ("env_all_gather_two_names", lambda x: lax.all_gather(x, ("i", "j")), X),
        ("env_all_gather_groups", lambda x: lax.all_gather(x, "i", axis_index_groups=[[0, 1], [2, 3]]), X),
        ("env_all_to_all", lambda x: lax.all_to_all(x, "i", 0, 1), X),
        ("env_all_to_all_back", lambda x: lax.all_to_all(x.T, "i", 1, 0), X),
        ("env_all_to_all_tiled", lambda x: lax.all_to_all(x.T, "i", 1, 0, tiled=True), X),
        ("env_ppermute", lambda x: lax.ppermute(x, "i", CYCLE), X),
        ("env_ppermute_two_names", lambda x: lax.ppermute(x, ("i", "j"), [(0, 1)]), X),
        ("env_axis_index", lambda x: lax.axis_index("i"), X),
        ("env_axis_index_two_names", lambda x: lax.axis_index(("i", "j")), X),
        ("env_psum_scatter", lambda x: lax.psum_scatter(x, "i"), X),
        ("env_psum_scatter_tiled", lambda x: lax.psum_scatter(x, "i", tiled=True), X),
        ("env_psum_scatter_dim1", lambda x: lax.psum_scatter(x.T, "i", scatter_dimension=1), X),
        ("env_axis_size", lambda x: x * lax.axis_size("i"), X),
        ("env_axis_size_two_names", lambda x: x * lax.axis_size(("i", "j")), X),
        ("env_pbroadcast", lambda x: lax.pbroadcast(x, "i", 2), X),
        ("env_pbroadcast_pair", lambda x: lax.pbroadcast((x, x.astype(np.int32)), ("i",), 1), X),
        ("env_pbroadcast_jvp", lambda x: jvp(lambda v: lax.pbroadcast(v, "i", 1), (x,), (x,)), X),
        ("env_pbroadcast_grad", grad(lambda v: lax.sin(lax.pbroadcast(v, "i", 2))), f32(1)),
        ("env_pbroadcast_grad_weak", grad(lambda v: lax.pbroadcast(v, ("i",), 1)), 1.0),
        ("env_axis_index_one_name_tuple", lambda x: lax.axis_index(("i",)), X),
        ("env_pshuffle", lambda x: lax.pshuffle(x, "i", [1, 2, 3, 0]), X),
        ("env_pswapaxes", lambda x: lax.pswapaxes(x, "i", 0), X),
        ("env_pswapaxes_negative", lambda x: lax.pswapaxes((x.T, x.T), ("i",), -1), X),
        ("env_psend", lambda x: lax.psend(x, "i", CYCLE), X),
        ("env_psend_pair", lambda x: lax.psend((x, x.T), ("i", "j"), [(0, 1)]), X),
        ("env_send_then_recv", lambda x: lax.precv(lax.psend(x, "i", CYCLE), x, "i", CYCLE), X),
        ("env_precv", lambda x: lax.precv(lax.create_token(), x[0], "i", [[0, 1]]), X),
        ("env_ragged_all_to_all", lambda x: lax.ragged_all_to_all(x[0], x[1], *RAGGED_INDICES, axis_name="j"), X),
        ("env_ragged_all_to_all_jvp", lambda x: jvp(ragged, (x[0], x[1]), (x[1], x[0])), X),
        ("env_ragged_all_to_all_jvp_of_the_operand", lambda x: jvp(lambda o: ragged(o, x[1]), (x[0],), (x[1],)), X),
        ("env_ragged_all_to_all_vjp", lambda x: impl.vjp(ragged, x[:2], x)[1](x), X),
        ("env_ragged_all_to_all_grad_of_the_output", grad(lambda u: lax.reduce_sum(ragged(X[:2], u), (0, 1))), X),
        ("env_ragged_all_to_all_groups",
         lambda x: lax.ragged_all_to_all(x, x.astype(np.int32), *RAGGED_INDICES, axis_name=("i", "j"),
                                         axis_index_groups=[[0], [1, 2]]), X),
    ]


def vmap_cases(lax, vmap, grad, jit):
    """``(name, function, argument)`` run and staged as they are (the vmaps bind the axes)."""

    def named(f, name="i"):
        return vmap(f, axis_name=name)

    def total(v):
        return lax.reduce_sum(v, tuple(range(len(v.shape))))

    return [
        ("psum", named(lambda x: lax.psum(x, "i")), X),
        ("normalise", named(lambda x: x / lax.psum(x, "i")), X),
        ("center", named(lambda x: x - lax.pmean(x, "i")), X),
        ("pmean_int", named(lambda x: lax.pmean(x.astype(np.int32), "i")), X),
        ("pmax", named(lambda x: lax.pmax(x, "i")), X),
        ("pmin", named(lambda x: lax.pmin(x, "i")), X),
        ("psum_unbatched", named(lambda x: lax.psum(lax.sin(x[0]) * 0 + lax.cos(x[0]), "i")), X[:, :1]),
        ("psum_numpy_constant", named(lambda x: lax.psum(np.int32(2), "i") + x), X),
        ("pmax_unbatched", named(lambda x: lax.pmax(f32(2), "i") + x), X),
        ("all_gather", named(lambda x: lax.all_gather(x, "i")), X),
        ("all_gather_axis1", named(lambda x: lax.all_gather(x, "i", axis=1)), X),
        ("all_gather_tiled", named(lambda x: lax.all_gather(x, "i", tiled=True)), X),
        ("all_gather_sum", named(lambda x: lax.reduce_sum(lax.all_gather(x, "i"), (0,))), X),
        ("ppermute", named(lambda x: lax.ppermute(x, "i", CYCLE)), X),
        ("axis_index", named(lambda x: x + lax.axis_index("i")), X),
        ("axis_index_alone", named(lambda x: lax.axis_index("i")), X),
        ("psum_scatter", named(lambda x: lax.psum_scatter(x, "i")), SQUARE),
        ("psum_scatter_tiled", named(lambda x: lax.psum_scatter(x, "i", tiled=True)), SQUARE),
        ("all_to_all", named(lambda x: lax.all_to_all(x, "i", 0, 0)), SQUARE),
        ("nested_psum_both", named(named(lambda x: lax.psum(x, ("i", "j")), "j")), NESTED),
        ("nested_psum_outer", named(named(lambda x: lax.psum(x, "i"), "j")), NESTED),
        ("nested_psum_inner", named(named(lambda x: lax.psum(x, "j"), "j")), NESTED),
        ("nested_pmean_both", named(named(lambda x: lax.pmean(x, ("i", "j")), "j")), NESTED),
        ("nested_axis_index", named(named(lambda x: x + lax.axis_index(("i", "j")), "j")), NESTED),
        ("nested_all_gather_outer", named(named(lambda x: lax.all_gather(x, "i"), "j")), NESTED),
        ("grad_normalised", grad(lambda x: total(named(lambda x: x / lax.psum(x, "i"))(x) ** 2)), X),
        ("grad_center", grad(lambda x: total(named(lambda x: x - lax.pmean(x, "i"))(x) ** 2)), X),
        ("grad_all_gather", grad(lambda x: total(named(lambda x: lax.all_gather(x, "i") * x)(x))), X),
        ("grad_psum_scatter", grad(lambda x: total(named(lambda x: lax.psum_scatter(x, "i") ** 2)(x))), SQUARE),
        ("grad_ppermute", grad(lambda x: total(named(lambda x: lax.ppermute(x, "i", CYCLE) * x)(x))), X),
        ("grad_all_to_all", grad(lambda x: total(named(lambda x: lax.all_to_all(x, "i", 0, 0) ** 2)(x) * x)), SQUARE),
        ("vmap_grad_ppermute", named(grad(lambda x: total(lax.ppermute(x, "i", CYCLE) * x))), X),
        ("vmap_grad_all_to_all", named(grad(lambda x: total(lax.all_to_all(x, "i", 0, 0) ** 2))), SQUARE),
        ("vmap_grad_psum", named(grad(lambda x: lax.psum(x ** 2, "i"))), X[:, 0]),
        ("vmap_grad_normalised", named(grad(lambda x: total(x / lax.psum(x, "i")) ** 2)), X),
        ("vmap_grad_all_gather", named(grad(lambda x: total(lax.all_gather(x, "i") ** 2))), X),
        ("vmap_grad_psum_scatter", named(grad(lambda x: total(lax.psum_scatter(x, "i") ** 3))), SQUARE),
        ("axis_size", named(lambda x: x * lax.axis_size("i")), X),
        ("axis_size_nested", named(named(lambda x: x + lax.axis_size(("i", "j")), "j")), NESTED),
        ("pshuffle", named(lambda x: lax.pshuffle(x, "i", [1, 2, 3, 0])), X),
        ("pswapaxes", named(lambda x: lax.pswapaxes(x, "i", 1)), SWAP),
        ("pswapaxes_axis0", named(lambda x: lax.pswapaxes(x, "i", 0)), SQUARE),
        ("psend", named(lambda x: lax.psend(x, "i", CYCLE)), X),
        ("ppermute_repeated_destination", named(lambda x: lax.ppermute(x, "i", [(0, 1), (1, 1), (2, 2), (3, 3)])),
         X),
    ]


def render(module_name: str) -> dict[str, dict]:
    impl = importlib.import_module(module_name)
    lax = importlib.import_module(f"{module_name}.lax")
    vmap = impl.vmap if module_name == "jax" else importlib.import_module(f"{module_name}.batching").vmap
    out = {}
    for name, fn, arg in env_cases(lax, impl):
        out[name] = {"jaxpr": str(impl.make_jaxpr(fn, axis_env=[("i", 4), ("j", 2)])(arg)), "value": None}
    for name, fn, arg in vmap_cases(lax, vmap, impl.grad, impl.jit):
        out[name] = {"jaxpr": str(impl.make_jaxpr(fn)(arg)), "value": np.asarray(fn(arg)).tolist()}
    return out


if __name__ == "__main__":
    write_golden(render)
