"""Write explicit_mesh_derivatives_golden.json: under ``set_mesh`` of a mesh of two Explicit axes, the jaxprs of
``grad``, ``vjp``, ``jvp`` and ``linearize`` of programs whose operands are laid out over it (``reshard``, typed
broadcasts, reductions and dot products with ``out_sharding``), the values of their jitted derivatives and the
shardings those results get, recorded from the module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_explicit_mesh_derivatives_golden.py jax
"""

import pathlib

import golden_main
import numpy as np
from golden_cases import outcome, typed_mesh

HERE = pathlib.Path(__file__).parent
X = np.arange(32, dtype=np.float32).reshape(8, 4) / 8
W = np.arange(4, dtype=np.float32) / 4
M = np.arange(16, dtype=np.float32).reshape(4, 4) / 16


def _broadcast_loss(jax, w, x):
    return (jax.numpy.sin(x * w[None]) * 2).sum()


def _resharded_loss(jax, w, x):
    """``x`` moved to rows split over both axes before it meets ``w``."""
    P = jax.sharding.PartitionSpec
    moved = jax.sharding.reshard(x, P(("x", "y"), None))
    return (jax.numpy.cos(moved) * w).sum()


def _typed_broadcast_loss(jax, w, x):
    """``w`` broadcast to rows split over 'x' (``out_sharding`` of ``broadcast_to``), then summed to a vector laid
    out over 'y' (``out_sharding`` of ``sum``)."""
    P = jax.sharding.PartitionSpec
    rows = jax.numpy.broadcast_to(w, (8, 4), out_sharding=P("x", "y"))
    return jax.numpy.sum(rows * x, axis=0, out_sharding=P("y")).sum()


def _dot_loss(jax, m, x):
    """A product of rows split over 'x' by a matrix laid out over 'y', its result laid out as ``out_sharding``
    says."""
    P = jax.sharding.PartitionSpec
    product = jax.numpy.matmul(x, m, out_sharding=P("x", None))
    return jax.numpy.tanh(product).sum()


def _dot_general_loss(jax, m, x):
    P = jax.sharding.PartitionSpec
    product = jax.lax.dot_general(x, m, (((1,), (0,)), ((), ())), out_sharding=P(None, "y"))
    return (product * product).sum()


LOSSES = {"broadcast": (_broadcast_loss, "w"), "resharded": (_resharded_loss, "w"),
          "typed_broadcast": (_typed_broadcast_loss, "w"), "dot": (_dot_loss, "m"),
          "dot_general": (_dot_general_loss, "m")}


def _operands(jax, first: str) -> tuple:
    P = jax.sharding.PartitionSpec
    head = jax.device_put(W, P("y")) if first == "w" else jax.device_put(M, P(None, "y"))
    return head, jax.device_put(X, P("x", "y"))


def _transforms(jax, loss):
    """Each derivative of ``loss(a, b)``, as a function of the two operands."""
    f = lambda a, b: loss(jax, a, b)  # noqa: E731
    rows = lambda a, b: jax.numpy.sin(b) * loss(jax, a, b)  # noqa: E731  (a non-scalar output)
    return {
        "grad": jax.grad(f),
        "grad_both": jax.grad(f, argnums=(0, 1)),
        "value_and_grad": jax.value_and_grad(f, argnums=(0, 1)),
        "vjp_host_seed": lambda a, b: jax.vjp(f, a, b)[1](np.float32(1)),
        "vjp_rows_host": lambda a, b: jax.vjp(rows, a, b)[1](np.ones((8, 4), np.float32)),
        "vjp_rows_typed": lambda a, b: jax.vjp(rows, a, b)[1](b),
        "jvp": lambda a, b: jax.jvp(f, (a, b), (a, b)),
        "linearize": lambda a, b: jax.linearize(f, a, b)[1](a, b),
    }


def _record(jax, loss_name: str, transform: str) -> dict:
    loss, first = LOSSES[loss_name]
    with jax.sharding.set_mesh(typed_mesh(jax, "Explicit")):
        args = _operands(jax, first)
        f = _transforms(jax, loss)[transform]
        leaves = lambda r: [[str(a.sharding.spec), np.round(np.asarray(a), 4).tolist()]  # noqa: E731
                            for a in jax.tree.leaves(r)]
        return {"jaxpr": outcome(lambda: str(jax.make_jaxpr(f)(*args))),
                "values": outcome(lambda: leaves(jax.jit(f)(*args)))}


CASES = {f"{loss}_{transform}": (lambda jax, loss=loss, transform=transform: _record(jax, loss, transform))
         for loss in LOSSES for transform in ("grad", "grad_both", "value_and_grad", "vjp_host_seed",
                                              "vjp_rows_host", "vjp_rows_typed", "jvp", "linearize")}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "explicit_mesh_derivatives_golden.json")
