"""``shard_map`` manual over some mesh axes, some of the others Explicit, refuses what JAX 0.10.2 refuses (blocks
their types no longer divide, eager bodies with unchecked types) with its errors, and runs the rest with its values,
layouts, jaxprs and lowered text (golden/make_partial_manual_golden.py)."""

import importlib
import json

import pytest

import jaxle

GEN = importlib.import_module("make_partial_manual_golden")
GOLDEN = json.loads((GEN.HERE / "partial_manual_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert GEN.CASES[name](jaxle) == GOLDEN[name]
