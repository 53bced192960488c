"""Write assembled_arrays_golden.json: arrays assembled from parts (``make_array_from_callback``,
``make_array_from_single_device_arrays``, ``make_array_from_process_local_data``) and the conversions of
``multihost_utils`` between a process's data and global arrays, in one process on eight CPU devices, recorded from
the module named on the command line: each result's type, sharding and values, or the error's type and message.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_assembled_arrays_golden.py jax
"""

import importlib
import json
import pathlib

import golden_main
import numpy as np
from golden_cases import outcome, typed_mesh

HERE = pathlib.Path(__file__).parent
DATA = np.arange(32, dtype=np.float32).reshape(8, 4)


def _described(jax, result):
    """Each leaf's type, sharding and values (a host value as its type's name and values)."""
    def leaf(x):
        if isinstance(x, np.ndarray):
            return ["ndarray", x.tolist()]
        return [str(jax.typeof(x)), str(x.sharding), np.asarray(x).tolist()]
    return json.loads(json.dumps(jax.tree.map(leaf, result)))  # tuples as the lists JSON keeps


def _sharding(jax, kind, *spec):
    return jax.sharding.NamedSharding(typed_mesh(jax, kind), jax.sharding.PartitionSpec(*spec))


def _parts(jax, sharding, shape=(8, 4)):
    """One single-device array on each device of ``sharding``, of its shard shape for ``shape``, its values its
    device's position."""
    block = sharding.shard_shape(shape)
    return [jax.device_put(np.full(block, i, np.float32), d) for i, d in enumerate(sharding.mesh.devices.flat)]


def _utils(jax):
    return importlib.import_module(f"{jax.__name__}.experimental.multihost_utils")


def _cases(kind):
    P = lambda jax, *spec: jax.sharding.PartitionSpec(*spec)  # noqa: E731
    mesh = lambda jax: typed_mesh(jax, kind)  # noqa: E731
    full = lambda jax: _sharding(jax, kind, "x", "y")  # noqa: E731
    return {
        "callback": lambda jax: jax.make_array_from_callback((8, 4), full(jax), lambda index: DATA[index]),
        "callback_other_dtype": lambda jax: jax.make_array_from_callback(
            (8, 4), full(jax), lambda index: DATA[index], dtype=np.int32),
        "callback_dtype_canonicalized": lambda jax: jax.make_array_from_callback(
            (8, 4), full(jax), lambda index: DATA[index].astype(np.float64), dtype=np.float32),
        "single_device_arrays": lambda jax: jax.make_array_from_single_device_arrays(
            (8, 4), full(jax), _parts(jax, full(jax))),
        "single_device_arrays_indivisible": lambda jax: jax.make_array_from_single_device_arrays(
            (8, 5), full(jax), _parts(jax, full(jax))),
        "single_device_arrays_of_another_shape": lambda jax: jax.make_array_from_single_device_arrays(
            (8, 4), full(jax), _parts(jax, full(jax), (8, 8))),
        "single_device_arrays_too_few": lambda jax: jax.make_array_from_single_device_arrays(
            (8, 4), full(jax), _parts(jax, full(jax))[:4]),
        "single_device_arrays_of_host_values": lambda jax: jax.make_array_from_single_device_arrays(
            (8, 4), full(jax), [np.asarray(p) for p in _parts(jax, full(jax))]),
        "single_device_arrays_other_dtype": lambda jax: jax.make_array_from_single_device_arrays(
            (8, 4), full(jax), _parts(jax, full(jax)), dtype=np.int32),
        "process_local_data": lambda jax: jax.make_array_from_process_local_data(full(jax), DATA),
        "process_local_data_other_shape": lambda jax: jax.make_array_from_process_local_data(
            full(jax), DATA, (16, 4)),
        "host_local_to_global": lambda jax: _utils(jax).host_local_array_to_global_array(
            (DATA, DATA[:4]), mesh(jax), (P(jax, "x"), P(jax))),
        "host_local_to_global_too_many_specs": lambda jax: _utils(jax).host_local_array_to_global_array(
            (DATA, DATA), mesh(jax), (P(jax), P(jax), P(jax))),
        "host_local_to_global_specs_in_a_list": lambda jax: _utils(jax).host_local_array_to_global_array(
            (DATA, DATA), mesh(jax), [P(jax), P(jax)]),
        "host_local_to_global_none_spec": lambda jax: _utils(jax).host_local_array_to_global_array(
            (DATA, DATA), mesh(jax), (P(jax), None)),
        "global_to_host_local": lambda jax: _utils(jax).global_array_to_host_local_array(
            jax.device_put(DATA, _sharding(jax, kind, "x")), mesh(jax), P(jax, "x")),
        "global_to_host_local_of_a_host_value": lambda jax: _utils(jax).global_array_to_host_local_array(
            DATA, mesh(jax), P(jax, "x")),
        "global_to_host_local_specs_in_a_dict": lambda jax: _utils(jax).global_array_to_host_local_array(
            {"a": DATA}, mesh(jax), {"a": P(jax)}),
    }


def _case(make):
    return lambda jax: outcome(lambda: _described(jax, make(jax)))


CASES = {f"{kind.lower()}_{name}": _case(make) for kind in ("Explicit", "Auto") for name, make in _cases(kind).items()}


def record(jax) -> dict:
    return {name: case(jax) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(record, HERE / "assembled_arrays_golden.json", "experimental.multihost_utils")
