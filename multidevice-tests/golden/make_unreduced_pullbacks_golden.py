"""Write unreduced_pullbacks_golden.json: under ``set_mesh`` of a mesh of two Explicit axes, the jaxprs and values
of the derivatives of a product left unreduced over 'y' (``out_sharding=P("x", None, unreduced={"y"})``) and of
that product resharded to reduced over 'y': ``vjp`` given a host cotangent or typed ones (the refusals naming the
cotangent's type, unreduced and reduced axes swapped), ``grad`` of sums of them, ``jvp`` and ``linearize``,
recorded from the module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_unreduced_pullbacks_golden.py jax
"""

import pathlib

import golden_main
import numpy as np
from golden_cases import outcome, typed_mesh

HERE = pathlib.Path(__file__).parent
X = np.arange(32, dtype=np.float32).reshape(8, 4) / 8
M = np.arange(16, dtype=np.float32).reshape(4, 4) / 16
ONES = np.ones((8, 4), np.float32)


def _unreduced(jax, m, x):
    P = jax.sharding.PartitionSpec
    return jax.numpy.dot(x, m, out_sharding=P("x", None, unreduced={"y"}))


def _reduced(jax, m, x):
    P = jax.sharding.PartitionSpec
    return jax.sharding.reshard(_unreduced(jax, m, x), P("x", None, reduced={"y"}))


OUTPUTS = {"unreduced": _unreduced, "reduced": _reduced}


def _cotangents(jax) -> dict:
    """Cotangents for an (8, 4) output (made now, under the mesh set): a host value and arrays laid out otherwise
    than its cotangent's type, or as it."""
    P = jax.sharding.PartitionSpec
    rows = jax.device_put(ONES, P("x", None))
    return {"host": ONES, "rows": rows, "columns": jax.device_put(ONES, P(None, "y")),
            "replicated": jax.device_put(ONES, P()), "reduced": jax.sharding.reshard(rows, P("x", None, reduced={"y"}))}


def _transforms(jax, output: str) -> dict:
    f = lambda m, x: OUTPUTS[output](jax, m, x)  # noqa: E731
    done = {f"vjp_{name}": (lambda m, x, ct=ct: jax.vjp(f, m, x)[1](ct)) for name, ct in _cotangents(jax).items()}
    done["grad_sum"] = jax.grad(lambda m, x: jax.sharding.reshard(f(m, x), jax.sharding.PartitionSpec("x", None)).sum(),
                                argnums=(0, 1))
    done["jvp"] = lambda m, x: jax.jvp(f, (m, x), (m, x))
    done["linearize"] = lambda m, x: jax.linearize(f, m, x)[1](m, x)
    if output == "reduced":
        done["grad_sin_sum"] = jax.grad(lambda m, x: jax.numpy.sin(f(m, x)).sum())
        done["grad_reduced_sum"] = jax.grad(lambda m, x: f(m, x).sum())
    return done


def _record(jax, output: str, transform: str) -> dict:
    P = jax.sharding.PartitionSpec
    with jax.sharding.set_mesh(typed_mesh(jax, "Explicit")):
        args = jax.device_put(M, P("y", None)), jax.device_put(X, P("x", "y"))
        f = _transforms(jax, output)[transform]
        leaves = lambda r: [[str(jax.typeof(a)), np.round(np.asarray(a), 4).tolist()]  # noqa: E731
                            for a in jax.tree.leaves(r)]
        return {"jaxpr": outcome(lambda: str(jax.make_jaxpr(f)(*args))),
                "values": outcome(lambda: leaves(jax.jit(f)(*args)))}


CASES = {f"{output}_{transform}": (lambda jax, output=output, transform=transform: _record(jax, output, transform))
         for output in OUTPUTS
         for transform in ("vjp_host", "vjp_rows", "vjp_columns", "vjp_replicated", "vjp_reduced", "grad_sum", "jvp",
                           "linearize", *(("grad_sin_sum", "grad_reduced_sum") if output == "reduced" else ()))}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "unreduced_pullbacks_golden.json")
