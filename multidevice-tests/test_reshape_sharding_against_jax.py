"""Reshapes over a mesh of Explicit axes as JAX 0.10.2's (golden/make_reshape_sharding_golden.py): the layout or
refusal of every reshape of the table's operands, and jaxprs, layouts, values, lowered shardings and collectives
of merges and splits of dimensions split over several axes, the jax.numpy functions made of them (ravel, flatten,
roll, resize, order="F") and their jit, vmap and grad; values against NumPy."""

import importlib
import json
import math

import numpy as np
import pytest

import jaxle
from jaxle.sharding import AxisType, PartitionSpec

GEN = importlib.import_module("make_reshape_sharding_golden")
GOLDEN = json.loads((GEN.HERE / "reshape_sharding_golden.json").read_text())
# where JAX 0.10.2's rule fails in its own code (an AssertionError or IndexError), jaxle's asks for out_sharding
JAX_INTERNAL_FAILURES = ("AssertionError: ", "IndexError: tuple index out of range")


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert GEN.CASES[name](jaxle) == GOLDEN["cases"][name]


@pytest.mark.parametrize("mesh_name", sorted(GEN.MESHES))
def test_table_lists_jax_shapes(mesh_name):
    grid = GEN.MESHES[mesh_name]
    assert {str(size): [list(s) for s in GEN.new_shapes(grid, size)] for size in grid.sizes} == GOLDEN["new_shapes"][
        mesh_name]


@pytest.mark.parametrize("mesh_name", sorted(GEN.MESHES))
def test_table_matches_jax(mesh_name):
    golden = GOLDEN["tables"][mesh_name]
    expected = {row: "|".join("E" if o in JAX_INTERNAL_FAILURES else o for o in outcomes.split("|"))
                for row, outcomes in golden.items()}
    table = GEN.table(jaxle, GEN.MESHES[mesh_name])
    assert table.keys() == expected.keys()
    assert [row for row in table if table[row] != expected[row]] == []


def test_tables_hold_jax_internal_failures():
    """The tables reach the reshapes where JAX's rule fails in its own code (which jaxle refuses)."""
    outcomes = {o for table in GOLDEN["tables"].values() for row in table.values() for o in row.split("|")}
    assert set(JAX_INTERNAL_FAILURES) <= outcomes


def _spec_of(text: str) -> PartitionSpec:
    return PartitionSpec(*[None if e == "_" else tuple(e[1:-1].split(",")) if e.startswith("(") else e
                           for e in text.split(" ")])


@pytest.fixture
def mesh():
    explicit = jaxle.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit,) * 2)
    with jaxle.set_mesh(explicit):
        yield explicit


def test_computed_reshapes_of_eight_elements_follow_numpy(mesh):
    """Every reshape of the table's operands of 8 elements that JAX computes: NumPy's values, the table's layout."""
    x = np.arange(8.0, dtype=np.float32) * 3 - 5
    checked = 0
    grid = GEN.MESHES["x2_y4"]
    for row, outcomes in GOLDEN["tables"]["x2_y4"].items():
        shape_text, _, spec_text = row.partition(") ")
        shape = tuple(int(d) for d in shape_text.strip("(").split(",") if d.strip())
        if math.prod(shape) != 8:
            continue
        operand = jaxle.device_put(x.reshape(shape), _spec_of(spec_text))
        for new, outcome in zip(GEN.new_shapes(grid, 8), outcomes.split("|")):
            if outcome[0] in "EAI":
                continue
            y = jaxle.lax.reshape(operand, new)
            np.testing.assert_array_equal(np.asarray(y), x.reshape(new))
            assert y.sharding.spec == _spec_of(outcome), (row, new)
            checked += 1
    assert checked  # the table holds such reshapes

def test_gradient_of_merge_follows_finite_differences(mesh):
    x = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(8, 4)
    weights = np.arange(32.0, dtype=np.float32)
    loss = jaxle.jit(lambda u: (jaxle.numpy.sin(u.reshape(-1)) * weights).sum())
    split = jaxle.device_put(x, PartitionSpec("x", "y"))
    grad = jaxle.grad(loss)(split)
    assert grad.sharding.spec == PartitionSpec("x", "y")
    np.testing.assert_allclose(np.asarray(grad), np.cos(x) * weights.reshape(8, 4), rtol=1e-6)
    step = 1e-3
    bump = np.zeros_like(x)
    bump[5, 2] = step
    numeric = (float(loss(jaxle.device_put(x + bump, PartitionSpec("x", "y"))))
               - float(loss(jaxle.device_put(x - bump, PartitionSpec("x", "y"))))) / (2 * step)
    np.testing.assert_allclose(np.asarray(grad)[5, 2], numeric, rtol=1e-2)
