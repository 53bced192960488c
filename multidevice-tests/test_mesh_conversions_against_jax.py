"""Values converted to arrays under ``jax.set_mesh`` as JAX 0.10.2 converts them
(golden/make_mesh_conversions_golden.py): a NumPy array converted to its own dtype stays uncommitted on the
default device and an Array converted to its own dtype is returned where it lies (other host values are replicated
over the mesh); arguments committed to one device are refused when a jitted function is lowered; filling functions
refuse a ``device=`` sharding that does not divide the shape."""

import importlib
import json

import pytest

import jaxle

GEN = importlib.import_module("make_mesh_conversions_golden")
GOLDEN = json.loads((GEN.HERE / "mesh_conversions_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    thunk, kind = GEN.CASES[name]
    assert GEN._outcome(jaxle, thunk, kind) == GOLDEN[name]
