"""Write creation_in_jit_golden.json: the creation functions taking ``device=`` (``jnp.linspace``, ``arange``,
``eye``, ``zeros``, ``full``, their ``*_like`` forms...) and ``jax.device_put`` inside a transformation on eight CPU
devices: the jaxprs they stage (linspace's conversion and sharding constraint inside its jitted function, arange's
and eye's ``device_put``, nothing for the filling functions), where the results of jitted calls lie, the refusal of
an argument committed to another device (called and lowered), of placements on different devices, and under
``jax.set_mesh`` the jaxpr ``jit(f).trace`` stages and the refusal of the program when lowered or called. Recorded
from the module named on the command line (the paths of the source lines errors name given relative to this folder):

    /work/jaxpeer/bin/python multidevice-tests/golden/make_creation_in_jit_golden.py jax
"""

import importlib
import pathlib

import golden_main
import numpy as np
from golden_cases import in_golden, outcome, placed

HERE = pathlib.Path(__file__).parent
X = np.arange(8.0, dtype=np.float32)


def _outcome(thunk) -> str:
    """What ``thunk()`` gives: a text as it is, an array's (the first of a tuple's) placement, or the error raised
    (this folder's path left out of the source lines it names)."""
    return outcome(thunk, lambda r: r if isinstance(r, str) else placed(r[0] if isinstance(r, tuple) else r),
                   message=in_golden)


def _functions(jax) -> dict:
    """Functions of one argument creating arrays on the third device (as a device, its sharding or a NamedSharding
    of Auto axes), or putting their argument there."""
    jnp = importlib.import_module(jax.__name__ + ".numpy")
    device = jax.devices()[2]
    on_device = jax.sharding.SingleDeviceSharding(device)
    auto = jax.make_mesh((2, 4), ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
    split = jax.sharding.NamedSharding(auto, jax.sharding.PartitionSpec("x"))
    return {
        "linspace": lambda x: jnp.linspace(0.0, 1.0, 5, device=device),
        "linspace_of_sharding": lambda x: jnp.linspace(0.0, 1.0, 5, device=on_device),
        "linspace_of_argument": lambda x: jnp.linspace(x[0], 1.0, 4, device=device),
        "linspace_retstep": lambda x: jnp.linspace(0.0, 1.0, 4, retstep=True, device=device),
        "linspace_of_ints": lambda x: jnp.linspace(0, 8, 4, dtype=jnp.int32, device=device),
        "linspace_named_sharding": lambda x: jnp.linspace(0.0, 1.0, 8, device=split),
        "arange": lambda x: jnp.arange(4, device=device),
        "arange_of_floats": lambda x: jnp.arange(1, 7, 2, dtype=jnp.float32, device=device),
        "arange_of_sharding": lambda x: jnp.arange(8, device=on_device),
        "arange_named_sharding": lambda x: jnp.arange(8, device=split),
        "eye": lambda x: jnp.eye(3, device=device),
        "eye_of_sharding": lambda x: jnp.eye(2, device=on_device),
        "eye_named_sharding": lambda x: jnp.eye(8, device=split),
        "zeros": lambda x: jnp.zeros((2,), device=device),
        "full": lambda x: jnp.full((2,), x[0], device=device),
        "ones_like": lambda x: jnp.ones_like(x, device=device),
        "empty_like": lambda x: jnp.empty_like(x, device=device),
        "device_put_to_device": lambda x: jax.device_put(x, device) * 2,
        "device_put_to_sharding": lambda x: jax.device_put(x, on_device) * 2,
        "device_put_named_sharding": lambda x: jax.device_put(x, split) * 2,
        "device_puts_to_two_devices": lambda x: (jax.device_put(x, on_device),
                                                 jax.device_put(x, jax.sharding.SingleDeviceSharding(
                                                     jax.devices()[3]))),
        "constraint_then_device_put": lambda x: (
            jax.lax.with_sharding_constraint(x, jax.sharding.SingleDeviceSharding(jax.devices()[3])),
            jax.device_put(x, on_device)),
    }


def _staged(jax, name: str, use: str) -> str:
    function = _functions(jax)[name]
    if use == "jaxpr":
        return _outcome(lambda: str(jax.make_jaxpr(function)(X)))
    if use == "jit":
        return _outcome(lambda: jax.jit(function)(X))
    elsewhere = jax.device_put(X, jax.devices()[1])  # an argument committed to another device
    if use == "jit_committed_elsewhere":
        return _outcome(lambda: jax.jit(function)(elsewhere))
    return _outcome(lambda: jax.jit(function).lower(elsewhere).as_text())


def _under_mesh(jax, kind: str, name: str, use: str) -> str:
    """Under ``set_mesh`` of the eight devices (``kind`` axes): ``jit(f).trace`` stages the placement on the third
    device, which the program's lowering then refuses (so does a call)."""
    jnp = importlib.import_module(jax.__name__ + ".numpy")
    device = jax.devices()[2]
    function = {"linspace": lambda x: jnp.linspace(0.0, 1.0, 4, device=device),
                "arange": lambda x: jnp.arange(4, device=device),
                "eye": lambda x: jnp.eye(2, device=device),
                "device_put": lambda x: jax.device_put(x, jax.sharding.SingleDeviceSharding(device))}[name]
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(getattr(jax.sharding.AxisType, kind),) * 2)
    with jax.sharding.set_mesh(mesh):
        if use == "trace":
            return _outcome(lambda: str(jax.jit(function).trace(X).jaxpr))
        if use == "lower":
            return _outcome(lambda: jax.jit(function).trace(X).lower().as_text())
        if use == "call":
            return _outcome(lambda: jax.jit(function)(X))
        return _outcome(lambda: function(X))


NAMES = ("linspace", "linspace_of_sharding", "linspace_of_argument", "linspace_retstep", "linspace_of_ints",
         "linspace_named_sharding", "arange", "arange_of_floats", "arange_of_sharding", "arange_named_sharding", "eye",
         "eye_of_sharding", "eye_named_sharding", "zeros", "full", "ones_like", "empty_like", "device_put_to_device",
         "device_put_to_sharding", "device_put_named_sharding", "device_puts_to_two_devices",
         "constraint_then_device_put")

CASES = {
    **{f"{name}_{use}": (lambda jax, n=name, u=use: _staged(jax, n, u))
       for name in NAMES for use in ("jaxpr", "jit", "jit_committed_elsewhere", "lower_committed_elsewhere")},
    **{f"under_{kind.lower()}_mesh_{name}_{use}": (lambda jax, k=kind, n=name, u=use: _under_mesh(jax, k, n, u))
       for kind in ("Explicit", "Auto") for name in ("linspace", "arange", "eye", "device_put")
       for use in ("trace", "lower", "call", "eager")},
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "creation_in_jit_golden.json")
