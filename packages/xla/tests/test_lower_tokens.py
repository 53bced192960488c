"""Tokens inside compiled functions: StableHLO's token type and ops, as JAX 0.10.2 writes them."""

import numpy as np

import jaxle_core as jc
from jaxle_core import lax

X = np.array([0.5, -1.0, 2.0], np.float32)


def test_tokens_inside_jit():
    fun = jc.jit(lambda x: [lax.after_all(lax.create_token(), lax.create_token(x)), x * 2])
    text = fun.lower(X).as_text()
    assert "%0 = stablehlo.create_token : !stablehlo.token" in text
    assert "%2 = stablehlo.after_all %0, %1 : !stablehlo.token" in text
    token, doubled = fun(X)
    assert isinstance(token, lax.tokens.Token)
    np.testing.assert_array_equal(np.asarray(doubled), X * 2)


def test_tokens_no_output_needs_are_not_lowered():
    fun = jc.jit(lambda x: [lax.after_all(lax.create_token(), lax.create_token(x)), x * 2][1])
    assert "token" not in fun.lower(X).as_text()  # as JAX's: dead code is dropped while lowering
    np.testing.assert_array_equal(np.asarray(fun(X)), X * 2)


def test_tokens_in_and_out_of_jit():
    token = lax.create_token()
    text = jc.jit(lambda t: lax.after_all(t)).lower(token).as_text()
    assert 'func.func public @main(%arg0: !stablehlo.token) -> (!stablehlo.token {jax.result_info = "result"})' in text
    assert isinstance(jc.jit(lambda t: lax.after_all(t))(token), lax.tokens.Token)
    new_token, doubled, same = jc.jit(lambda t, x: (lax.after_all(t, lax.create_token()), x * 2, t))(token, X)
    assert isinstance(new_token, lax.tokens.Token) and isinstance(same, lax.tokens.Token)
    np.testing.assert_array_equal(np.asarray(doubled), X * 2)
