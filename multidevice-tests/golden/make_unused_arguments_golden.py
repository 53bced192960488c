"""Write unused_arguments_golden.json: jitted functions on eight CPU devices given arguments on other devices than
the rest that they do not read (or read only in dead code), which JAX prunes before placing the program: where the
results lie, or JAX's refusal (with ``keep_unused=True``, or when the unused argument is the only one committed and
lies over other devices than an in_sharding's), called once, called again (jaxlib's C++ dispatch), lowered and
compiled, under ``jax.set_mesh``, and transformed (``grad``, ``vmap``, ``jvp``, ``jit`` of ``grad``). Recorded from
the module named on the command line:

    /work/jaxpeer/bin/python multidevice-tests/golden/make_unused_arguments_golden.py jax
"""

import pathlib

import golden_main
import numpy as np
from golden_cases import outcome, placed

HERE = pathlib.Path(__file__).parent
X = np.arange(4.0, dtype=np.float32)


def _outcome(thunk) -> str:
    """Where ``thunk()``'s result lies (its sharding, committedness and values), or the error it raises."""
    return outcome(thunk, placed)


def _arguments(jax) -> dict:
    """Arguments committed to the second and fourth devices, and one laid out over the fifth and sixth."""
    devices = jax.devices()
    mesh = jax.make_mesh((2,), ("x",), devices=devices[4:6])
    return {"on_1": jax.device_put(X, devices[1]), "on_3": jax.device_put(X, devices[3]),
            "over_4_5": jax.device_put(np.arange(8.0, dtype=np.float32),
                                       jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("x"))),
            "host": X}


def _first(a, b):
    return a * 2


def _second(a, b):
    return b * 2


def _dead(a, b):
    unused = b * 3  # noqa: F841 - dead code, pruned with its operand
    return a * 2


def _neither(a, b):
    return np.float32(1.0) + 0 * np.float32(2.0)


FUNCTIONS = {"first": _first, "second": _second, "dead": _dead, "neither": _neither}

PAIRS = {"device_1_device_3": ("on_1", "on_3"), "device_3_device_1": ("on_3", "on_1"),
         "device_1_mesh": ("on_1", "over_4_5"), "mesh_device_1": ("over_4_5", "on_1"),
         "host_device_3": ("host", "on_3")}


def _fresh(fun):
    """``fun`` as a new function of the same name, which JAX traces and lowers afresh (its caches keyed by the
    function would otherwise skip the checks of a program lowered before)."""
    def fresh(a, b):
        return fun(a, b)

    fresh.__name__, fresh.__qualname__ = fun.__name__, fun.__qualname__
    return fresh


def _call(jax, function: str, pair: str, use: str) -> str:
    args = _arguments(jax)
    a, b = (args[k] for k in PAIRS[pair])
    fun = _fresh(FUNCTIONS[function])
    if use == "call":
        return _outcome(lambda: jax.jit(fun)(a, b))
    if use == "call_again":
        jitted = jax.jit(fun)
        _outcome(lambda: jitted(a, b))
        return _outcome(lambda: jitted(a, b))
    if use == "keep_unused":
        return _outcome(lambda: jax.jit(fun, keep_unused=True)(a, b))
    if use == "compiled":
        return _outcome(lambda: jax.jit(fun).lower(a, b).compile()(a, b))
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(jax.sharding.AxisType.Explicit,) * 2)
    with jax.sharding.set_mesh(mesh):
        return _outcome(lambda: jax.jit(fun)(a, b))


def _in_sharding(jax) -> str:
    """An unused argument elsewhere beside an in_sharding pinning the program to another device."""
    args = _arguments(jax)
    pinned = jax.sharding.SingleDeviceSharding(jax.devices()[1])
    return _outcome(lambda: jax.jit(_fresh(_first), in_shardings=(pinned, None))(args["on_1"], args["on_3"]))


def _static_beside(jax) -> str:
    args = _arguments(jax)
    return _outcome(lambda: jax.jit(lambda a, b, n: a * n, static_argnums=2)(args["on_1"], args["on_3"], 2))


def _square_sum(a, b):
    return (a * a).sum()


TRANSFORMS = {"grad": lambda jax, f: jax.grad(f), "grad_of_unused": lambda jax, f: jax.grad(f, argnums=1),
              "vmap": lambda jax, f: jax.vmap(f), "jvp": lambda jax, f: lambda a, b: jax.jvp(f, (a, b), (a, b))[1],
              "jit_grad": lambda jax, f: jax.jit(jax.grad(f))}


def _transformed(jax, transform: str, pair: str) -> str:
    """A jitted function ignoring its second argument, transformed (its program applied eagerly, under ``grad``,
    ``vmap`` or ``jvp``, or staged into another ``jit``): the unused argument places nothing there either."""
    args = _arguments(jax)
    a, b = (args[k] for k in PAIRS[pair])
    return _outcome(lambda: TRANSFORMS[transform](jax, jax.jit(_fresh(_square_sum)))(a, b))


CASES = {
    **{f"{function}_{pair}_{use}": (lambda jax, f=function, p=pair, u=use: _call(jax, f, p, u))
       for function in FUNCTIONS for pair in PAIRS
       for use in ("call", "call_again", "keep_unused", "compiled", "under_mesh")
       if not (use == "under_mesh" and pair != "host_device_3")},
    # (over a mesh, JAX's gradient of the unused argument fails in its own lowering, and vmap on sizes)
    **{f"{transform}_{pair}": (lambda jax, t=transform, p=pair: _transformed(jax, t, p))
       for transform in TRANSFORMS for pair in ("device_1_device_3", "device_1_mesh")
       if not (pair == "device_1_mesh" and transform in ("grad_of_unused", "vmap"))},
    "in_sharding": _in_sharding,
    "static_beside": _static_beside,
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "unused_arguments_golden.json")
