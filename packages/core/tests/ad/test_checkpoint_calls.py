"""Checkpointed functions whose policy offloads values, or that call a ``jit`` or a nested ``checkpoint``: the
jaxprs and values of their derivatives against JAX 0.10.2 (``make_checkpoint_calls_golden.py``), and gradients
against finite differences."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from jvp_checks import gradient_by_differences

import jaxle_core as jc
from jaxle_core.config import enable_x64

GEN = importlib.import_module("make_checkpoint_calls_golden")
GOLDEN = importlib.import_module("make_reductions_golden").load_suite("checkpoint_calls")[1]
M = GEN.api(jc)
CASES = GEN.cases(M)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_jaxpr_and_values_match_jax(name):
    fn, args = CASES[name]
    actual, expected = GEN.record(M, fn, args), GOLDEN[name]
    assert actual["jaxpr"] == expected["jaxpr"]
    assert len(actual["values"]) == len(expected["values"])
    for a, e in zip(actual["values"], expected["values"]):
        np.testing.assert_allclose(a, e, rtol=2e-5, atol=1e-6)


@pytest.mark.parametrize("policy", sorted(GEN.policies(M)))
@pytest.mark.parametrize("body", sorted(GEN.functions(M)))
def test_gradients_are_finite_differences(body, policy):
    fun = GEN.functions(M)[body]
    args = (GEN.X.astype(np.float64), GEN.W.astype(np.float64))
    with enable_x64(True):
        grads = jc.grad(M.ck(fun, policy=GEN.policies(M)[policy]), argnums=(0, 1))(*args)
        for actual, expected in zip(grads, gradient_by_differences(fun, args), strict=True):
            np.testing.assert_allclose(np.asarray(actual), expected, rtol=1e-7, atol=1e-9)

