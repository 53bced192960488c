"""``vmap`` over a dimension laid out over Explicit mesh axes, on eight CPU devices: constants made batched by
control flow, ``vmap`` of ``shard_map`` over meshes of Explicit and Auto axes, layout clashes and unmapped
arguments, as JAX 0.10.2's (golden/make_vmap_sharding_golden.py); values against NumPy."""

import numpy as np
from conftest import golden_cases_test

import jaxle
from jaxle import lax
from jaxle.sharding import AxisType, NamedSharding, PartitionSpec

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_vmap_sharding_golden")


def test_vmapped_scan_with_a_constant_output_follows_numpy():
    mesh = jaxle.make_mesh((8,), ("x",), axis_types=(AxisType.Explicit,))
    x = np.arange(8.0, dtype=np.float32)
    with jaxle.set_mesh(mesh):
        split = jaxle.device_put(x, NamedSharding(mesh, PartitionSpec("x")))
        carry, (stacked, ones) = jaxle.jit(jaxle.vmap(
            lambda v: lax.scan(lambda c, _: (c * 2, (c, 1.0)), v, None, length=3)))(split)
    np.testing.assert_allclose(np.asarray(carry), x * 8)
    np.testing.assert_allclose(np.asarray(stacked), x[:, None] * np.array([1.0, 2.0, 4.0], np.float32))
    np.testing.assert_allclose(np.asarray(ones), np.ones((8, 3), np.float32))
    assert carry.sharding.spec == PartitionSpec("x")
    assert jaxle.typeof(ones).sharding.spec == PartitionSpec(None, None)  # typed by its layout: over the mesh


def test_vmapped_shard_map_over_a_mesh_of_explicit_and_auto_axes_follows_numpy():
    mesh = jaxle.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit, AxisType.Auto))
    x = np.arange(64.0, dtype=np.float32).reshape(2, 8, 4)
    split = jaxle.device_put(x, NamedSharding(mesh, PartitionSpec("x")))
    scaled = jaxle.shard_map(lambda v: v * 3, mesh=mesh, in_specs=PartitionSpec("y"), out_specs=PartitionSpec("y"))
    with jaxle.set_mesh(mesh):
        out = jaxle.vmap(scaled, in_axes=1, out_axes=2)(jaxle.numpy.swapaxes(split, 0, 1))
    np.testing.assert_allclose(np.asarray(out), np.transpose(x, (1, 2, 0)) * 3)
    assert str(jaxle.typeof(out)) == "float32[8,4,2]"
