"""Sharding in types over a mesh of Explicit axes on eight CPU devices: types, jaxprs, results' layouts and errors
as JAX 0.10.2's (golden/make_sharding_types_golden.py); values against NumPy."""

import numpy as np
from conftest import golden_cases_test

import jaxle
import jaxle.numpy as jnp
from jaxle.sharding import AxisType, NamedSharding, PartitionSpec

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_sharding_types_golden")


def _explicit_mesh():
    return jaxle.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit,) * 2)


def test_values_follow_numpy():
    mesh = _explicit_mesh()
    rows = np.arange(32.0, dtype=np.float32).reshape(8, 4)
    columns = np.arange(32.0, dtype=np.float32).reshape(4, 8)
    with jaxle.set_mesh(mesh):
        a = jaxle.device_put(rows, PartitionSpec("x"))
        b = jaxle.device_put(columns, PartitionSpec(None, "x"))
        product = jnp.matmul(a, jaxle.sharding.reshard(b, PartitionSpec()))
        assert str(jaxle.typeof(product)) == "float32[8@x,8@x]" or product.sharding.spec == PartitionSpec("x", None)
        np.testing.assert_allclose(np.asarray(product), rows @ columns, rtol=1e-6)
        total = jaxle.jit(lambda u: jnp.sin(u).sum(1))(a)
        np.testing.assert_allclose(np.asarray(total), np.sin(rows).sum(1), rtol=1e-5)
        assert total.sharding == NamedSharding(mesh, PartitionSpec("x"))


def test_tracing_without_explicit_mesh_leaves_types_alone():
    aval = jaxle.typeof(jnp.ones((2, 3)))
    assert aval.explicit_sharding is None and str(aval) == "float32[2,3]"
