"""Indexing arrays laid out over several devices as JAX 0.10.2's (golden/make_eager_indexing_golden.py): eagerly, an
index taking part of a dimension gathers (the gather's layout over Auto axes, its errors over Explicit axes),
iterating over an array not held whole by every device gives rows put uncommitted on the default device, and an
array of partial sums (typed unreduced or reduced over mesh axes) refuses any gather or scatter with JAX's
``ValueError``."""

import importlib
import json

import pytest

import jaxle

GEN = importlib.import_module("make_eager_indexing_golden")
GOLDEN = json.loads((GEN.HERE / "eager_indexing_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert GEN.CASES[name](jaxle) == GOLDEN[name]
