"""SingleDeviceSharding, NamedSharding, Mesh and PartitionSpec are made, compared, copied and pickled as JAX 0.10.2's
are (golden/sharding_objects_golden.json)."""

import json
import pathlib
import sys

import pytest

import jaxle as jax

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))

import make_sharding_objects_golden  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "sharding_objects_golden.json").read_text())
MINE = make_sharding_objects_golden.record(jax)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_matches_jax(name):
    assert MINE[name] == GOLDEN[name]


def test_one_object_per_device_and_memory_kind():
    # jitted calls' C++ dispatch hashes shardings by identity: equal ones must be the same object
    device = jax.devices()[0]
    single = jax.sharding.SingleDeviceSharding
    assert single(device, memory_kind="device") is single(device) is jax.device_put(1.0, device).sharding
    assert single(device, "pinned_host") is single(device).with_memory_kind("pinned_host")
    assert type(single(device)).__hash__ is object.__hash__ and type(single(device)).__eq__ is object.__eq__
    assert jax.jit(lambda a: a + 1)(jax.device_put(1.0, single(device))) == 2.0
