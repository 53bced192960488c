"""Under ``set_mesh`` of a mesh of Explicit axes, ``vmap`` (eager, jitted, staged) and ``lax.map`` of the functions
that refuse a value typed over a mesh of Auto axes (``*_like``, ``imag``, ``argsort``, ``sort``) refuse it as JAX
0.10.2's do (golden/make_batched_other_mesh_golden.py): a slice of ``lax.map``'s operand keeps its type's mesh, and
a batched sort inside a jitted function is compiled under the mesh it was traced under, whose comparison refuses its
keys."""

import importlib
import json

import pytest

import jaxle

GEN = importlib.import_module("make_batched_other_mesh_golden")
GOLDEN = json.loads((GEN.HERE / "batched_other_mesh_golden.json").read_text())


def test_golden_covers_every_case():
    assert sorted(GOLDEN) == sorted(GEN.CASES)


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert GEN.CASES[name](jaxle) == GOLDEN[name]
