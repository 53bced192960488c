"""Under ``set_mesh``, the refusal of an argument on other devices names it as JAX 0.10.2's does: by the parameter
of the jitted function that received it (``jnp`` functions included, with JAX's names for them: ``_reduce_sum``),
by ``args[i]`` of a primitive applied eagerly, and not at all when a jitted function received it traced (under
``grad``, ``vmap``, ``jvp``) (golden/make_mismatch_names_golden.py)."""

import importlib
import json

import pytest

import jaxle

GEN = importlib.import_module("make_mismatch_names_golden")
GOLDEN = json.loads((GEN.HERE / "mismatch_names_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert GEN.CASES[name](jaxle) == GOLDEN[name]
