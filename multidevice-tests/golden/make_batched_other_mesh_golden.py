"""Write batched_other_mesh_golden.json: under ``set_mesh`` of a mesh of Explicit axes, functions that refuse a
value typed over a mesh of Auto axes of the same devices and names (``zeros_like`` and the other ``*_like``
functions, ``imag``, ``argsort``, ``sort``; ``real`` computes), applied to such a value as it is, batched by
``vmap`` (eager, jitted, staged by ``make_jaxpr``) and looped over by ``lax.map``, recorded from the module named on
the command line: the result's spec and values (the jaxpr's text), or the error's type and message (this folder's
path written ``<golden>``).

    /work/jaxpeer/bin/python multidevice-tests/golden/make_batched_other_mesh_golden.py jax
"""

import pathlib

import golden_main
import numpy as np
from golden_cases import in_golden, outcome, typed_mesh

HERE = pathlib.Path(__file__).parent
ROWS = np.arange(16.0, dtype=np.float32).reshape(8, 2)[::-1].copy()
# name -> the function, given jax.numpy
FUNCTIONS = {
    "zeros_like": lambda jnp: jnp.zeros_like,
    "ones_like": lambda jnp: jnp.ones_like,
    "full_like": lambda jnp: lambda v: jnp.full_like(v, 3.0),
    "empty_like": lambda jnp: jnp.empty_like,
    "imag": lambda jnp: jnp.imag,
    "argsort": lambda jnp: jnp.argsort,
    "sort": lambda jnp: jnp.sort,
    "real": lambda jnp: jnp.real,
}
# name -> how the function is applied, given (jax, the function)
APPLIED = {
    "plain": lambda jax, f: f,
    "vmap": lambda jax, f: jax.vmap(f),
    "lax_map": lambda jax, f: lambda v: jax.lax.map(f, v),
    "jit_vmap": lambda jax, f: jax.jit(jax.vmap(f)),
    "make_jaxpr_vmap": lambda jax, f: lambda v: str(jax.make_jaxpr(jax.vmap(f))(v)),
}


def _described(result):
    return result if isinstance(result, str) else [str(result.sharding.spec), np.asarray(result).tolist()]


def _case(function, applied):
    def case(jax):
        operand = jax.device_put(ROWS, jax.sharding.NamedSharding(typed_mesh(jax, "Auto", shape=(4, 2)), jax.P("x")))
        run = APPLIED[applied](jax, FUNCTIONS[function](jax.numpy))
        with jax.set_mesh(typed_mesh(jax, "Explicit", shape=(4, 2))):
            return outcome(lambda: _described(run(operand)), message=in_golden)
    return case


CASES = {f"{function}_{applied}": _case(function, applied) for function in FUNCTIONS for applied in APPLIED}


def record(jax) -> dict:
    return {name: case(jax) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(record, HERE / "batched_other_mesh_golden.json")
