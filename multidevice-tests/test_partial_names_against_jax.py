"""A jitted partial application (``jnp.linalg.lstsq`` is one, as in JAX) is named as JAX 0.10.2 names it in its
errors for arguments committed to different devices: by the partial's repr when called, directly or under
``grad`` (compared up to the memory addresses the repr holds), by the function's name when lowered and in jaxprs
(golden/make_partial_names_golden.py)."""

import importlib
import json

import pytest

import jaxle

GEN = importlib.import_module("make_partial_names_golden")
GOLDEN = json.loads((GEN.HERE / "partial_names_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert GEN.CASES[name](jaxle) == GOLDEN[name]
