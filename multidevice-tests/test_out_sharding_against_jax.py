"""How jax.numpy, lax, ops and nn.initializers functions read their ``out_sharding`` arguments over eight CPU devices
(refusals of Auto axes, of other meshes, of a PartitionSpec outside any mesh, with JAX's messages and the source
lines they name), broadcasts to an array's own shape given a layout (JAX's jaxprs: a ``reshard`` where only the
layout changes, the array itself where nothing does), and dynamic_update_slice, sort and slice of arrays uncommitted,
placed under the mesh or of partial sums, results laid out as out_sharding says (jnp.array, bincount, percentile,
ops.segment_*), jnp.repeat outside any mesh and specs longer than a result's rank, as JAX 0.10.2's
(golden/make_out_sharding_golden.py); values against NumPy."""

import numpy as np
from conftest import golden_cases_test

import jaxle
import jaxle.numpy as jnp
from jaxle.sharding import AxisType, PartitionSpec

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_out_sharding_golden")


def test_relaid_broadcasts_keep_the_values():
    explicit = jaxle.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit,) * 2)
    x = np.arange(32.0, dtype=np.float32).reshape(8, 4)
    with jaxle.set_mesh(explicit):
        laid = jaxle.device_put(x, PartitionSpec("x"))
        moved = jaxle.lax.broadcast_in_dim(laid, (8, 4), (0, 1), out_sharding=PartitionSpec(None, "y"))
        same = jnp.broadcast_to(laid, (8, 4), out_sharding=PartitionSpec("x", None))
        jitted = jaxle.jit(lambda u: jaxle.lax.broadcast_in_dim(u, (8, 4), (0, 1), out_sharding=PartitionSpec()))(laid)
    np.testing.assert_array_equal(np.asarray(moved), x)
    assert moved.sharding.spec == PartitionSpec(None, "y")
    assert same is laid
    np.testing.assert_array_equal(np.asarray(jitted), x)
    assert jitted.sharding.spec == PartitionSpec(None, None)
