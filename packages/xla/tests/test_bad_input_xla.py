"""The bad-input golden suite (core/tests/golden/make_bad_input_golden.py) with XLA as the backend: eager calls
dispatch to XLA here, and must raise JAX 0.10.2's exceptions before anything reaches jaxlib."""

import importlib
import pathlib
import sys

import pytest

import jaxle_core

sys.path.insert(0, str(pathlib.Path(__file__).parents[2] / "core" / "tests" / "golden"))
GEN = importlib.import_module("make_bad_input_golden")
GOLDEN = GEN.load_golden()


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_raises_like_jax_on_xla(name):
    GEN.assert_matches(GEN.record_case(jaxle_core, GEN.CASES[name]), GOLDEN[name])
