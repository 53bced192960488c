"""``jnp.asarray``, ``jnp.array`` and the other constructors from host data put their arrays where JAX 0.10.2 does
under ``jax.set_mesh`` (replicated over the mesh, committed; golden/make_constructors_under_mesh_golden.py)."""

import importlib
import json

import numpy as np
import pytest

import jaxle
import jaxle.numpy as jnp

GEN = importlib.import_module("make_constructors_under_mesh_golden")
GOLDEN = json.loads((GEN.HERE / "constructors_under_mesh_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert GEN.CASES[name](jaxle) == GOLDEN[name]


def test_replicated_constants_compute_with_sharded_arrays():
    mesh = GEN._mesh(jaxle, "auto")
    rows = np.arange(32.0, dtype=np.float32).reshape(4, 8)
    with jaxle.sharding.set_mesh(mesh):
        split = jaxle.device_put(rows, jaxle.sharding.PartitionSpec("x", "y"))
        total = split + jnp.asarray(np.arange(8.0, dtype=np.float32))
    np.testing.assert_array_equal(np.asarray(total), rows + np.arange(8.0))
    assert all(np.asarray(shard.data).shape == (2, 2) for shard in total.addressable_shards)
