"""``sort`` under sharding in types compares as JAX 0.10.2's lowering writes it (golden/make_sort_comparator_golden.py):
the keys made canonical (-0.0 as 0.0, one NaN) and compared in total order, each scalar value of the comparison
constrained to be replicated; the order is NumPy's (NaNs last) either way, and programs without Explicit mesh axes
compare the same way without the constraints."""

import importlib
import json

import numpy as np
import pytest

import jaxle
import jaxle.numpy as jnp
from jaxle.sharding import AxisType, NamedSharding, PartitionSpec

GEN = importlib.import_module("make_sort_comparator_golden")
GOLDEN = json.loads((GEN.HERE / "sort_comparator_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert json.loads(json.dumps(GEN.CASES[name](jaxle))) == GOLDEN[name]


@pytest.mark.parametrize("axis_types", [(AxisType.Explicit,) * 2, (AxisType.Auto,) * 2])
def test_sorted_as_numpy_with_or_without_constraints(axis_types):
    rng = np.random.default_rng(0)
    values = rng.choice(np.array([np.nan, -np.nan, -0.0, 0.0, np.inf, -1.5, 2.0], np.float32), (4, 16))
    mesh = jaxle.make_mesh((2, 4), ("x", "y"), axis_types=axis_types)
    with jaxle.set_mesh(mesh):
        x = jaxle.device_put(values, NamedSharding(mesh, PartitionSpec("x", None)))
        sort = jaxle.jit(lambda v: (jnp.sort(v, axis=1), jnp.argsort(v, axis=1)))
        text = sort.lower(x).as_text()
        ordered, order = sort(x)
    # JAX's comparison either way; its scalar values constrained only under sharding in types
    comparator = GEN.comparator(text)
    assert any("TOTALORDER" in line for line in comparator)
    assert any("sdy.sharding_constraint" in line for line in comparator) == (axis_types[0] == AxisType.Explicit)
    np.testing.assert_array_equal(np.asarray(ordered), np.sort(values, axis=1))
    # stable: ties (-0.0 and 0.0 among them, every NaN) keep their order
    np.testing.assert_array_equal(np.asarray(order), np.argsort(np.where(values == 0, 0, values), axis=1,
                                                                kind="stable"))
