"""``vmap(..., spmd_axis_name=...)`` splits the mapped dimension along the named mesh axes in the shardings written
inside, as JAX 0.10.2's does (golden/make_spmd_axis_name_golden.py): a sharding constraint's batch dimension (left
open to XLA's partitioner without the name; JAX's ValueError where the spec names it already) and a nested jit's
in_shardings and out_shardings, in jaxprs, lowered text and the results' layouts."""

import importlib
import json

import pytest

import jaxle

GEN = importlib.import_module("make_spmd_axis_name_golden")
GOLDEN = json.loads((GEN.HERE / "spmd_axis_name_golden.json").read_text())


def test_golden_covers_every_case():
    assert sorted(GOLDEN) == sorted(GEN.CASES)


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert GEN.CASES[name](jaxle) == GOLDEN[name]
