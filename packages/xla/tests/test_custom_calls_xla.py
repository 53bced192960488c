"""Functions with custom derivatives compiled by XLA: the primal call is lowered inline, the custom rules run
under jit, and forward mode through a ``custom_vjp`` fails to lower with JAX's error."""

import functools

import numpy as np
import pytest
from conftest import run_both

import jaxle_core as jc
import jaxle_xla
from jaxle_core import lax
from jaxle_core.custom_derivatives import custom_jvp, custom_vjp

X = np.linspace(-2.0, 3.0, 7).astype(np.float32)


@custom_jvp
def log1pexp(x):
    return lax.log(1.0 + lax.exp(x))


@log1pexp.defjvp
def _log1pexp_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return log1pexp(x), t * (1.0 - 1.0 / (1.0 + lax.exp(x)))


@functools.partial(custom_vjp, nondiff_argnums=(1,))
def clip_gradient(x, bound):
    return lax.sin(x)


def _clip_fwd(x, bound):
    return clip_gradient(x, bound), lax.cos(x)


def _clip_bwd(bound, cos_x, ct):
    return (lax.max(lax.min(cos_x * ct, bound), -bound),)


clip_gradient.defvjp(_clip_fwd, _clip_bwd)


def _total(fun):
    return lambda x: lax.reduce_sum(fun(x), (0,))


def test_primal_calls_lower_inline_and_agree_with_the_reference():
    for fun in (log1pexp, lambda x: clip_gradient(x, 0.5)):
        reference, compiled, _ = run_both(fun, X)
        np.testing.assert_allclose(compiled[0], reference[0], rtol=2e-6)
    text = jc.jit(log1pexp).trace(X).lower().as_text()
    assert "custom" not in text and "stablehlo.exponential" in text


def test_custom_rules_under_jit_run_on_xla():
    g = jc.jit(jc.grad(_total(log1pexp)))(X)
    assert isinstance(g, jaxle_xla.XlaArray)
    np.testing.assert_allclose(np.asarray(g), 1 / (1 + np.exp(-X)), rtol=2e-6)
    g = jc.jit(jc.grad(_total(lambda x: clip_gradient(x, 0.5) * 3.0)))(X)
    np.testing.assert_allclose(np.asarray(g), np.clip(3 * np.cos(X), -0.5, 0.5), rtol=2e-6)
    g = jc.grad(jc.jit(_total(lambda x: clip_gradient(x, 0.5))))(X)
    np.testing.assert_allclose(np.asarray(g), np.clip(np.cos(X), -0.5, 0.5), rtol=2e-6)
    _, tangent = jc.jit(lambda x: jc.jvp(log1pexp, (x,), (2 * x,)))(X)
    np.testing.assert_allclose(np.asarray(tangent), 2 * X / (1 + np.exp(-X)), rtol=2e-6)


def test_closed_over_arrays_become_operands_of_the_compiled_call():
    w = np.arange(7, dtype=np.float32)

    @custom_jvp
    def scaled(x):
        return lax.sin(x) * w

    scaled.defjvp(lambda p, t: (scaled(p[0]), t[0] * w))
    assert jc.make_jaxpr(scaled)(X).eqns[0].params["num_consts"] == 1
    np.testing.assert_allclose(np.asarray(jc.jit(scaled)(X)), np.sin(X) * w, rtol=2e-6)
    np.testing.assert_allclose(np.asarray(jc.jit(jc.grad(_total(scaled)))(X)), w, rtol=2e-6)


def test_forward_mode_through_custom_vjp_fails_to_compile():
    with pytest.raises(TypeError, match=r"can't apply forward-mode autodiff \(jvp\) to a custom_vjp function\."):
        jc.jit(lambda x: jc.jvp(lambda y: clip_gradient(y, 0.5), (x,), (x,)))(X)


def test_optimize_remat_forward_function_lowers_inline():
    @custom_vjp
    def scaled_sin(x, y):
        return lax.sin(x) * y

    scaled_sin.defvjp(lambda x, y: (scaled_sin(x, y), (lax.cos(x), y)), lambda res, g: (res[0] * g * res[1], None),
                      optimize_remat=True)
    g = jc.jit(jc.grad(_total(lambda x: scaled_sin(x, 2.0))))(X)
    assert isinstance(g, jaxle_xla.XlaArray)
    np.testing.assert_allclose(np.asarray(g), 2 * np.cos(X), rtol=2e-6)
