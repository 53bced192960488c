"""A jitted function's arguments that it does not read (or reads only in dead code) are pruned before its program
is placed, as JAX 0.10.2 prunes them: lying on other devices than the rest, they are neither refused nor followed
(called once or again, compiled ahead of time, under ``set_mesh``), unless ``keep_unused=True``
(golden/make_unused_arguments_golden.py)."""

import importlib
import json

import pytest

import jaxle

GEN = importlib.import_module("make_unused_arguments_golden")
GOLDEN = json.loads((GEN.HERE / "unused_arguments_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert GEN.CASES[name](jaxle) == GOLDEN[name]
