"""Checkpointed functions containing a ``scan`` or a ``fori_loop``: the jaxprs and values of their derivatives
against JAX 0.10.2 (``make_checkpoint_loops_golden.py``: the loop split with the checkpoint's policy, its known part
a ``closed_call``), and gradients against finite differences."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from jvp_checks import assert_gradients_are_differences, assert_record_matches

import jaxle_core as jc
from jaxle_core.config import enable_x64

GEN = importlib.import_module("make_checkpoint_loops_golden")
CALLS = importlib.import_module("make_checkpoint_calls_golden")
GOLDEN = importlib.import_module("make_reductions_golden").load_suite("checkpoint_loops")[1]
M = CALLS.api(jc)
CASES = GEN.cases(M)
ARGS = (CALLS.X.astype(np.float64), CALLS.W.astype(np.float64))


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_jaxpr_and_values_match_jax(name):
    fn, args = CASES[name]
    assert_record_matches(CALLS.record(M, fn, args), GOLDEN[name])


@pytest.mark.parametrize("policy", sorted(GEN.policies(M)))
@pytest.mark.parametrize("body", sorted(GEN.functions(M)))
def test_gradients_are_finite_differences(body, policy):
    fun = GEN.functions(M)[body]
    assert_gradients_are_differences(fun, ARGS, M.ck(fun, policy=GEN.policies(M)[policy]))


@pytest.mark.parametrize("policy", ["none", "dots", "everything"])
@pytest.mark.parametrize("body", sorted(GEN.functions(M)))
def test_second_reverse_derivatives_are_finite_differences(body, policy):
    """``grad`` of a function of ``grad`` of the checkpointed function (its loop's known part a ``closed_call``,
    differentiated again) against central differences of that function, computed without checkpointing."""
    fun = GEN.functions(M)[body]
    outer = lambda inner: lambda x, w: M.lax.reduce_sum(M.lax.sin(jc.grad(inner)(x, w)), (0, 1))
    assert_gradients_are_differences(outer(fun), ARGS, outer(M.ck(fun, policy=GEN.policies(M)[policy])),
                                     rtol=1e-6, atol=1e-8)


def test_vmap_and_second_derivative_of_the_known_call():
    """The ``closed_call`` holding a loop's known part is batched and differentiated again as any call."""
    fun = M.ck(GEN.functions(M)["scan_xs"], policy=M.cp.dots_saveable)
    x, w = ARGS
    with enable_x64(True):
        per_row = jc.vmap(jc.grad(lambda row, w: fun(row[None], w)), in_axes=(0, None))(x, w)
        for i in range(x.shape[0]):
            np.testing.assert_allclose(np.asarray(per_row[i]), np.asarray(jc.grad(fun)(x[i:i + 1], w))[0], rtol=1e-12)
        direction = np.linspace(-1.0, 1.0, x.size).reshape(x.shape)
        along = lambda v: jc.jvp(lambda x: jc.grad(fun)(x, w), (v,), (direction,))[1]
        step = 1e-5
        expected = (np.asarray(jc.grad(fun)(x + step * direction, w)) -
                    np.asarray(jc.grad(fun)(x - step * direction, w))) / (2 * step)
        np.testing.assert_allclose(np.asarray(along(x)), expected, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("jitted", [False, True])
def test_second_reverse_derivative_through_a_value_offloaded_in_a_loop_is_refused_as_jax(jitted):
    # JAX 0.10.2 refuses it transposing the loop's body, naming one iteration's types (eagerly and under jit); the
    # reference backend, which keeps no array in host memory, computes the stacked residual eagerly untyped by it
    fun = M.ck(GEN.functions(M)["scan_carry"], policy=GEN.policies(M)["offload_a"])
    twice = jc.grad(lambda x, w: M.lax.reduce_sum(M.lax.sin(jc.grad(fun)(x, w)), (0, 1)))
    with pytest.raises(ValueError, match=r"^Expected cotangent type float32\[2,3\] but got float32<host>\[2,3\]$"):
        (jc.jit(twice) if jitted else twice)(CALLS.X, CALLS.W)
