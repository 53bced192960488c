"""Where arrays are put as JAX 0.10.2 puts them (golden/make_placement_golden.py), outside any mesh and under
``jax.set_mesh``: arrays of rank 0 made by every creation route lie replicated over the mesh set; the ``*_like``
functions follow an array committed to devices (its device, or its NamedSharding where the shape allows); a value
converted to a NamedSharding over another mesh than the one set is refused as JAX refuses it."""

import importlib
import json

import pytest

import jaxle

GEN = importlib.import_module("make_placement_golden")
GOLDEN = json.loads((GEN.HERE / "placement_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert GEN.CASES[name](jaxle) == GOLDEN[name]
