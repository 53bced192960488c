"""``jax.lax.with_sharding_constraint`` treats the axis types of its sharding's mesh and of the mesh set by
``jax.set_mesh`` as JAX 0.10.2 does (golden/make_constraint_axis_types_golden.py): Explicit axes are refused with
JAX's ValueError except under a mesh of Explicit axes only, where the constraint asserts the type."""

import importlib
import json

import pytest

import jaxle

GEN = importlib.import_module("make_constraint_axis_types_golden")
GOLDEN = json.loads((GEN.HERE / "constraint_axis_types_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert GEN.CASES[name](jaxle) == GOLDEN[name]
