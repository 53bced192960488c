"""Write partial_names_golden.json: how JAX names a jitted partial application (``jit(functools.partial(f, ...))``,
as ``jnp.linalg.lstsq`` is) in its errors for arguments committed to different devices, on eight CPU devices: by
the partial's repr when called (directly or under ``grad``), by the function's name when lowered and in jaxprs.
Memory addresses in messages are written ``0x<address>``. Recorded from the module named on the command line:

    /work/jaxpeer/bin/python multidevice-tests/golden/make_partial_names_golden.py jax
"""

import functools
import importlib
import pathlib
import re

import golden_main
import numpy as np
from golden_cases import outcome

HERE = pathlib.Path(__file__).parent
A = np.arange(12.0, dtype=np.float32).reshape(4, 3) + np.eye(4, 3, dtype=np.float32)
B = np.arange(4.0, dtype=np.float32)


def _shifted(a, b, shift=0.0):
    return a[:, 0] * b + shift


def _outcome(thunk) -> str:
    """The error ``thunk()`` raises (type and message, memory addresses elided), else what it returns if a
    string, else ``ok``."""
    return outcome(thunk, lambda result: result if isinstance(result, str) else "ok",
                   message=lambda text: re.sub("0x[0-9a-f]+", "0x<address>", text), errors=ValueError)


def _thunks(jax) -> dict:
    jnp = importlib.import_module(jax.__name__ + ".numpy")
    a3, b5 = jax.device_put(A, jax.devices()[3]), jax.device_put(B, jax.devices()[5])
    shifted = jax.jit(functools.partial(_shifted, shift=1.0))
    return {"lstsq": lambda: jnp.linalg.lstsq(a3, b5),
            "lstsq_rcond": lambda: jnp.linalg.lstsq(a3, b5, rcond=1e-3),
            "lstsq_one_committed": lambda: jnp.linalg.lstsq(A, b5),
            "partial_call": lambda: shifted(a3, b5),
            "partial_lower": lambda: shifted.lower(a3, b5),
            "partial_grad": lambda: jax.grad(lambda a: shifted(a, b5).sum())(a3),
            "partial_jaxpr": lambda: str(jax.make_jaxpr(shifted)(A, B))}


NAMES = ("lstsq", "lstsq_rcond", "lstsq_one_committed", "partial_call", "partial_lower", "partial_grad",
         "partial_jaxpr")
CASES = {name: (lambda jax, n=name: _outcome(_thunks(jax)[n])) for name in NAMES}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "partial_names_golden.json")
