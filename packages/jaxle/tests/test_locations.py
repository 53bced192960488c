"""Lowered text locates a jitted function's operations as JAX 0.10.2's does (golden/locations_golden.json): with
``debug_info=True`` each operation at its name stack over the user's frames that staged it, the HLO's instructions
named after those locations, and MLIR's verifier naming the location of the operation it refuses."""

import json
import pathlib
import sys

import pytest

import jaxle as jax

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))

import make_locations_golden  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "locations_golden.json").read_text())
MINE = make_locations_golden.record(jax)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_matches_jax(name):
    assert MINE[name] == GOLDEN[name]
