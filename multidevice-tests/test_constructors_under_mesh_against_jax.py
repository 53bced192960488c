"""``jnp.asarray``, ``jnp.array`` and the other constructors from host data put their arrays where JAX 0.10.2 does
under ``jax.set_mesh`` (replicated over the mesh, committed; golden/make_constructors_under_mesh_golden.py)."""

import numpy as np
from conftest import golden_cases_test

import jaxle
import jaxle.numpy as jnp

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_constructors_under_mesh_golden")


def test_replicated_constants_compute_with_sharded_arrays():
    mesh = GEN._mesh(jaxle, "auto")
    rows = np.arange(32.0, dtype=np.float32).reshape(4, 8)
    with jaxle.sharding.set_mesh(mesh):
        split = jaxle.device_put(rows, jaxle.sharding.PartitionSpec("x", "y"))
        total = split + jnp.asarray(np.arange(8.0, dtype=np.float32))
    np.testing.assert_array_equal(np.asarray(total), rows + np.arange(8.0))
    assert all(np.asarray(shard.data).shape == (2, 2) for shard in total.addressable_shards)
