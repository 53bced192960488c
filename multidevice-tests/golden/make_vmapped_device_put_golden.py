"""Write vmapped_device_put_golden.json: ``device_put`` under ``vmap`` (eager, and inside ``jit``) to devices,
their shardings, NamedShardings, memory kinds and pytrees of these: the jaxpr, and the sharding and values of
each result, recorded from the module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_vmapped_device_put_golden.py jax
"""

import pathlib

import golden_main
import numpy as np
from golden_cases import outcome, typed_mesh

HERE = pathlib.Path(__file__).parent
X = np.arange(32, dtype=np.float32).reshape(8, 4) / 8


def _placements(jax) -> dict:
    """Where each case puts every example (a function of the module)."""
    s = jax.sharding
    mesh = typed_mesh(jax, "Auto")
    device = jax.devices()[1]
    return {
        "device": device,
        "device_sharding": s.SingleDeviceSharding(device),
        "named_split": s.NamedSharding(mesh, s.PartitionSpec("y")),
        "named_replicated": s.NamedSharding(mesh, s.PartitionSpec()),
        "host_device": s.SingleDeviceSharding(device, memory_kind="pinned_host"),
        "host_named": s.NamedSharding(mesh, s.PartitionSpec("y"), memory_kind="pinned_host"),
        "pytree": (device, s.NamedSharding(mesh, s.PartitionSpec())),
    }


def _put(jax, name: str):
    placement = _placements(jax)[name]
    if isinstance(placement, tuple):
        return lambda x: jax.device_put((x, x * 2), placement)
    return lambda x: jax.device_put(x, placement)


def _results(jax, result) -> list:
    return [[str(leaf.sharding), np.asarray(leaf).tolist()] for leaf in jax.tree.leaves(result)]


def _record(jax, name: str, jitted: bool) -> dict:
    f = jax.vmap(_put(jax, name))
    f = jax.jit(f) if jitted else f
    return {"jaxpr": outcome(lambda: str(jax.make_jaxpr(f)(X))), "results": outcome(lambda: _results(jax, f(X)))}


def _under_set_mesh(jax, kind: str, jitted: bool) -> dict:
    """A PartitionSpec read over the mesh of ``set_mesh`` (of Auto or Explicit axes) for each example."""
    with jax.sharding.set_mesh(typed_mesh(jax, kind)):
        f = jax.vmap(lambda x: jax.device_put(x, jax.sharding.PartitionSpec("y")))
        f = jax.jit(f) if jitted else f
        return {"jaxpr": outcome(lambda: str(jax.make_jaxpr(f)(X))),
                "results": outcome(lambda: _results(jax, f(X)))}


def _uneven(jax, kind: str, shape: tuple[int, int], jitted: bool) -> dict:
    """A put splitting the first axis of each example over mesh axis 'x' (2 devices), for a batch of ``shape``:
    JAX checks the placement against each example (and, eagerly, the batch; inside jit XLA pads it)."""
    x = np.arange(shape[0] * shape[1], dtype=np.float32).reshape(shape)
    sharding = jax.sharding.NamedSharding(typed_mesh(jax, kind), jax.sharding.PartitionSpec("x"))
    f = jax.vmap(lambda v: jax.device_put(v, sharding))
    f = jax.jit(f) if jitted else f
    return {"results": outcome(lambda: _results(jax, f(x)))}


CASES = {
    **{f"{name}_{'jit_' if jitted else ''}vmap": (lambda jax, name=name, jitted=jitted: _record(jax, name, jitted))
       for name in ("device", "device_sharding", "named_split", "named_replicated", "host_device", "host_named",
                    "pytree") for jitted in (False, True)},
    **{f"spec_over_{kind.lower()}_mesh_{'jit_' if jitted else ''}vmap": (
        lambda jax, kind=kind, jitted=jitted: _under_set_mesh(jax, kind, jitted))
       for kind in ("Auto", "Explicit") for jitted in (False, True)},
    **{f"uneven_{what}_over_{kind.lower()}_mesh_{'jit_' if jitted else ''}vmap": (
        lambda jax, kind=kind, shape=shape, jitted=jitted: _uneven(jax, kind, shape, jitted))
       for what, shape in (("batch", (3, 8)), ("example", (4, 3)))
       for kind in ("Auto", "Explicit") for jitted in (False, True)},
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "vmapped_device_put_golden.json")
