"""Checkpointed functions whose policy offloads values, or that call a ``jit`` or a nested ``checkpoint``: the
jaxprs and values of their derivatives against JAX 0.10.2 (``make_checkpoint_calls_golden.py``), and gradients
against finite differences."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from jvp_checks import assert_gradients_are_differences, assert_record_matches

import jaxle_core as jc

GEN = importlib.import_module("make_checkpoint_calls_golden")
GOLDEN = importlib.import_module("make_reductions_golden").load_suite("checkpoint_calls")[1]
M = GEN.api(jc)
CASES = GEN.cases(M)
ARGS = (GEN.X.astype(np.float64), GEN.W.astype(np.float64))


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_jaxpr_and_values_match_jax(name):
    fn, args = CASES[name]
    assert_record_matches(GEN.record(M, fn, args), GOLDEN[name])


@pytest.mark.parametrize("policy", sorted(GEN.policies(M)))
@pytest.mark.parametrize("body", sorted(GEN.functions(M)))
def test_gradients_are_finite_differences(body, policy):
    fun = GEN.functions(M)[body]
    assert_gradients_are_differences(fun, ARGS, M.ck(fun, policy=GEN.policies(M)[policy]))

