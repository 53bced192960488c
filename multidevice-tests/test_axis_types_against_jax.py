"""``jax.sharding.auto_axes`` and ``explicit_axes`` on eight CPU devices lay out and compute as JAX 0.10.2's
(golden/make_axis_types_golden.py)."""

import importlib
import json

import pytest

import jaxle

GEN = importlib.import_module("make_axis_types_golden")
GOLDEN = json.loads((GEN.HERE / "axis_types_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert GEN.CASES[name](jaxle) == GOLDEN[name]

