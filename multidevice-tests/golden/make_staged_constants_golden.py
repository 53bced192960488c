"""Write staged_constants_golden.json: the jaxprs of functions putting constants (NumPy values, arrays) with
``device_put`` while traced, recorded from the module named on the command line:

    /work/jaxpeer/bin/python multidevice-tests/golden/make_staged_constants_golden.py jax

As JAX, a ``device_put`` inside a transformation stages its leaves, constants included; only NumPy values put
nowhere in particular (no placement, no donation or copy asked for) are returned as they are.
"""

import pathlib

import golden_main
import numpy as np
from golden_cases import outcome, typed_mesh

HERE = pathlib.Path(__file__).parent
ONES = np.ones((8, 4), np.float32)


def _functions(jax) -> dict:
    P = jax.sharding.PartitionSpec
    array = jax.numpy.ones(4)
    return {
        "numpy_nowhere": lambda a: jax.device_put(ONES) + a,
        "numpy_scalar_nowhere": lambda a: jax.device_put(np.float32(2)) + a,
        "numpy_on_a_device": lambda a: jax.device_put(ONES, jax.devices()[1]) + a,
        "numpy_copied": lambda a: jax.device_put(ONES, may_alias=False) + a,
        "array_nowhere": lambda a: jax.device_put(array) + a,
        "numpy_and_traced": lambda a: jax.device_put((ONES, a))[0] + a,
        "numpy_to_a_spec": lambda a: jax.device_put(ONES, P("x", None)) + a,
        "numpy_to_a_named_sharding": lambda a: jax.device_put(
            ONES, jax.sharding.NamedSharding(typed_mesh(jax, "Explicit"), P(None, "y"))) + a,
    }


NAMES = ("numpy_nowhere", "numpy_scalar_nowhere", "numpy_on_a_device", "numpy_copied", "array_nowhere",
         "numpy_and_traced", "numpy_to_a_spec", "numpy_to_a_named_sharding")


def _record(jax, name: str) -> dict:
    with jax.sharding.set_mesh(typed_mesh(jax, "Explicit")):
        f = _functions(jax)[name]
        return {"jaxpr": outcome(lambda: str(jax.make_jaxpr(f)(np.float32(1)))),
                "value": outcome(lambda: [str(jax.jit(f)(np.float32(1)).sharding),
                                          np.asarray(jax.jit(f)(np.float32(1))).tolist()])}


CASES = {name: (lambda jax, name=name: _record(jax, name)) for name in NAMES}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "staged_constants_golden.json")
