"""Second derivatives through a checkpoint policy's offloaded value, against JAX 0.10.2
(``golden/make_checkpoint_offload_twice_golden.py``): the same error where JAX fails (reverse over reverse with an
offloaded residual), the same values where it runs (forward over reverse, the Hessian, a derivative holding no
offloaded residual)."""

from __future__ import annotations

import importlib
import json
import pathlib
import sys

import numpy as np
import pytest

import jaxle

GOLDEN_DIR = pathlib.Path(__file__).parent / "golden"
sys.path.insert(0, str(GOLDEN_DIR))
GEN = importlib.import_module("make_checkpoint_offload_twice_golden")
GOLDEN = json.loads((GOLDEN_DIR / "checkpoint_offload_twice_golden.json").read_text())
CASES = GEN.cases(GEN.api(jaxle))


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_matches_jax(name):
    actual, expected = GEN.record(CASES[name]), GOLDEN[name]
    assert actual.keys() == expected.keys(), actual
    if "error" in expected:
        assert actual == expected
    else:
        np.testing.assert_allclose(actual["values"], expected["values"], rtol=2e-5, atol=1e-6)

