"""Lowering of ``cond`` (``stablehlo.case``) and ``empty2``: compiled results against core's reference, eagerly
and under jit, for cond, switch and their grad and vmap."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_against_reference

import jaxle_core as jc
import jaxle_xla
from jaxle_core import lax
from jaxle_core.batching import vmap
from jaxle_core.config import enable_x64

f32 = np.float32
RNG = np.random.default_rng(0)


def piecewise(x, z):
    return lax.cond(lax.reduce_sum(x, (0,)) > 0, lambda y: lax.sin(y) * z, lambda y: y * y + lax.exp(z), x)


def three_way(i, x):
    return lax.switch(i, [lambda y: lax.tanh(y), lambda y: y * 3.0, lambda y: lax.cos(y) * y], x)


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_cond(sign):
    check_against_reference(piecewise, (sign * np.abs(RNG.standard_normal(3))).astype(f32), f32(0.7))


@pytest.mark.parametrize("index", [-3, 0, 1, 2, 7])
def test_switch_clamps(index):
    check_against_reference(three_way, np.int32(index), np.linspace(-1, 1, 4, dtype=f32))


def test_pytree_ints_and_no_operand_branches():
    def f(p, x, n):
        a, b = lax.cond(p, lambda y, m: (y * 2.0, m + 1), lambda y, m: (y - 1.0, m * 3), x, n)
        c = lax.cond(p, lambda: np.int8(4), lambda: np.int8(-4))
        return a, b, c

    for p in (np.bool_(True), np.bool_(False)):
        check_against_reference(f, p, np.arange(3, dtype=f32), np.arange(2, dtype=np.int32))


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_grad_uses_residual_slots_and_empty2(sign):
    x = (sign * np.abs(RNG.standard_normal(3))).astype(f32)

    def loss(a, z):
        return jc.grad(lambda b, w: lax.reduce_sum(piecewise(b, w), (0,)), argnums=(0, 1))(a, z)

    closed = jc.make_jaxpr(loss)(x, f32(0.7))
    assert "empty2" in str(closed)
    check_against_reference(loss, x, f32(0.7), rtol=1e-5)


def test_vmap_batched_predicate_and_operand():
    check_against_reference(vmap(three_way), np.array([-1, 0, 1, 2, 3], np.int32), RNG.standard_normal(5).astype(f32))
    check_against_reference(vmap(piecewise, (0, None)), RNG.standard_normal((4, 3)).astype(f32), f32(0.5))


def test_vmap_unbatched_predicate():
    def f(p, x):
        return lax.cond(p, lambda y: y + 1.0, lambda y: y * 2.0, x)

    check_against_reference(vmap(f, (None, 0)), np.bool_(False), RNG.standard_normal((4, 2)).astype(f32))


def test_float64_grad_of_vmap():
    with enable_x64(True):
        x = RNG.standard_normal((3, 3))
        check_against_reference(jc.grad(lambda a: lax.reduce_sum(vmap(lambda y: piecewise(y, 0.7))(a), (0, 1))), x,
                                rtol=1e-12)


def test_case_op_in_lowered_text():
    text = jc.jit(three_way).lower(np.int32(1), f32(2.0)).as_text()
    assert '"stablehlo.case"' in text or "stablehlo.case" in text


def test_eager_cond_runs_on_device():
    out = lax.cond(jaxle_xla.device_put(np.bool_(True)), lambda y: y * 2.0, lambda y: y, jaxle_xla.device_put(f32(3)))
    assert isinstance(out, jaxle_xla.XlaArray) and float(out) == 6.0
