"""Loops differentiated without checkpointing (``scan`` with several carries and ``xs``, loop-invariant work, a
carry the differentiated arguments never reach, ``fori_loop``, ``while_loop`` with known and unknown carries):
the jaxprs and values of ``linearize``, ``grad``, ``vjp``, ``jit`` and ``grad`` of ``grad`` against JAX 0.10.2
(``make_loop_linearize_golden.py``: which values each loop's known part saves for its linear part, and in which
order), and the derivatives against finite differences."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from jvp_checks import assert_gradients_are_differences, assert_record_matches, finite_difference

import jaxle_core as jc
from jaxle_core.config import enable_x64

GEN = importlib.import_module("make_loop_linearize_golden")
CALLS = importlib.import_module("make_checkpoint_calls_golden")
GOLDEN = importlib.import_module("make_reductions_golden").load_suite("loop_linearize")[1]
M = CALLS.api(jc)
CASES = GEN.cases(M)
ARGS = (CALLS.X.astype(np.float64), CALLS.W.astype(np.float64))


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_jaxpr_and_values_match_jax(name):
    fn, args = CASES[name]  # float32 (second derivatives: more rounding)
    assert_record_matches(CALLS.record(M, fn, args), GOLDEN[name], rtol=1e-4 if name.endswith("grad_grad") else 2e-5,
                          atol=1e-5)


@pytest.mark.parametrize("name", sorted(GEN.functions(M)))
def test_linearized_function_is_the_directional_derivative(name):
    fun = GEN.functions(M)[name]
    direction = [np.linspace(-1.0, 1.0, a.size).reshape(a.shape) for a in ARGS]
    with enable_x64(True):
        _, linear = jc.linearize(fun, *ARGS)
        np.testing.assert_allclose(float(linear(*direction)), finite_difference(fun, list(ARGS), direction),
                                   rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name", sorted(n for n in GEN.functions(M) if not n.startswith("while")))
def test_first_and_second_reverse_derivatives_are_finite_differences(name):
    fun = GEN.functions(M)[name]
    outer = lambda x, w: M.lax.reduce_sum(M.lax.sin(jc.grad(fun)(x, w)), (0, 1))
    for f in (fun, outer):
        assert_gradients_are_differences(f, ARGS, rtol=1e-6, atol=1e-8)
