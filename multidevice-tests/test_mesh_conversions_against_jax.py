"""Values converted to arrays under ``jax.set_mesh`` as JAX 0.10.2 converts them
(golden/make_mesh_conversions_golden.py): a NumPy array converted to its own dtype stays uncommitted on the
default device and an Array converted to its own dtype is returned where it lies (other host values are replicated
over the mesh); arguments committed to one device are refused when a jitted function is lowered; filling functions
refuse a ``device=`` sharding that does not divide the shape."""

import importlib
import json

import numpy as np
import pytest

import jaxle
import jaxle.numpy as jnp

GEN = importlib.import_module("make_mesh_conversions_golden")
GOLDEN = json.loads((GEN.HERE / "mesh_conversions_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    thunk, kind = GEN.CASES[name]
    assert GEN._outcome(jaxle, thunk, kind) == GOLDEN[name]


def test_indivisible_filling_sharding_is_caught_as_a_value_error():
    mesh = jaxle.make_mesh((2, 4), ("x", "y"), axis_types=(jaxle.sharding.AxisType.Explicit,) * 2)
    with jaxle.sharding.set_mesh(mesh), pytest.raises(ValueError, match="partitioned 4 times") as caught:
        jnp.zeros((3,), np.float32, device=jaxle.sharding.NamedSharding(mesh, jaxle.sharding.PartitionSpec("y")))
    assert type(caught.value).__name__ == "IndivisibleError"
