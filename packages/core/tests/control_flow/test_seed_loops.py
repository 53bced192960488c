"""The loop examples of seed 001's JAX tutorial: sums by fori_loop and while_loop, a fori_loop accumulating
matrix products, and the Markov chain sampled by scan (with a deterministic stand-in for the random draws
until the PRNG exists: each step draws a uniform number from a fixed sequence and picks the next state by
inverting the CDF of the current state's row of the transition matrix)."""

from __future__ import annotations

import numpy as np
import pytest

import jaxle_core as jax
from jaxle_core import lax

f32 = np.float32


def sum_exact(n):
    return n * (n + 1) // 2


@pytest.mark.parametrize("n", [0, 1, 10, 1000])
def test_sum_by_fori_loop(n):
    assert int(lax.fori_loop(1, n + 1, lambda i, partial_sum: i + partial_sum, 0)) == sum_exact(n)


def test_sum_by_fori_loop_with_traced_bounds():
    sum_fast = jax.jit(lambda n: lax.fori_loop(1, n + 1, lambda i, partial_sum: i + partial_sum, 0))
    assert [int(sum_fast(n)) for n in (0, 10, 100)] == [sum_exact(n) for n in (0, 10, 100)]


def test_fori_loop_accumulating_matrix_products():
    x = np.random.default_rng(0).normal(size=(10, 10)).astype(f32)
    s = lax.fori_loop(1, 11, lambda i, s: s + x @ x, np.zeros_like(x))
    np.testing.assert_allclose(np.asarray(s), 10 * (x @ x), rtol=1e-4, atol=1e-4)


def sum_fast_while(n):
    def cond_fun(val):
        s, i = val
        return i <= n

    def body_fun(val):
        s, i = val
        return s + i, i + 1

    return lax.while_loop(cond_fun, body_fun, (0, 0))[0]


@pytest.mark.parametrize("n", [0, 10, 1000])
def test_sum_by_while_loop(n):
    assert int(sum_fast_while(n)) == sum_exact(n)
    assert int(jax.jit(sum_fast_while)(n)) == sum_exact(n)


INIT_DIST = np.array([0.8, 0.2], f32)
TRANS_MAT = np.array([[0.9, 0.1], [0.5, 0.5]], f32)


def inverse_cdf_draw(probabilities, u):
    """The index i with cdf[i-1] <= u < cdf[i] (a categorical draw from a uniform ``u``)."""
    cdf = lax.cumsum(probabilities, axis=0)
    return lax.reduce_sum(lax.convert_element_type(cdf <= u, np.int32), (0,))


def markov_chain(initial_state, uniforms):
    def draw_state(prev_state, u):
        state = inverse_cdf_draw(lax.dynamic_index_in_dim(TRANS_MAT, prev_state, 0, keepdims=False), u)
        return state, state

    return lax.scan(draw_state, initial_state, uniforms)


def python_markov_chain(initial_state, uniforms):
    state, states = initial_state, []
    for u in uniforms:
        state = int(np.sum(np.cumsum(TRANS_MAT[state]) <= u))
        states.append(state)
    return state, np.array(states)


def test_markov_chain_by_scan_matches_a_python_loop():
    uniforms = np.random.default_rng(0).uniform(size=14).astype(f32)
    initial = int(inverse_cdf_draw(INIT_DIST, f32(0.3)))
    assert initial == 0
    final_state, states = markov_chain(np.int32(initial), uniforms)
    expected_final, expected_states = python_markov_chain(initial, uniforms)
    assert states.shape == (14,) and states.dtype == np.int32
    np.testing.assert_array_equal(np.asarray(states), expected_states)
    assert int(final_state) == expected_final
    jitted_final, jitted_states = jax.jit(markov_chain)(np.int32(initial), uniforms)
    np.testing.assert_array_equal(np.asarray(jitted_states), expected_states)
