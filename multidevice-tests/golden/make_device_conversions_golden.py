"""Write device_conversions_golden.json: ``jnp.asarray``/``jnp.array``/``astype`` given ``device=`` (a device, its
SingleDeviceSharding, a NamedSharding of Auto axes) inside a transformation on eight CPU devices: the jaxprs they
stage (a ``convert_element_type``, then a sharding constraint to the device), where the results of jitted calls lie,
the refusal of an argument committed to another device, and under ``jax.set_mesh`` the jaxpr ``jit(f).trace``
stages and the refusal of the program when lowered or called. Recorded from the module named on the command line
(the paths of the source lines errors name are given relative to this folder):

    /work/jaxpeer/bin/python multidevice-tests/golden/make_device_conversions_golden.py jax
"""

import importlib
import pathlib

import golden_main
import numpy as np
from golden_cases import in_golden, outcome, placed

HERE = pathlib.Path(__file__).parent
X = np.arange(4.0, dtype=np.float32)


def _outcome(thunk) -> str:
    """What ``thunk()`` gives: a text as it is, an array's placement, or the error raised (this folder's path left
    out of the source lines it names)."""
    return outcome(thunk, lambda r: r if isinstance(r, str) else placed(r), message=in_golden)


def _conversions(jax) -> dict:
    """Functions converting their argument for ``device=`` of a device (the fourth), its sharding, or a
    NamedSharding of Auto axes."""
    jnp = importlib.import_module(jax.__name__ + ".numpy")
    device = jax.devices()[3]
    auto = jax.make_mesh((2, 4), ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
    split = jax.sharding.NamedSharding(auto, jax.sharding.PartitionSpec("x"))
    return {
        "asarray": lambda x: jnp.asarray(x, device=device) * 2,
        "asarray_of_sharding": lambda x: jnp.asarray(x, device=jax.sharding.SingleDeviceSharding(device)),
        "asarray_with_dtype": lambda x: jnp.asarray(x, dtype=jnp.int32, device=device),
        "asarray_of_python_float": lambda x: jnp.asarray(3.0, device=device) + x,
        "asarray_of_python_int": lambda x: jnp.asarray(3, device=device) + x,
        "asarray_of_list": lambda x: jnp.asarray([1, 2, 3, 4], device=device) + x,
        "asarray_of_list_of_tracers": lambda x: jnp.asarray([x, x], device=device),
        "array": lambda x: jnp.array(x, device=device),
        "array_ndmin": lambda x: jnp.array(x, ndmin=2, device=device),
        "astype": lambda x: x.astype(jnp.int32, device=device),
        "astype_same_dtype": lambda x: jnp.astype(x, jnp.float32, device=device),
        "asarray_named_sharding": lambda x: jnp.asarray(x, device=split) + 1,
        "astype_named_sharding": lambda x: x.astype(jnp.int32, device=split),
    }


def _staged(jax, name: str, use: str) -> str:
    conversion = _conversions(jax)[name]
    if use == "jaxpr":
        return str(jax.make_jaxpr(conversion)(X))
    if use == "jit":
        return _outcome(lambda: jax.jit(conversion)(X))
    # an argument committed to another device than the conversion's
    return _outcome(lambda: jax.jit(conversion)(jax.device_put(X, jax.devices()[1])))


def _weak_scalar(jax) -> str:
    jnp = importlib.import_module(jax.__name__ + ".numpy")
    return str(jax.make_jaxpr(lambda s: jnp.asarray(s, device=jax.devices()[3]))(2.0))


def _eager_grad(jax) -> str:
    """The gradient of a conversion to a device, run eagerly: put on that device."""
    jnp = importlib.import_module(jax.__name__ + ".numpy")
    return _outcome(lambda: jax.grad(lambda x: jnp.asarray(x, device=jax.devices()[3]).sum())(X))


def _under_mesh(jax, kind: str, use: str) -> str:
    """Under ``set_mesh`` of the eight devices (``kind`` axes): ``jit(f).trace`` stages the conversion, which the
    program's lowering then refuses (so does a call); ``make_jaxpr`` of the function traces it too."""
    jnp = importlib.import_module(jax.__name__ + ".numpy")
    device = jax.devices()[3]

    def in_a_function(x):
        return jnp.asarray(x, device=device) * 2

    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(getattr(jax.sharding.AxisType, kind),) * 2)
    with jax.sharding.set_mesh(mesh):
        if use == "trace":
            return _outcome(lambda: str(jax.jit(in_a_function).trace(X).jaxpr))
        if use == "make_jaxpr":
            return _outcome(lambda: str(jax.make_jaxpr(in_a_function)(X)))
        if use == "lower":
            return _outcome(lambda: jax.jit(in_a_function).trace(X).lower().as_text())
        return _outcome(lambda: jax.jit(in_a_function)(X))


CASES = {
    **{f"{name}_{use}": (lambda jax, n=name, u=use: _staged(jax, n, u))
       for name in ("asarray", "asarray_of_sharding", "asarray_with_dtype", "asarray_of_python_float",
                    "asarray_of_python_int", "asarray_of_list", "asarray_of_list_of_tracers", "array", "array_ndmin",
                    "astype", "astype_same_dtype", "asarray_named_sharding", "astype_named_sharding")
       for use in ("jaxpr", "jit", "jit_committed_elsewhere")},
    "asarray_of_weak_scalar_jaxpr": _weak_scalar,
    "eager_grad": _eager_grad,
    **{f"under_{kind.lower()}_mesh_{use}": (lambda jax, k=kind, u=use: _under_mesh(jax, k, u))
       for kind in ("Explicit", "Auto") for use in ("trace", "make_jaxpr", "lower", "call")},
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "device_conversions_golden.json")
