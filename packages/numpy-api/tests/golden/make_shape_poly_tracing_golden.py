"""Golden data for tracing with symbolic shapes: per case the ``make_jaxpr`` text of a function of a
``ShapeDtypeStruct`` with a symbolic shape and the ``eval_shape`` result, or the error's type and first line.
Run with JAX 0.10.2:

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_shape_poly_tracing_golden.py jax

The test replays the cases with jaxle (``jaxle_namespace`` offers the names a case uses).
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys
import types

import numpy as np

HERE = pathlib.Path(__file__).parent
OUT = HERE / "shape_poly_tracing_golden.json"

# name -> (function of (m, x), the argument's shape spec, dtype)
CASES = {
    "sin": (lambda m, x: m.numpy.sin(x) * 2.0, "b, 4"),
    "add_self": (lambda m, x: x + x, "b, 4"),
    "shape_value": (lambda m, x: x.shape[0], "b, 4"),
    "shape_value_mul": (lambda m, x: x * x.shape[0], "b, 4"),
    "size": (lambda m, x: x.size, "b, 4"),
    "reshape_flat": (lambda m, x: m.numpy.reshape(x, (-1,)), "b, 4"),
    "reshape_2": (lambda m, x: x.reshape((x.shape[0] * 2, 2)), "b, 4"),
    "sum0": (lambda m, x: m.numpy.sum(x, axis=0), "b, 4"),
    "sum_all": (lambda m, x: m.numpy.sum(x), "b, 4"),
    "mean": (lambda m, x: m.numpy.mean(x, axis=0), "b, 4"),
    "max": (lambda m, x: m.numpy.max(x, axis=1), "b, 4"),
    "argmax": (lambda m, x: m.numpy.argmax(x, axis=0), "b, 4"),
    "dot": (lambda m, x: x @ m.numpy.ones((4, 3), np.float32), "b, 4"),
    "dot_t": (lambda m, x: x.T @ x, "b, 4"),
    "matmul_rev": (lambda m, x: m.numpy.ones((3, 4), np.float32) @ x.T, "b, 4"),
    "concat": (lambda m, x: m.numpy.concatenate([x, x], axis=0), "b, 4"),
    "stack": (lambda m, x: m.numpy.stack([x, x]), "b, 4"),
    "arange": (lambda m, x: m.numpy.arange(x.shape[0]), "b, 4"),
    "iota": (lambda m, x: m.lax.iota(np.int32, x.shape[0]), "b, 4"),
    "broadcast_row": (lambda m, x: x + m.numpy.ones(4, np.float32), "b, 4"),
    "broadcast_to": (lambda m, x: m.numpy.broadcast_to(x[:, None], (x.shape[0], 3)), "b"),
    "zeros_like": (lambda m, x: m.numpy.zeros_like(x), "b, 4"),
    "zeros_sym": (lambda m, x: m.numpy.zeros((x.shape[0], 2)), "b, 4"),
    "full": (lambda m, x: m.numpy.full((x.shape[0],), 3.0), "b, 4"),
    "transpose": (lambda m, x: x.T, "b, 4"),
    "expand": (lambda m, x: x[None], "b, 4"),
    "cumsum": (lambda m, x: m.numpy.cumsum(x, axis=0), "b, 4"),
    "where": (lambda m, x: m.numpy.where(x > 0, x, 0.0), "b, 4"),
    "pad": (lambda m, x: m.numpy.pad(x, ((1, 1), (0, 0))), "b, 4"),
    "astype": (lambda m, x: x.astype(np.int32), "b, 4"),
    "split": (lambda m, x: m.numpy.split(x, 2, axis=1)[0], "b, 4"),
    "grad": (lambda m, x: m.grad(lambda y: m.numpy.sum(y ** 2))(x), "b, 4"),
    "vmap": (lambda m, x: m.vmap(m.numpy.sum)(x), "b, 4"),
    "jit_inner": (lambda m, x: m.jit(m.numpy.sin)(x), "b, 4"),
    "scan": (lambda m, x: m.lax.scan(lambda c, r: (c + r, c), m.numpy.zeros(4, np.float32), x)[0], "b, 4"),
    "two_dims": (lambda m, x: m.numpy.sum(x, axis=1) * x.shape[1], "b, 2*n + 1"),
    "index_0": (lambda m, x: x[0], "b, 4"),
    "index_minus_1": (lambda m, x: x[-1], "b, 4"),
    "index_0_1": (lambda m, x: x[0, 1], "b, 4"),
    "index_0_full": (lambda m, x: x[0, :], "b, 4"),
    "index_new_axis_0": (lambda m, x: x[None, 0], "b, 4"),
    "index_traced": (lambda m, x: x[m.numpy.sum(x).astype(int)], "b, 4"),
    "slice_1_3": (lambda m, x: x[1:3], "b, 4"),
    "slice_half": (lambda m, x: x[:x.shape[0] // 2], "b, 4"),
    "slice_from_1": (lambda m, x: x[1:], "b, 4"),
    "slice_step_2": (lambda m, x: x[::2], "b, 4"),
    "slice_static_dim": (lambda m, x: x[:, 1:3], "b, 4"),
    "slice_column": (lambda m, x: x[:, 0], "b, 4"),
    "slice_ellipsis_column": (lambda m, x: x[..., 1], "b, 4"),
    "slice_last_2": (lambda m, x: x[-2:], "b, 4"),
    "slice_reversed": (lambda m, x: x[::-1], "b, 4"),
    "slice_inner": (lambda m, x: x[1:-1], "b, 4"),
    "slice_past_end": (lambda m, x: x[5:], "b, 4"),
    "slice_reversed_inner": (lambda m, x: x[-1:0:-1], "b, 4"),
    "zeros_plus_1": (lambda m, x: m.numpy.zeros(x.shape[0] + 1), "b, 4"),
    "reshape_keep_first": (lambda m, x: x.reshape(x.shape[0], -1), "b, 4, 3"),
    "fori_loop": (lambda m, x: m.lax.fori_loop(0, x.shape[0], lambda i, c: c + x[i], m.numpy.zeros(4)), "b, 4"),
    "matmul_two_dims": (lambda m, x: x @ x.T, "b, n"),
    "einsum": (lambda m, x: m.numpy.einsum("ij,kj->ik", x, x), "b, 4"),
    "var": (lambda m, x: m.numpy.var(x, axis=0), "b, 4"),
    "tile": (lambda m, x: m.numpy.tile(x, (2, 1)), "b, 4"),
    "repeat": (lambda m, x: m.numpy.repeat(x, 2, axis=0), "b, 4"),
    "flip": (lambda m, x: m.numpy.flip(x, 0), "b, 4"),
    "cond": (lambda m, x: m.lax.cond(True, lambda y: y, lambda y: -y, x), "b, 4"),
    "while_loop": (lambda m, x: m.lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * 2), (0, x))[1],
                   "b, 4"),
    "dynamic_slice_too_big": (lambda m, x: m.lax.dynamic_slice(x, (1, 0), (2, 4)), "b, 4"),
    "dynamic_update_slice": (lambda m, x: m.lax.dynamic_update_slice(x, m.numpy.ones((1, 4)), (0, 0)), "b, 4"),
    "at_set": (lambda m, x: x.at[0].set(1.0), "b, 4"),
    "sort": (lambda m, x: m.numpy.sort(x, axis=0), "b, 4"),
    "cumprod": (lambda m, x: m.numpy.cumprod(x, axis=0), "b, 4"),
    "eye": (lambda m, x: m.numpy.eye(x.shape[0]), "b, 4"),
    "triu": (lambda m, x: m.numpy.triu(x @ x.T), "b, 4"),
    "linspace": (lambda m, x: m.numpy.linspace(0.0, 1.0, x.shape[0]), "b, 4"),
    "squeeze": (lambda m, x: m.numpy.squeeze(x[:, :1], 1), "b, 4"),
    "moveaxis": (lambda m, x: m.numpy.moveaxis(x, 0, 1), "b, 4"),
    "shape_as_array": (lambda m, x: m.numpy.prod(m.numpy.array(x.shape)), "b, 4"),
    "pad_edge": (lambda m, x: m.numpy.pad(x, ((0, 0), (1, 1)), mode="edge"), "b, 4"),
    "add_mismatch": (lambda m, x: x + m.numpy.ones((3, 4), np.float32), "b, 4"),
    "if_shape": (lambda m, x: x if x.shape[0] > 2 else -x, "b, 4"),
    "len_division": (lambda m, x: m.numpy.sum(x) / len(x), "b, 4"),
}


def run_case(m, name: str) -> dict:
    fun, spec = CASES[name]
    arg = m.ShapeDtypeStruct(m.symbolic_shape(spec), np.float32)
    record = {}
    for key, transform in (("jaxpr", lambda f: str(m.make_jaxpr(f)(arg))), ("eval_shape",
                                                                          lambda f: repr(m.eval_shape(f, arg)))):
        try:
            record[key] = transform(lambda x: fun(m, x))
        except Exception as e:  # noqa: BLE001 - recording any error is the point
            record[key] = f"{type(e).__name__}: {str(e).splitlines()[0]}"
    return record


def main() -> None:
    jax = importlib.import_module(sys.argv[1])
    m = types.SimpleNamespace(numpy=importlib.import_module(f"{sys.argv[1]}.numpy"), lax=jax.lax,
                              make_jaxpr=jax.make_jaxpr, eval_shape=jax.eval_shape, grad=jax.grad, vmap=jax.vmap,
                              jit=jax.jit, symbolic_shape=jax.export.symbolic_shape,
                              ShapeDtypeStruct=jax.ShapeDtypeStruct)
    OUT.write_text(json.dumps({name: run_case(m, name) for name in CASES}, indent=1) + "\n")


if __name__ == "__main__":
    main()
