"""Write conversion_derivatives_golden.json: the jaxprs of the derivatives (``grad``, ``jvp``, ``vjp``'s pullback)
of functions converting their argument for ``device=`` (``jnp.asarray``, ``astype``, ``jnp.array`` with ``ndmin``,
``jnp.linspace``) on eight CPU devices, which constrain the values and their tangents or cotangents to the device
once for each level the conversion is bound at, and where their jitted derivatives' results lie. Recorded from the
module named on the command line:

    /work/jaxpeer/bin/python multidevice-tests/golden/make_conversion_derivatives_golden.py jax
"""

import importlib
import pathlib

import golden_main
import numpy as np
from golden_cases import placed

HERE = pathlib.Path(__file__).parent
X = np.arange(4.0, dtype=np.float32)


def _functions(jax) -> dict:
    jnp = importlib.import_module(jax.__name__ + ".numpy")
    device = jax.devices()[3]
    return {"asarray": lambda x: jnp.asarray(x, device=device).sum(),
            "astype": lambda x: (x.astype(jnp.float32, device=device) * 2).sum(),
            "array_ndmin": lambda x: jnp.array(x, ndmin=2, device=device).sum(),
            "linspace": lambda x: jnp.linspace(x[0], 1.0, 4, device=device).sum()}


def _derivative(jax, name: str, how: str):
    f = _functions(jax)[name]
    return {"grad": jax.grad(f), "jvp": lambda x: jax.jvp(f, (x,), (x,)),
            "vjp": lambda x: jax.vjp(f, x)[1](np.float32(1.0))}[how]


def _case(jax, name: str, how: str, use: str) -> str:
    derivative = _derivative(jax, name, how)
    if use == "jaxpr":
        return str(jax.make_jaxpr(derivative)(X))
    result = jax.jit(derivative)(X)
    return placed(result[1] if how == "jvp" else result[0] if how == "vjp" else result)


CASES = {f"{name}_{how}_{use}": (lambda jax, n=name, h=how, u=use: _case(jax, n, h, u))
         for name in ("asarray", "astype", "array_ndmin", "linspace") for how in ("grad", "jvp", "vjp")
         for use in ("jaxpr", "jit")}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "conversion_derivatives_golden.json")
