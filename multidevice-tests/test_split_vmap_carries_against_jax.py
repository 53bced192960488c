"""Loops under a ``vmap`` whose batch is split over mesh axes as JAX 0.10.2's
(golden/make_split_vmap_carries_golden.py): a carry typed over the mesh that becomes batched is broadcast over the
batch's layout (values, layouts, jaxprs); one that is not raises JAX's loop-carry error."""

import importlib
import json

import pytest

import jaxle

GEN = importlib.import_module("make_split_vmap_carries_golden")
GOLDEN = json.loads((GEN.HERE / "split_vmap_carries_golden.json").read_text())


def test_every_case_has_a_golden_record():
    assert GOLDEN.keys() == GEN.CASES.keys()


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert json.loads(json.dumps(GEN.CASES[name](jaxle))) == GOLDEN[name]
