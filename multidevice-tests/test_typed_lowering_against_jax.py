"""Programs over a mesh of Explicit axes lower as JAX 0.10.2's (golden/make_typed_lowering_golden.py): each value
whose type carries a layout is constrained to it, so XLA's partitioner adds the collectives JAX's program has and
the results are JAX's; without such a mesh the lowering is untouched."""

import numpy as np
from conftest import golden_cases_test

import jaxle
import jaxle.numpy as jnp
from jaxle.sharding import AxisType, NamedSharding, PartitionSpec

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_typed_lowering_golden")


def test_contraction_over_a_split_dimension_reduces_across_devices():
    rows = np.arange(32.0, dtype=np.float32).reshape(8, 4)
    columns = np.arange(32.0, dtype=np.float32).reshape(4, 8) / 3
    mesh = jaxle.make_mesh((2, 4), ("x", "y"))
    with jaxle.set_mesh(mesh):
        a = jaxle.device_put(rows, PartitionSpec("x", "y"))
        b = jaxle.device_put(columns, PartitionSpec("y"))
        product = jaxle.jit(lambda u, v: jnp.matmul(u, v, out_sharding=PartitionSpec("x", "y")))
        out = product(a, b)
        hlo = product.lower(a, b).compile().as_text()
    assert out.sharding == NamedSharding(mesh, PartitionSpec("x", "y"))
    np.testing.assert_allclose(np.asarray(out), rows @ columns, rtol=1e-6)
    assert GEN.collectives(hlo)["reduce-scatter"] + GEN.collectives(hlo)["all-reduce"] >= 1


def test_no_constraints_without_explicit_axes():
    auto = jaxle.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Auto,) * 2)
    x = jaxle.device_put(np.ones((8, 4), np.float32), NamedSharding(auto, PartitionSpec("x")))
    text = jaxle.jit(lambda u: jnp.sin(u) * 2).lower(x).as_text()
    assert "sharding_constraint" not in text and 'sdy.sharding<@mesh, [{"x"}, {}]>' in text
    assert "sharding_constraint" not in jaxle.jit(lambda u: jnp.sin(u) * 2).lower(np.ones(3, np.float32)).as_text()
