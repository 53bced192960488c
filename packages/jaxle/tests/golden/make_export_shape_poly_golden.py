"""Golden data for exporting with symbolic shapes: per case the exported signature (``in_avals``/``out_avals``),
the results of ``Exported.call`` on concrete arguments of two sizes (eagerly and under ``jit``), or the error's type
and message. Run with JAX 0.10.2:

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_export_shape_poly_golden.py jax
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).parent
OUT = HERE / "export_shape_poly_golden.json"

# name -> (function of (jax, jnp, x), the argument's shape spec, the concrete shapes to call with[, constraints])
CASES = {
    "elementwise": (lambda jax, jnp, x: jnp.sin(x) * 2.0 + x, "b, 4", [(3, 4), (1, 4)]),
    "dimension_value": (lambda jax, jnp, x: x * x.shape[0], "b, 4", [(3, 4), (5, 4)]),
    "reductions": (lambda jax, jnp, x: (jnp.sum(x, axis=0), jnp.mean(x, axis=0), jnp.max(x, axis=1)), "b, 4",
                   [(3, 4), (2, 4)]),
    "reshape": (lambda jax, jnp, x: jnp.reshape(x, (-1,)) + 1.0, "b, 4", [(3, 4), (2, 4)]),
    "reshape_split": (lambda jax, jnp, x: x.reshape((x.shape[0] * 2, 2)), "b, 4", [(3, 4)]),
    "dot": (lambda jax, jnp, x: (x @ jnp.arange(12.0).reshape(4, 3), x.T @ x), "b, 4", [(3, 4), (2, 4)]),
    "concatenate": (lambda jax, jnp, x: jnp.concatenate([x, 2 * x], axis=0), "b, 4", [(3, 4)]),
    "arange": (lambda jax, jnp, x: jnp.arange(x.shape[0]) * 3, "b, 4", [(3, 4), (6, 4)]),
    "broadcast": (lambda jax, jnp, x: x[:, None] + jnp.ones((1, 2, 4)), "b, 4", [(3, 4)]),
    "softmax": (lambda jax, jnp, x: jax.nn.softmax(x, axis=0), "b, 4", [(3, 4), (2, 4)]),
    "grad": (lambda jax, jnp, x: jax.grad(lambda y: jnp.sum(jnp.sin(y) ** 2))(x), "b, 4", [(3, 4)]),
    "vmap": (lambda jax, jnp, x: jax.vmap(lambda r: jnp.dot(r, r))(x), "b, 4", [(3, 4)]),
    "nested_jit": (lambda jax, jnp, x: jax.jit(lambda y: jnp.cos(y) * y.shape[0])(x), "b, 4", [(3, 4)]),
    "scan": (lambda jax, jnp, x: jax.lax.scan(lambda c, r: (c + r, c * 2), jnp.zeros(4), x), "b, 4",
             [(3, 4), (5, 4)]),
    "two_variables": (lambda jax, jnp, x: jnp.sum(x, axis=1) * x.shape[1], "b, n", [(3, 4), (2, 5)]),
    "linear_dimension": (lambda jax, jnp, x: x * 2.0, "2*b", [(6,)]),
    "bad_remainder": (lambda jax, jnp, x: x * 2.0, "2*b", [(5,)]),
    "bad_equal_dims": (lambda jax, jnp, x: x * 2.0, "b, b", [(3, 4)]),
    "bad_constant": (lambda jax, jnp, x: x * 2.0, "b, 4", [(3, 5)]),
    "bad_rank": (lambda jax, jnp, x: x * 2.0, "b, 4", [(3,)]),
    "bad_minimum": (lambda jax, jnp, x: x * 2.0, "b + 1", [(1,)]),
    "slices": (lambda jax, jnp, x: (x[1:3], x[:x.shape[0] // 2], x[::2], x[-2:], x[::-1], x[:, 1:3]), "b, 4",
               [(1, 4), (2, 4), (5, 4)]),
    "indices": (lambda jax, jnp, x: (x[0], x[-1], x[0, 1], x[..., 1]), "b, 4", [(1, 4), (3, 4)]),
    "loops_and_creation": (lambda jax, jnp, x: (
        jax.lax.fori_loop(0, x.shape[0], lambda i, c: c + x[i], jnp.zeros(4)), jnp.eye(x.shape[0]),
        jnp.einsum("ij,kj->ik", x, x), jnp.pad(x, ((0, 0), (1, 1)), mode="edge"), jnp.prod(jnp.array(x.shape)),
        x.at[0].set(1.0), jnp.sort(x, axis=0)), "b, 4", [(1, 4), (3, 4)]),
    "cumulative": (lambda jax, jnp, x: (jnp.cumsum(x, axis=0), jnp.cumprod(x, axis=0), jax.lax.cummax(x, axis=0),
                                        jnp.cumsum(x, axis=1)), "b, 4", [(1, 4), (3, 4)]),
    "constraint": (lambda jax, jnp, x: jnp.sum(x, axis=0), "a, b", [(5, 3), (4, 3)], ("a >= b + 2",)),
    "equality_constraint": (lambda jax, jnp, x: x * x.shape[0], "a, b", [(4, 3)], ("a == b + 1",)),
}


def _leaves(out) -> list:
    return [leaf for o in out for leaf in _leaves(o)] if isinstance(out, (tuple, list)) else [out]


def run_case(jax, name: str) -> dict:
    """The signature and call results of one case (values as nested lists), or the error of the call."""
    fun, spec, shapes, *constraints = CASES[name]
    jnp = jax.numpy
    arg = jax.ShapeDtypeStruct(jax.export.symbolic_shape(spec, constraints=constraints[0] if constraints else ()),
                               np.float32)
    exported = jax.export.export(jax.jit(lambda x: fun(jax, jnp, x)))(arg)
    restored = jax.export.deserialize(exported.serialize())
    record = {"in_avals": [str(a) for a in exported.in_avals], "out_avals": [str(a) for a in exported.out_avals],
              "restored_out_avals": [str(a) for a in restored.out_avals], "calls": []}
    for shape in shapes:
        x = (np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) - 2) / 3
        try:
            eager = [np.asarray(y).tolist() for y in _leaves(exported.call(x))]
            jitted = [np.asarray(y).tolist() for y in _leaves(jax.jit(restored.call)(x))]
            record["calls"].append({"shape": list(shape), "eager": eager, "jitted": jitted})
        except Exception as e:  # noqa: BLE001 - recording any error is the point
            record["calls"].append({"shape": list(shape), "error": type(e).__name__, "message": str(e)})
    return record


def main() -> None:
    jax = importlib.import_module(sys.argv[1])
    importlib.import_module(f"{sys.argv[1]}.numpy")
    importlib.import_module(f"{sys.argv[1]}.nn")
    OUT.write_text(json.dumps({name: run_case(jax, name) for name in CASES}) + "\n")


if __name__ == "__main__":
    main()
