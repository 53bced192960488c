"""Checkpoint policies offloading residuals to pinned host memory, compiled and run on CPU: the lowered text of the
jitted gradient, its values eager and jitted, and the memory of the residuals a pullback holds, against JAX 0.10.2
(``golden/make_checkpoint_offload_golden.py``); the gradients against finite differences."""

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
GEN = importlib.import_module("make_checkpoint_offload_golden")
GOLDEN = json.loads((GOLDEN_DIR / "checkpoint_offload_golden.json").read_text())
CASES = GEN.cases(jaxle)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_matches_jax(name):
    actual, expected = GEN.record(jaxle, name, CASES[name]), GOLDEN[name]
    assert actual["lowered"] == expected["lowered"]
    assert actual["residuals"] == expected["residuals"]
    for key in ("eager", "jitted"):
        for got, want in zip(actual[key], expected[key], strict=True):
            np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_gradient_is_the_finite_difference(name):
    fun, eps = CASES[name], 1e-3
    grads = jaxle.jit(jaxle.grad(fun, argnums=(0, 1)))(GEN.X, GEN.W)
    args = (GEN.X.astype(np.float64), GEN.W.astype(np.float64))
    for i, grad in enumerate(grads):
        expected = np.zeros(args[i].shape)
        for index in np.ndindex(args[i].shape):
            shifted = [[a.copy() for a in args] for _ in range(2)]
            shifted[0][i][index] += eps
            shifted[1][i][index] -= eps
            plus, minus = (float(fun(*(s.astype(np.float32) for s in pair))) for pair in shifted)
            expected[index] = (plus - minus) / (2 * eps)
        np.testing.assert_allclose(np.asarray(grad), expected, rtol=2e-2, atol=2e-3)
