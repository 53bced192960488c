"""Write split_vmap_carries_golden.json: loops (``fori_loop``, ``while_loop``, ``scan``) under a ``vmap`` whose batch
is split over the 'x' axis of a (4, 2) mesh of Explicit axes set by ``set_mesh``, on eight CPU devices, recorded from
the module named on the command line. A carry that starts typed over the mesh and becomes batched is broadcast over
the batch's layout; one that is not typed over it (a NumPy or Python constant, an array made outside the mesh)
raises JAX's loop-carry ``ValueError``. Each case records the values and layout of the result and the jaxpr.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_split_vmap_carries_golden.py jax
"""

import pathlib

import golden_main
import numpy as np
from golden_cases import outcome

HERE = pathlib.Path(__file__).parent


def _outcome(thunk) -> str:
    return outcome(thunk, repr)


# name: the initial carry, made under the mesh
CARRIES = {
    "ones": lambda jax, outside: jax.numpy.ones(4),
    "ones_over_y": lambda jax, outside: jax.numpy.ones(4, out_sharding=jax.sharding.PartitionSpec("y")),
    "broadcast_scalar": lambda jax, outside: jax.numpy.broadcast_to(0.0, (4,)),
    "numpy": lambda jax, outside: np.ones(4, np.float32),
    "made_outside": lambda jax, outside: outside,
}

LOOPS = {
    "fori_loop": lambda jax, row, init: jax.lax.fori_loop(0, 3, lambda i, c: c + row, init),
    "while_loop": lambda jax, row, init: jax.lax.while_loop(
        lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * row), (0, init))[1],
    "scan": lambda jax, row, init: jax.lax.scan(lambda c, r: (c + r * row, c), init, jax.numpy.arange(3.0)),
}


def _case(loop, carry):
    def case(jax):
        mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(jax.sharding.AxisType.Explicit,) * 2)
        outside = jax.numpy.ones(4)
        with jax.set_mesh(mesh):
            rows = jax.device_put(np.arange(32.0, dtype=np.float32).reshape(8, 4),
                                  jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("x")))
            f = jax.vmap(lambda row: LOOPS[loop](jax, row, CARRIES[carry](jax, outside)))

            def run():
                return [(str(leaf.dtype), leaf.shape, str(leaf.sharding.spec), np.asarray(leaf).ravel().tolist())
                        for leaf in jax.tree.leaves(f(rows))]
            return {"eager": _outcome(run), "jit": _outcome(lambda: [str(leaf.sharding.spec) for leaf in
                                                                     jax.tree.leaves(jax.jit(f)(rows))]),
                    "jaxpr": _outcome(lambda: str(jax.make_jaxpr(f)(rows)))}
    return case


CASES = {f"{loop}_{carry}": _case(loop, carry) for loop in LOOPS for carry in CARRIES}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "split_vmap_carries_golden.json")
