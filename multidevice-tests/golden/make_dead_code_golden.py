"""Write dead_code_golden.json: what JAX 0.10.2's lowering leaves out of a program on eight CPU devices, recorded
from the module named on the command line: the values of a ``shard_map`` body no result needs, its results nothing
reads and the arguments it then no longer reads (the program's too), and the results of a ``compute_on2`` function
nothing reads; each as the lowered text and the program's results.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_dead_code_golden.py jax
"""

import importlib
import pathlib

import golden_main
import numpy as np

HERE = pathlib.Path(__file__).parent
X = np.arange(32, dtype=np.float32).reshape(8, 4)


def _record(jax, f, *args) -> dict:
    out = jax.jit(f)(*args)
    return {"text": jax.jit(f).lower(*args).as_text(), "result": np.round(np.asarray(out), 4).tolist()}


def _over_mesh(f, axis_types: str = "Explicit"):
    """``f(jax, P)`` applied to ``X`` (twice) laid out over 'x' of a 2x4 mesh ('x', 'y') set by set_mesh."""
    def case(jax):
        kind = getattr(jax.sharding.AxisType, axis_types)
        mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(kind, kind))
        P = jax.sharding.PartitionSpec
        with jax.sharding.set_mesh(mesh):
            a = jax.device_put(X, P("x", "y"))
            return _record(jax, f(jax, P), a, a * 2)
    return case


def _dead_body_values(jax, P):
    def body(v):
        jax.numpy.cos(v) * 3  # read by nothing
        return jax.numpy.sin(v) + 1
    return lambda a, b: jax.shard_map(body, in_specs=P("x"), out_specs=P("x"), axis_names={"x"})(a)


def _unread_result(jax, P, axis_names=None):
    body = lambda v, w: (v * 2, w + 1)  # noqa: E731 - small bodies read best inline
    names = {} if axis_names is None else {"axis_names": axis_names}
    mapped = jax.shard_map(body, in_specs=(P("x"), P("x")), out_specs=(P("x"), P("x")), **names)
    return lambda a, b: mapped(a, b)[1]


def _compute_on_unread_result(jax, P):
    api = importlib.import_module(jax.__name__ + ".experimental.compute_on")
    both = api.compute_on2(lambda v: (v * 2, jax.numpy.sin(v)), compute_type="device_host",
                           out_memory_spaces=jax.memory.Space.Device)
    return lambda a, b: both(a)[1]


CASES = {
    "shard_map_dead_body_values": _over_mesh(_dead_body_values),
    "shard_map_unread_result": _over_mesh(_unread_result, "Auto"),
    "shard_map_unread_result_some_axes_manual": _over_mesh(lambda jax, P: _unread_result(jax, P, {"x"})),
    "compute_on2_unread_result": lambda jax: _record(jax, _compute_on_unread_result(jax, None), X, X),
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "dead_code_golden.json")
