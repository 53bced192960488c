"""Write vmap_conversions_golden.json: conversions for a device (``jnp.asarray``, ``jnp.array``, ``jnp.astype`` with
``device=`` a device or its ``SingleDeviceSharding``) on eight CPU devices, applied to a whole array, and under
``vmap`` (eagerly and inside ``jit``): where the result lies and its values, or the error. JAX 0.10.2 fails under
``vmap`` in its own batching rule (an ``AttributeError``: a ``SingleDeviceSharding`` has no ``spec``), where the
whole conversion and a ``device_put`` to the same sharding under ``vmap`` work. Recorded from the module named on
the command line:

    /work/jaxpeer/bin/python multidevice-tests/golden/make_vmap_conversions_golden.py jax
"""

import importlib
import pathlib

import golden_main
import numpy as np
from golden_cases import outcome

HERE = pathlib.Path(__file__).parent
X = np.arange(6.0, dtype=np.float32).reshape(2, 3)


def _conversions(jax) -> dict:
    jnp = importlib.import_module(jax.__name__ + ".numpy")
    device = jax.devices()[3]
    one = jax.sharding.SingleDeviceSharding(device)
    return {"asarray_device": lambda x: jnp.asarray(x * 2, device=device),
            "asarray_sharding": lambda x: jnp.asarray(x * 2, device=one),
            "array_device": lambda x: jnp.array(x * 2, device=device),
            "astype_device": lambda x: jnp.astype(x * 2, jnp.int32, device=device)}


def _outcome(thunk) -> str:
    return outcome(thunk, lambda r: f"{r.sharding} committed={r.committed} {r.dtype} {np.asarray(r).tolist()}")


def _case(jax, name: str, how: str) -> str:
    f = _conversions(jax)[name]
    run = {"whole": f, "vmap": jax.vmap(f), "vmap_columns": jax.vmap(f, in_axes=1, out_axes=1),
           "jit_vmap": jax.jit(jax.vmap(f))}[how]
    return _outcome(lambda: run(X))


CASES = {f"{name}_{how}": (lambda jax, n=name, h=how: _case(jax, n, h))
         for name in ("asarray_device", "asarray_sharding", "array_device", "astype_device")
         for how in ("whole", "vmap", "vmap_columns", "jit_vmap")}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "vmap_conversions_golden.json")
