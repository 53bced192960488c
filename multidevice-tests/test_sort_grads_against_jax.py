"""Derivatives of sorts under ``set_mesh`` of a mesh of Explicit axes print and compute as JAX 0.10.2's
(golden/make_sort_grads_golden.py): each result of a sort is typed as its own operand (the sorted values of a host
argument over no mesh, though the positions sorted with them are typed over the mesh), so ``grad``'s seed needs no
reshard, and a pullback accepts a cotangent replicated over the mesh for a result typed over none."""

import importlib
import json

import pytest

import jaxle

GEN = importlib.import_module("make_sort_grads_golden")
GOLDEN = json.loads((GEN.HERE / "sort_grads_golden.json").read_text())


def test_golden_covers_every_case():
    assert sorted(GOLDEN) == sorted(GEN.CASES)


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert GEN.CASES[name](jaxle) == GOLDEN[name]
