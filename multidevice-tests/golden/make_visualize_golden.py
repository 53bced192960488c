"""Write visualize_golden.json: the text jax.debug.visualize_sharding and visualize_array_sharding print (to a
captured, non-terminal stdout) on eight CPU devices, recorded from the module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_visualize_golden.py jax
"""

import contextlib
import io
import pathlib

import golden_main
import numpy as np
from golden_cases import failure

HERE = pathlib.Path(__file__).parent
SPECS = {"xy": ("x", "y"), "yx": ("y", "x"), "x": ("x",), "none_y": (None, "y"), "replicated": (),
         "joined": (("x", "y"),), "none_joined_reversed": (None, ("y", "x"))}
# (shape, spec name, keyword arguments, reversed device order of the mesh)
DRAWINGS = {
    "2d_blocks": ((4, 8), "xy", {}, False),
    "2d_transposed_mesh": ((4, 8), "yx", {}, False),
    "2d_rows": ((4, 8), "x", {}, False),
    "2d_columns": ((4, 8), "none_y", {}, False),
    "2d_replicated": ((4, 8), "replicated", {}, False),
    "2d_scaled_past_console": ((4, 8), "xy", {"use_color": False, "scale": 2}, False),
    "2d_narrow_console": ((4, 8), "xy", {"min_width": 20, "max_width": 30}, False),
    "2d_tall": ((8, 4), "none_y", {}, False),
    "2d_wide_clamped": ((3, 30), "replicated", {}, False),
    "2d_thin": ((30, 3), "replicated", {}, False),
    "2d_uneven_aspect": ((3, 8), "replicated", {}, False),
    "2d_six_rows": ((6, 8), "x", {}, False),
    "2d_half_scale": ((5, 8), "none_y", {"scale": 0.5}, False),
    "2d_reversed_mesh_rows": ((4, 8), "x", {}, True),
    "2d_reversed_mesh_columns": ((4, 8), "none_joined_reversed", {}, True),
    "1d_each_device": ((8,), "joined", {}, False),
    "1d_wide_labels": ((8,), "x", {}, False),
    "1d_min_width_wraps": ((8,), "joined", {"min_width": 12}, False),
    "1d_max_width_truncates": ((8,), "joined", {"max_width": 40}, False),
    "1d_scaled": ((2,), "replicated", {"scale": 10, "min_width": 1}, False),
    "1d_scaled_blocks_lose_labels": ((2,), "x", {"scale": 10, "min_width": 1}, False),
    "1d_long": ((40,), "x", {"scale": 10, "min_width": 1}, False),
}


def _mesh(jax, reverse=False):
    devices = jax.devices()[::-1] if reverse else jax.devices()
    Auto = jax.sharding.AxisType.Auto
    return jax.sharding.Mesh(np.array(devices).reshape(2, 4), ("x", "y"), axis_types=(Auto, Auto))


def printed(thunk) -> str:
    """What ``thunk`` writes to stdout, or its error's type and message."""
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            thunk()
    except Exception as error:  # the type and message are what is compared
        return failure(error)
    return out.getvalue()


def _drawing(jax, shape, spec, kwargs, reverse):
    sharding = jax.sharding.NamedSharding(_mesh(jax, reverse), jax.sharding.PartitionSpec(*SPECS[spec]))
    return printed(lambda: jax.debug.visualize_sharding(shape, sharding, **kwargs))


def _array_cases(jax):
    named = jax.sharding.NamedSharding(_mesh(jax), jax.sharding.PartitionSpec("x", "y"))
    x = jax.device_put(np.arange(32.0).reshape(4, 8), named)
    return {
        "array_sharded": printed(lambda: jax.debug.visualize_array_sharding(x)),
        "array_single_device": printed(lambda: jax.debug.visualize_array_sharding(jax.numpy.ones(3))),
        "array_in_jit": printed(lambda: jax.jit(lambda a: jax.debug.visualize_array_sharding(a.sum(1)))(x)),
        "array_kwargs": printed(lambda: jax.debug.visualize_array_sharding(x, max_width=40)),
        "single_device_sharding": printed(lambda: jax.debug.visualize_sharding(
            (4, 8), jax.sharding.SingleDeviceSharding(jax.devices()[3]))),
        "three_dimensions": printed(lambda: jax.debug.visualize_array_sharding(jax.numpy.ones((2, 2, 2)))),
        "scalar": printed(lambda: jax.debug.visualize_sharding((), jax.sharding.SingleDeviceSharding(
            jax.devices()[0]))),
    }


def run(module) -> dict:
    return {**{name: _drawing(module, *case) for name, case in DRAWINGS.items()}, **_array_cases(module)}


if __name__ == "__main__":
    golden_main.main(run, HERE / "visualize_golden.json")
