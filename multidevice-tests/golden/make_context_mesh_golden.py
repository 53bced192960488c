"""Write context_mesh_golden.json: where eager operations and jitted functions put their results under
``jax.set_mesh`` of a mesh of Auto axes on eight CPU devices (replicated over the mesh), and JAX's error for an
argument committed to a device, recorded from the module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_context_mesh_golden.py jax
"""

import importlib
import pathlib

import golden_main
import numpy as np
from golden_cases import failure, first_line

HERE = pathlib.Path(__file__).parent
X = np.arange(8.0, dtype=np.float32)


def _placed(jax, thunk) -> str:
    """Where the result of ``thunk()`` (run under set_mesh of a 2x4 mesh of Auto axes) lives, its type and
    value, or the error raised."""
    auto = jax.sharding.AxisType.Auto
    with jax.sharding.set_mesh(jax.make_mesh((2, 4), ("x", "y"), axis_types=(auto, auto))):
        try:
            array = thunk()
        except Exception as error:  # the type and message are what is compared
            return failure(error, first_line)
        aval = jax.typeof(array)
        return (f"{array.sharding} committed={array.committed} {aval.str_short()} {aval.sharding} "
                f"{np.asarray(array).tolist()}")


def _jnp(jax):
    return importlib.import_module(jax.__name__ + ".numpy")


CASES = {
    "eager_on_host_value": lambda jax: _placed(jax, lambda: _jnp(jax).sin(X)),
    "eager_on_uncommitted": lambda jax: _placed(jax, lambda: _jnp(jax).sin(jax.device_put(X))),
    "eager_python_scalars": lambda jax: _placed(jax, lambda: _jnp(jax).add(1.0, 2.0)),
    "eager_reduction": lambda jax: _placed(jax, lambda: _jnp(jax).sum(_jnp(jax).array([1, 2]))),
    "zeros": lambda jax: _placed(jax, lambda: _jnp(jax).zeros(3)),
    "arange": lambda jax: _placed(jax, lambda: _jnp(jax).arange(4)),
    "random_normal": lambda jax: _placed(jax, lambda: jax.random.normal(jax.random.key(0), (3,))),
    "jit_on_host_value": lambda jax: _placed(jax, lambda: jax.jit(lambda a: a * 2)(X)),
    "jit_on_python_scalar": lambda jax: _placed(jax, lambda: jax.jit(lambda a: a * 2)(3.0)),
    "jit_without_arguments": lambda jax: _placed(jax, lambda: jax.jit(lambda: _jnp(jax).ones(3))()),
    "grad": lambda jax: _placed(jax, lambda: jax.grad(lambda a: (a * a).sum())(X)),
    "vmap": lambda jax: _placed(jax, lambda: jax.vmap(lambda a: a * 2)(X)),
    "eager_on_committed_device": lambda jax: _placed(jax, lambda: _jnp(jax).sin(
        jax.device_put(X, jax.devices()[1]))),
    "jit_on_committed_device": lambda jax: _placed(jax, lambda: jax.jit(lambda a: a + 1)(
        jax.device_put(X, jax.devices()[0]))),
    "device_put_host_value": lambda jax: _placed(jax, lambda: jax.device_put(X)),
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "context_mesh_golden.json")
