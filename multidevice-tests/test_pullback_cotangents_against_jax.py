"""A pullback of a function of arrays laid out over a mesh treats the cotangents it is given as JAX 0.10.2's does
(golden/make_pullback_cotangents_golden.py): one over no mesh is taken as the output's type (eagerly it is not
resharded, so a shard_map over Explicit axes refuses one split otherwise than its specs), one typed over a mesh
must have the output's type."""

import importlib
import json

import pytest

import jaxle

GEN = importlib.import_module("make_pullback_cotangents_golden")
GOLDEN = json.loads((GEN.HERE / "pullback_cotangents_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert GEN.CASES[name](jaxle) == GOLDEN[name]
