"""``lax.cond`` / ``lax.switch`` under every transformation: jvp, linearize, grad, vjp against finite differences
and the dot-product identity (float64), vmap against per-example loops, and their compositions."""

from __future__ import annotations

import numpy as np
import pytest
from jvp_checks import finite_difference, x64_everywhere  # noqa: F401  (x64_everywhere: an autouse fixture)

import jaxle_core as jc
from jaxle_core import lax
from jaxle_core.batching import vmap

RNG = np.random.default_rng(0)


def piecewise(x, z):
    """A cond whose branches close over ``z`` differently and need different residuals."""
    return lax.cond(lax.reduce_sum(x, (0,)) > 0, lambda y: lax.sin(y) * z, lambda y: y * y + lax.exp(z), x)


def three_way(i, x):
    return lax.switch(i, [lambda y: lax.tanh(y), lambda y: y * 3.0, lambda y: lax.cos(y) * y], x)


POINTS = [np.array([0.3, -0.2, 0.5]), np.array([-0.3, -0.2, 0.1])]  # both sides of the predicate


@pytest.mark.parametrize("x", POINTS)
def test_jvp_matches_finite_differences(x):
    z = 0.7
    t, s = RNG.standard_normal(3), 0.4
    value, tangent = jc.jvp(piecewise, (x, z), (t, s))
    np.testing.assert_allclose(np.asarray(value), np.asarray(piecewise(x, z)), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(tangent), finite_difference(piecewise, (x, z), (t, s)), rtol=1e-6)


@pytest.mark.parametrize("x", POINTS)
def test_vjp_dot_product_identity_and_grad(x):
    z = 0.7
    t, s = RNG.standard_normal(3), 0.4
    out, pullback = jc.vjp(piecewise, x, z)
    ct = RNG.standard_normal(3)
    ct_x, ct_z = pullback(ct)
    _, jt = jc.jvp(piecewise, (x, z), (t, s))
    np.testing.assert_allclose(np.dot(ct, np.asarray(jt)), np.dot(np.asarray(ct_x), t) + float(ct_z) * s,
                               rtol=1e-10)
    g = jc.grad(lambda a, b: lax.reduce_sum(piecewise(a, b), (0,)), argnums=(0, 1))(x, z)
    fd_x = [finite_difference(lambda a: np.sum(np.asarray(piecewise(a, z))), (x,), (e,)) for e in np.eye(3)]
    np.testing.assert_allclose(np.asarray(g[0]), fd_x, rtol=1e-6)
    fd_z = finite_difference(lambda b: np.sum(np.asarray(piecewise(x, b))), (z,), (1.0,))
    np.testing.assert_allclose(float(g[1]), fd_z, rtol=1e-6)


@pytest.mark.parametrize("x", POINTS)
def test_linearize_matches_jvp(x):
    z = 0.7
    t = RNG.standard_normal(3)
    value, lin = jc.linearize(lambda a: piecewise(a, z), x)
    _, want = jc.jvp(lambda a: piecewise(a, z), (x,), (t,))
    np.testing.assert_allclose(np.asarray(value), np.asarray(piecewise(x, z)), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(lin(t)), np.asarray(want), rtol=1e-12)


@pytest.mark.parametrize("i", [-1, 0, 1, 2, 5])
def test_switch_grad_and_jit_of_grad(i):
    x = 0.6
    f = lambda a: three_way(np.int32(i), a)  # noqa: E731
    fd = finite_difference(f, (x,), (1.0,))
    np.testing.assert_allclose(float(jc.grad(f)(x)), fd, rtol=1e-6)
    np.testing.assert_allclose(float(jc.jit(jc.grad(f))(x)), fd, rtol=1e-6)


@pytest.mark.parametrize("x", [0.8, -0.8])
def test_grad_of_grad(x):
    f = lambda a: lax.cond(a > 0, lambda y: lax.sin(y) * y, lambda y: lax.cos(y) * 2.0, a)  # noqa: E731
    want = 2 * np.cos(x) - x * np.sin(x) if x > 0 else -2 * np.cos(x)
    np.testing.assert_allclose(float(jc.grad(jc.grad(f))(x)), want, rtol=1e-10)


def test_branch_with_constant_output_has_zero_tangent_and_gradient():
    f = lambda p, a: lax.cond(p, lambda y: y * 2.0, lambda y: 3.0, a)  # noqa: E731
    assert float(jc.grad(lambda a: f(False, a))(1.5)) == 0.0
    assert float(jc.grad(lambda a: f(True, a))(1.5)) == 2.0
    _, t = jc.jvp(lambda a: f(False, a), (1.5,), (1.0,))
    assert float(t) == 0.0


