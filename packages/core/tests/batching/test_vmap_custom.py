"""``vmap`` of functions with custom derivatives: the custom rules survive batching in both orders of composition
with differentiation (values against NumPy), and the jaxprs match JAX 0.10.2."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest

import jaxle_core as jc
from jaxle_core import custom_derivatives, lax
from jaxle_core.batching import vmap
from jaxle_core.custom_derivatives import custom_jvp, custom_vjp

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "golden"
sys.path.insert(0, os.fspath(GOLDEN_DIR))
from make_vmap_custom_golden import examples, render  # noqa: E402

f32 = np.float32
X = np.linspace(-1.5, 1.5, 6, dtype=f32)
M = np.linspace(-1, 1, 12, dtype=f32).reshape(3, 4)
F, G = examples(custom_derivatives, lax)  # F' = 2cos; G's x-ct tripled


def total(f):
    return lambda *a: lax.reduce_sum(f(*a), tuple(range(np.ndim(a[0]))))


def test_vmap_of_a_custom_jvp_function_computes_the_function():
    np.testing.assert_allclose(vmap(F)(X), np.sin(X), rtol=1e-6)
    np.testing.assert_allclose(vmap(F, in_axes=1)(M), np.sin(M.T), rtol=1e-6)
    np.testing.assert_allclose(vmap(vmap(F), in_axes=1, out_axes=1)(M), np.sin(M), rtol=1e-6)


@pytest.mark.parametrize("order", ["grad_of_vmap", "vmap_of_grad"])
def test_the_custom_jvp_rule_is_used_in_both_orders(order):
    g = jc.grad(total(vmap(F))) if order == "grad_of_vmap" else vmap(jc.grad(F))
    np.testing.assert_allclose(g(X), 2 * np.cos(X), rtol=1e-6)


def test_jvp_of_vmap_with_the_batch_on_axis_one():
    out, tangent = jc.jvp(vmap(F, in_axes=1), (M,), (np.ones_like(M),))
    np.testing.assert_allclose(out, np.sin(M.T), rtol=1e-6)
    np.testing.assert_allclose(tangent, 2 * np.cos(M.T), rtol=1e-6)


def test_vmap_over_tangents_only():
    tangents = np.stack([np.full(6, k, f32) for k in range(3)])
    out = vmap(lambda t: jc.jvp(F, (X,), (t,))[1])(tangents)
    np.testing.assert_allclose(out, 2 * np.cos(X)[None] * np.arange(3)[:, None], rtol=1e-6)


def test_nested_vmap_and_second_derivative_use_the_rule():
    g = jc.grad(total(vmap(vmap(F))))
    np.testing.assert_allclose(g(M), 2 * np.cos(M), rtol=1e-6)
    second = vmap(jc.grad(jc.grad(F)))(X)  # the rule's derivative: d/dx 2cos(x) = -2 sin(x)
    np.testing.assert_allclose(second, -2 * np.sin(X), rtol=1e-5, atol=1e-6)


def test_a_clipped_gradient_under_vmap():
    @custom_jvp
    def clip_grad(x):
        return x * x

    @clip_grad.defjvp
    def clip_grad_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return clip_grad(x), lax.clamp(f32(-1), 2 * x, f32(1)) * t

    expected = np.clip(2 * X, -1, 1)
    np.testing.assert_allclose(jc.grad(total(vmap(clip_grad)))(X), expected, rtol=1e-6)
    np.testing.assert_allclose(vmap(jc.grad(clip_grad))(X), expected, rtol=1e-6)
    np.testing.assert_allclose(vmap(clip_grad)(X), X * X, rtol=1e-6)


def test_an_output_that_does_not_vary_along_the_batch():
    @custom_jvp
    def pair(x, y):
        return lax.sin(x) * y, y * 2.0

    @pair.defjvp
    def pair_jvp(primals, tangents):
        (x, y), (tx, ty) = primals, tangents
        return pair(x, y), (lax.cos(x) * y * tx * 3.0 + lax.sin(x) * ty, ty * 5.0)

    a, b = vmap(pair, in_axes=(0, None))(X, f32(2))
    np.testing.assert_allclose(a, np.sin(X) * 2, rtol=1e-6)
    np.testing.assert_allclose(b, np.full(6, 4.0), rtol=1e-6)

    def loss(x, y):
        u, v = vmap(pair, in_axes=(0, None))(x, y)
        return lax.reduce_sum(u, (0,)) + lax.reduce_sum(v, (0,))

    gx, gy = jc.grad(loss, argnums=(0, 1))(X, f32(2))
    np.testing.assert_allclose(gx, 3 * np.cos(X) * 2, rtol=1e-6)
    np.testing.assert_allclose(gy, np.sum(np.sin(X)) + 5 * 6, rtol=1e-5)


@pytest.mark.parametrize("order", ["grad_of_vmap", "vmap_of_grad"])
def test_the_custom_vjp_rule_is_used_in_both_orders(order):
    y = f32(2)
    if order == "grad_of_vmap":
        gx, gy = jc.grad(lambda a, b: total(vmap(G, in_axes=(0, None)))(a, b), argnums=(0, 1))(X, y)
        np.testing.assert_allclose(gy, np.sum(np.ones(6)), rtol=1e-6)  # bwd's y-cotangent summed over the batch
    else:
        gx = vmap(jc.grad(G), in_axes=(0, None))(X, y)
    np.testing.assert_allclose(gx, 3 * np.cos(X), rtol=1e-6)


def test_custom_vjp_with_both_arguments_batched_on_different_axes():
    ys = np.linspace(1, 2, 12, dtype=f32).reshape(4, 3)
    np.testing.assert_allclose(vmap(G, in_axes=(1, 0))(M, ys), np.sin(M.T) * ys, rtol=1e-6)
    cts = np.linspace(0.5, 1.5, 12, dtype=f32).reshape(4, 3)
    out, pullback = jc.vjp(vmap(G, in_axes=(1, 0)), M, ys)
    gx, gy = pullback(cts)
    np.testing.assert_allclose(gx, (3 * np.cos(M.T) * cts).T, rtol=1e-6)
    np.testing.assert_allclose(gy, cts, rtol=1e-6)


def test_custom_vjp_residuals_that_do_not_vary_along_the_batch():
    @custom_vjp
    def scale(x, w):
        return x * w

    def scale_fwd(x, w):
        return scale(x, w), (w, np.float32(7))

    def scale_bwd(res, ct):
        w, seven = res
        return ct * w * seven, None

    scale.defvjp(scale_fwd, scale_bwd)
    g = jc.grad(total(vmap(scale, in_axes=(0, None))))(X, f32(3))
    np.testing.assert_allclose(g, np.full(6, 21.0), rtol=1e-6)
    np.testing.assert_allclose(vmap(jc.grad(scale), in_axes=(0, None))(X, f32(3)), np.full(6, 21.0), rtol=1e-6)


def test_forward_mode_through_a_batched_custom_vjp_function_is_an_error():
    with pytest.raises(TypeError, match="can't apply forward-mode autodiff"):
        jc.jvp(vmap(G, in_axes=(0, None)), (X, f32(2)), (X, f32(0)))


def test_jaxprs_match_jax():
    with open(GOLDEN_DIR / "vmap_custom_golden.json") as f:
        golden = json.load(f)
    ours = render("jaxle_core")
    assert set(ours) == set(golden)
    for name, text in golden.items():
        assert ours[name] == text, name


def scaled_by(y):
    """A custom_jvp function closing over ``y``, whose rule triples the true derivative ``y``."""

    @custom_jvp
    def scale(x):
        return x * y

    scale.defjvp(lambda primals, tangents: (scale(primals[0]), tangents[0] * y * 3))
    return scale


def test_a_custom_jvp_rule_closing_over_a_batched_value():
    ys = np.arange(3, dtype=f32)
    outer = vmap(lambda x, y: scaled_by(y)(x), in_axes=(None, 0))
    np.testing.assert_allclose(outer(f32(2), ys), 2 * ys)
    np.testing.assert_allclose(jc.grad(lambda x: lax.reduce_sum(outer(x, ys), (0,)))(f32(2)), 3 * ys.sum())
    np.testing.assert_allclose(vmap(jc.grad(lambda x, y: scaled_by(y)(x)), in_axes=(None, 0))(f32(2), ys), 3 * ys)


def test_a_custom_vjp_backward_rule_closing_over_a_batched_value_is_an_escaped_tracer_as_in_jax():
    def outer(x, y):
        @custom_vjp
        def scale(x):
            return x * y

        scale.defvjp(lambda x: (scale(x), None), lambda res, ct: (ct * y * 3,))
        return scale(x)

    ys = np.arange(3, dtype=f32)
    with pytest.raises(jc.errors.UnexpectedTracerError):
        jc.grad(lambda x: lax.reduce_sum(vmap(outer, in_axes=(None, 0))(x, ys), (0,)))(f32(2))
    np.testing.assert_allclose(vmap(jc.grad(outer), in_axes=(None, 0))(f32(2), ys), 3 * ys)
