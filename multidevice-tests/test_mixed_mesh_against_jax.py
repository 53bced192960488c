"""The PartitionSpecs of arrays laid out over meshes of Auto axes, of Explicit axes and of both, and ``vmap`` of a
``shard_map`` over a batch split along Explicit mesh axes, on eight CPU devices: as JAX 0.10.2's
(golden/make_mixed_mesh_golden.py); values against NumPy."""

import numpy as np
from conftest import golden_cases_test

import jaxle
from jaxle.sharding import AxisType, NamedSharding, PartitionSpec

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_mixed_mesh_golden")


def test_vmapped_shard_map_over_a_split_batch_follows_numpy():
    mesh = jaxle.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit,) * 2)
    x = np.arange(64.0, dtype=np.float32).reshape(2, 8, 4)
    split = jaxle.device_put(x, NamedSharding(mesh, PartitionSpec("x", "y")))
    blocks_summed = jaxle.shard_map(lambda v: jaxle.lax.psum(v, "y"), mesh=mesh, in_specs=PartitionSpec("y"),
                                    out_specs=PartitionSpec())
    with jaxle.set_mesh(mesh):
        out = jaxle.vmap(blocks_summed)(split)
    np.testing.assert_allclose(np.asarray(out), x.reshape(2, 4, 2, 4).sum(axis=1))
    assert out.sharding.spec == PartitionSpec("x", None, None)
