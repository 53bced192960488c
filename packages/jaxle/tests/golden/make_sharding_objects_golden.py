"""Write sharding_objects_golden.json: how JAX 0.10.2's sharding objects are made, compared, copied and pickled,
and how ``device_put`` refuses values that are not arrays, eagerly and inside ``jit``:

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_sharding_objects_golden.py jax

``record(module)`` runs every case with ``module`` (jax or jaxle) on its first CPU device and maps each case's name
to its outcome: the repr of what it returns, or the type and message of the error it raises.
"""

import copy
import importlib
import pathlib
import pickle
import sys

import numpy as np
from golden_writer import outcome, write_golden

HERE = pathlib.Path(__file__).parent


def _round_trips(obj):
    """Whether ``obj`` survives a pickle round trip, ``copy.copy`` and ``copy.deepcopy`` unchanged."""
    return {
        "pickle": lambda: pickle.loads(pickle.dumps(obj)) == obj,
        "copy": lambda: copy.copy(obj) == obj,
        "deepcopy": lambda: copy.deepcopy(obj) == obj,
    }


def _cases(m):
    sharding_module = m.sharding
    named, spec_of = sharding_module.NamedSharding, sharding_module.PartitionSpec
    single = sharding_module.SingleDeviceSharding
    device = m.devices()[0]
    mesh = sharding_module.Mesh(m.devices()[:1], ("x",))
    abstract_mesh = sharding_module.AbstractMesh((2,), ("x",))
    spec = spec_of(("x", "y"), None, spec_of.UNCONSTRAINED)
    cases = {
        "default": lambda: single(device),
        "default_memory_kind": lambda: single(device).memory_kind,
        "none_memory_kind": lambda: single(device, memory_kind=None),
        "device_memory_kind": lambda: single(device, memory_kind="device"),
        "positional_memory_kind": lambda: single(device, "pinned_host"),
        "pinned_host": lambda: single(device, memory_kind="pinned_host"),
        "unpinned_host": lambda: single(device, memory_kind="unpinned_host").memory_kind,
        "unknown_memory_kind": lambda: single(device, memory_kind="shared_memory"),
        "device_equals_default": lambda: single(device, memory_kind="device") == single(device),
        "device_hashes_as_default": lambda: hash(single(device, memory_kind="device")) == hash(single(device)),
        "pinned_differs_from_default": lambda: single(device, memory_kind="pinned_host") != single(device),
        "pinned_equals_pinned": lambda: single(device, memory_kind="pinned_host") == single(device, "pinned_host"),
        "pinned_hashes_as_pinned": lambda: len({single(device, memory_kind="pinned_host"),
                                                single(device, memory_kind="pinned_host")}),
        "with_memory_kind": lambda: single(device).with_memory_kind("pinned_host"),
        "with_memory_kind_back": lambda: single(device, "pinned_host").with_memory_kind("device") == single(device),
        "with_unknown_memory_kind": lambda: single(device).with_memory_kind("shared_memory"),
        "mesh_copy_is_itself": lambda: copy.copy(mesh) is mesh,
        "mesh_deepcopy_is_itself": lambda: copy.deepcopy(mesh) is mesh,
    }
    for name, value in [("object", object()), ("bytes", b"ab"), ("string", "s"), ("ellipsis", Ellipsis),
                        ("slice", slice(1)), ("function", len), ("string_array", np.array(["a"])),
                        ("object_array", np.array([None])), ("datetime", np.datetime64(1, "s")),
                        ("list_with_object", [1.0, object()]), ("big_int", 1 << 70)]:
        cases[f"device_put_{name}"] = lambda v=value: m.device_put(v)
        cases[f"device_put_{name}_on_device"] = lambda v=value: m.device_put(v, device)
        cases[f"device_put_{name}_under_jit"] = lambda v=value: m.jit(lambda: m.device_put(v))()
        cases[f"device_put_{name}_on_device_under_jit"] = lambda v=value: m.jit(lambda: m.device_put(v, device))()
    for name, obj in [("single", single(device)), ("pinned", single(device, memory_kind="pinned_host")),
                      ("named", named(mesh, spec_of("x"))),
                      ("mesh", mesh), ("abstract_mesh", abstract_mesh),
                      ("abstract_named", named(abstract_mesh, spec_of("x"))),
                      ("spec", spec)]:
        for how, check in _round_trips(obj).items():
            cases[f"{name}_{how}"] = check
    return cases


def record(m):
    """Every case's outcome with ``m`` as jax."""
    return {name: outcome(case) for name, case in _cases(m).items()}


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    write_golden(record(module), HERE / "sharding_objects_golden.json")
