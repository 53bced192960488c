"""Write eager_placing_derivatives_golden.json: where the eager (not jitted) derivatives (``grad``, ``jvp``,
``vjp``, ``value_and_grad``, ``jacrev``, ``linearize``) of functions placing their result on a device put their
results and cotangents, on eight CPU devices: functions converting for ``device=`` (``jnp.asarray``, ``astype``,
``jnp.linspace``) or putting on a device (``device_put`` to a ``SingleDeviceSharding``, or to a device, which places
nothing inside ``jit``), jitted or not; and the errors for arguments, tangents or cotangents committed to another
device. Recorded from the module named on the command line:

    /work/jaxpeer/bin/python multidevice-tests/golden/make_eager_placing_derivatives_golden.py jax
"""

import importlib
import pathlib

import golden_main
import numpy as np
from golden_cases import failure, in_golden

HERE = pathlib.Path(__file__).parent
X = np.arange(1.0, 5.0, dtype=np.float32)


def _functions(jax) -> dict:
    jnp = importlib.import_module(jax.__name__ + ".numpy")
    sharding = importlib.import_module(jax.__name__ + ".sharding")
    device = jax.devices()[3]
    return {"asarray": lambda x: jnp.asarray(jnp.sin(x), device=device),
            "astype": lambda x: (x * x).astype(jnp.float32, device=device),
            "linspace": lambda x: jnp.linspace(x[0], x[1], 4, device=device) * x,
            "put_sharding": lambda x: jax.device_put(jnp.cos(x), sharding.SingleDeviceSharding(device)),
            "put_device": lambda x: jax.device_put(jnp.cos(x), device)}


def _where(value) -> str:
    return f"{value.sharding} committed={value.committed} {np.round(np.asarray(value), 5).tolist()}"


def _derivatives(jax, f) -> dict:
    jnp = importlib.import_module(jax.__name__ + ".numpy")
    on_3 = jax.device_put(np.ones(4, np.float32), jax.devices()[3])

    def linearized(x):
        y, f_jvp = jax.linearize(f, x)
        return y, f_jvp(x)

    return {"grad": lambda x: jax.grad(lambda v: f(v).sum())(x),
            "jvp": lambda x: jax.jvp(f, (x,), (jnp.ones(4),)),
            "vjp": lambda x: (lambda y, pullback: (y, *pullback(jnp.ones(4))))(*jax.vjp(f, x)),
            "vjp_placed_cotangent": lambda x: jax.vjp(f, x)[1](on_3),
            "value_and_grad": lambda x: jax.value_and_grad(lambda v: f(v)[1])(x),
            "jacrev": lambda x: jax.jacrev(f)(x),
            "linearize": linearized}


def _case(jax, name: str, jitted: bool, how: str) -> str:
    f = _functions(jax)[name]
    results = _derivatives(jax, jax.jit(f) if jitted else f)[how](X)
    return "; ".join(_where(r) for r in jax.tree.leaves(results))


def _error(jax, how: str) -> str:
    """The error of an eager derivative of a jitted function converting for device 3, given a value committed to
    device 5 (an argument, differentiated or not, or a tangent)."""
    jnp = importlib.import_module(jax.__name__ + ".numpy")
    on_5 = jax.device_put(X, jax.devices()[5])
    f = jax.jit(_functions(jax)["asarray"])
    g = jax.jit(lambda x, y: jnp.asarray(x * y, device=jax.devices()[3]))
    run = {"grad": lambda: jax.grad(lambda v: f(v).sum())(on_5),
           "jvp_tangent": lambda: jax.jvp(f, (X,), (on_5,)),
           "grad_other_argument": lambda: jax.grad(lambda a, b: g(a, b).sum())(X, on_5),
           "grad_both_arguments": lambda: jax.grad(lambda a, b: g(a, b).sum(), (0, 1))(X, on_5)}[how]
    try:
        run()
    except ValueError as error:
        return failure(error, in_golden)
    return "no error"


HOWS = ("grad", "jvp", "vjp", "vjp_placed_cotangent", "value_and_grad", "jacrev", "linearize")
CASES = {f"{name}_{'jit' if jitted else 'eager'}_{how}": (lambda jax, n=name, j=jitted, h=how: _case(jax, n, j, h))
         for name in ("asarray", "astype", "linspace", "put_sharding", "put_device") for jitted in (True, False)
         for how in HOWS}
CASES.update({f"error_{how}": (lambda jax, h=how: _error(jax, h))
              for how in ("grad", "jvp_tangent", "grad_other_argument", "grad_both_arguments")})


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "eager_placing_derivatives_golden.json")