def test_integer_outputs_pass_through_derivatives():
    def f(a):
        out, count = lax.cond(a > 0, lambda y: (y * y, np.int32(1)), lambda y: (-y, np.int32(2)), a)
        return out * lax.convert_element_type(count, np.float64)

    np.testing.assert_allclose(float(jc.grad(f)(1.5)), 3.0)
    np.testing.assert_allclose(float(jc.grad(f)(-1.5)), -2.0)


def _per_example(f, *args, in_axes):
    size = next(np.shape(a)[ax] for a, ax in zip(args, in_axes) if ax is not None)
    outs = [f(*[a if ax is None else np.take(a, k, axis=ax) for a, ax in zip(args, in_axes)]) for k in range(size)]
    return np.stack([np.asarray(o) for o in outs])


@pytest.mark.parametrize("in_axes", [(0, None), (None, 0), (0, 0), (1, None), (1, 0)])
def test_vmap_batched_operands_and_consts(in_axes):
    x = RNG.standard_normal((3, 3)) if in_axes[0] is not None else RNG.standard_normal(3)
    z = RNG.standard_normal(3) if in_axes[1] is not None else 0.7
    got = vmap(piecewise, in_axes)(x, z)
    np.testing.assert_allclose(np.asarray(got), _per_example(piecewise, x, z, in_axes=in_axes), rtol=1e-12)


def test_vmap_unbatched_predicate_closure_batched():
    x = RNG.standard_normal(4)

    def f(p, a, z):
        return lax.cond(p, lambda y: y * z, lambda y: y + 1.0, a)

    for p in (True, False):
        got = vmap(f, (None, 0, None))(p, x, 2.0)
        np.testing.assert_allclose(np.asarray(got), x * 2.0 if p else x + 1.0)
        z = RNG.standard_normal(4)
        np.testing.assert_allclose(np.asarray(vmap(f, (None, None, 0))(p, 0.5, z)), 0.5 * z if p else np.full(4, 1.5))


def test_vmap_batched_predicate_and_switch_index():
    x = RNG.standard_normal(6)
    idx = np.array([-1, 0, 1, 2, 3, 1], np.int32)
    got = vmap(three_way)(idx, x)
    np.testing.assert_allclose(np.asarray(got), _per_example(three_way, idx, x, in_axes=(0, 0)), rtol=1e-12)
    got = vmap(three_way, (0, None))(idx, 0.25)
    np.testing.assert_allclose(np.asarray(got), [float(three_way(i, 0.25)) for i in idx], rtol=1e-12)
    preds = np.array([True, False, True])
    f = lambda p, a: lax.cond(p, lambda y: (y * 2.0, np.int32(1)), lambda y: (y - 1.0, np.int32(5)), a)  # noqa: E731
    outs = vmap(f, (0, None))(preds, 3.0)
    np.testing.assert_allclose(np.asarray(outs[0]), [6.0, 2.0, 6.0])
    np.testing.assert_array_equal(np.asarray(outs[1]), [1, 5, 1])


def test_grad_of_vmap_and_vmap_of_grad():
    x = np.array([0.5, -0.4, 1.2, -2.0])

    def f(a):
        return lax.cond(a > 0, lambda y: lax.sin(y), lambda y: y * y, a)

    want = np.where(x > 0, np.cos(x), 2 * x)
    np.testing.assert_allclose(np.asarray(vmap(jc.grad(f))(x)), want, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(jc.grad(lambda a: lax.reduce_sum(vmap(f)(a), (0,)))(x)), want, rtol=1e-12)
    g = jc.grad(lambda a: lax.reduce_sum(vmap(lambda y: piecewise(y, 0.7))(a), (0, 1)))(np.stack(POINTS))
    fd = np.array([[finite_difference(lambda b: np.sum(np.asarray(piecewise(b, 0.7))), (p,), (e,)) for e in np.eye(3)]
                   for p in POINTS])
    np.testing.assert_allclose(np.asarray(g), fd, rtol=1e-6)


def test_grad_through_unselected_branch_is_not_nan_under_vmap():
    x = np.array([4.0, -1.0])

    def f(a):
        return lax.cond(a > 0, lambda y: lax.sqrt(y), lambda y: y, a)

    g = jc.grad(lambda a: lax.reduce_sum(vmap(f)(a), (0,)))(x)
    np.testing.assert_allclose(np.asarray(g), [0.25, 1.0])


def test_jit_of_vmap_of_cond():
    x = RNG.standard_normal((5, 3))
    got = jc.jit(vmap(lambda a: piecewise(a, 0.3)))(x)
    np.testing.assert_allclose(np.asarray(got), _per_example(lambda a: piecewise(a, 0.3), x, in_axes=(0,)),
                               rtol=1e-12)
