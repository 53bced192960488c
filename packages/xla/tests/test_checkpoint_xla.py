"""``checkpoint`` compiled by XLA: jitted gradients of checkpointed functions equal the reference backend's."""

import numpy as np
import pytest
from conftest import check_against_reference

import jaxle_core as jc
from jaxle_core import lax
from jaxle_core.checkpoint import checkpoint, checkpoint_name, checkpoint_policies

CP = checkpoint_policies


def mlp(w1, w2, x):
    h = checkpoint_name(lax.tanh(lax.dot_general(x, w1, (((1,), (0,)), ((), ())))), "act0")
    h = checkpoint_name(lax.tanh(lax.dot_general(h, w2, (((1,), (0,)), ((), ())))), "act1")
    return lax.reduce_sum(h, (0, 1))


RNG = np.random.default_rng(0)
ARGS = (RNG.standard_normal((3, 4)).astype(np.float32), RNG.standard_normal((4, 2)).astype(np.float32),
        RNG.standard_normal((5, 3)).astype(np.float32))


POLICIES = {"default": None, "dots": CP.dots_saveable, "everything": CP.everything_saveable,
            "only_act0": CP.save_only_these_names("act0")}


@pytest.mark.parametrize("key", sorted(POLICIES))
@pytest.mark.parametrize("prevent_cse", [True, False])
def test_jitted_grad_of_checkpointed_mlp(key, prevent_cse):
    policy = POLICIES[key]
    fun = jc.grad(checkpoint(mlp, policy=policy, prevent_cse=prevent_cse), argnums=(0, 1))
    check_against_reference(fun, *ARGS, rtol=1e-5, atol=1e-6, eager=False)
    expected = jc.jit(jc.grad(mlp, argnums=(0, 1)))(*ARGS)
    for got, want in zip(jc.jit(fun)(*ARGS), expected):
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-5, atol=1e-6)


def test_jitted_second_derivative_and_seed_value():
    g = checkpoint(lambda x: lax.sin(lax.sin(x)))
    np.testing.assert_allclose(np.asarray(jc.jit(jc.grad(g))(np.float32(2.0))), np.float32(-0.25563914), rtol=1e-6)
    x = np.float32(0.9)
    second = -np.sin(np.sin(x)) * np.cos(x) ** 2 - np.cos(np.sin(x)) * np.sin(x)
    np.testing.assert_allclose(np.asarray(jc.jit(jc.grad(jc.grad(g)))(x)), second, rtol=1e-5)


def test_lowered_text_has_barrier_only_when_differentiated():
    g = checkpoint(lambda x: lax.sin(lax.sin(x)))
    assert "optimization_barrier" in jc.jit(jc.grad(g)).trace(np.float32(1.0)).lower().as_text()
    assert "optimization_barrier" not in jc.jit(g).trace(np.float32(1.0)).lower().as_text()
