"""Eager slices of arrays and keys laid out over a mesh as JAX 0.10.2's (golden/make_eager_slices_golden.py): an
unstrided slice runs as a dynamic_slice, so over Auto axes its result is replicated (a strided one keeps the
layout), and over Explicit axes its types and errors are dynamic_slice's."""

import importlib
import json

import pytest

import jaxle

GEN = importlib.import_module("make_eager_slices_golden")
GOLDEN = json.loads((GEN.HERE / "eager_slices_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert GEN.CASES[name](jaxle) == GOLDEN[name]
