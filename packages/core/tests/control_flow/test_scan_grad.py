"""Reverse-mode AD of ``lax.scan``: grad, vjp, linearize and value_and_grad against finite differences and the
jvp, higher order and compositions with jit and checkpoint, and the printed jaxprs against JAX 0.10.2."""

from __future__ import annotations

import json

import make_scan_grad_golden as cases
import numpy as np
import pytest
from conftest import GOLDEN_DIR
from jvp_checks import x64_everywhere  # noqa: F401  (an autouse fixture)

import jaxle_core as jc
import jaxle_tree as tree
from jaxle_core import lax
from jaxle_core.batching import vmap
from jaxle_core.checkpoint import checkpoint
from jaxle_core.config import enable_x64

rng = np.random.default_rng(0)


def numerical_grad(fun, args, argnum, eps=1e-6):
    """Central differences of the scalar ``fun`` with respect to ``args[argnum]``."""
    x = np.asarray(args[argnum], np.float64)
    out = np.zeros(x.shape)
    for index in np.ndindex(x.shape):
        step = np.zeros(x.shape)
        step[index] = eps
        plus = [*args[:argnum], x + step, *args[argnum + 1:]]
        minus = [*args[:argnum], x - step, *args[argnum + 1:]]
        out[index] = (float(fun(*plus)) - float(fun(*minus))) / (2 * eps)
    return out


def check_grad(fun, args, argnums, rtol=1e-6, atol=1e-8):
    grads = jc.grad(fun, argnums=argnums)(*args)
    for argnum, g in zip(argnums, grads):
        np.testing.assert_allclose(np.asarray(g), numerical_grad(fun, args, argnum), rtol=rtol, atol=atol)
    return grads


def tree_dot(a, b) -> float:
    return sum(float(np.sum(np.asarray(x) * np.asarray(y)))
               for x, y in zip(tree.tree_leaves(a), tree.tree_leaves(b)))


def check_vjp_against_jvp(fun, primals):
    """<ct, J t> == <J^T ct, t> for random t and ct."""
    tangents = tuple(rng.standard_normal(np.shape(p)) for p in primals)
    out, jt = jc.jvp(fun, primals, tangents)
    cts = tree.tree_map(lambda o: rng.standard_normal(np.shape(o)), out)
    out_vjp, pullback = jc.vjp(fun, *primals)
    np.testing.assert_allclose(tree_dot(out, out), tree_dot(out_vjp, out_vjp), rtol=1e-12)
    np.testing.assert_allclose(tree_dot(cts, jt), tree_dot(pullback(cts), tangents), rtol=1e-10)


C, W, XS = 0.7, 0.5, np.linspace(-1.0, 1.5, 5)


def test_grad_of_carry_and_ys():
    check_grad(lambda c, xs: cases.carry_plus_ys(lax, c, xs), (C, XS), (0, 1))


def test_grad_with_loop_invariant_consts():
    check_grad(lambda w, c, xs: cases.with_consts(lax, w, c, xs), (W, C, XS), (0, 1, 2))


def test_grad_of_pytree_carry():
    check_grad(lambda a, b, xs: cases.pytree_carry(lax, a, b, xs), (C, W, XS * 0.3), (0, 1, 2))


@pytest.mark.parametrize("reverse", [False, True])
def test_grad_of_reverse_scan_depends_on_order(reverse):
    def f(c, xs):
        carry, ys = lax.scan(lambda c, x: (lax.sin(c) + x * c, c * x * x), c, xs, reverse=reverse)
        return carry + lax.reduce_sum(ys * XS, (0,))

    check_grad(f, (C, XS), (0, 1))


def test_grad_without_xs():
    check_grad(lambda c: cases.no_xs(lax, c), (C,), (0,))


def test_grad_of_consts_used_only_on_carry():
    def f(w, xs):
        return lax.scan(lambda c, x: (c * w + x, None), 0.0, xs)[0]

    check_grad(f, (W, XS), (0, 1))


def test_grad_of_seed_func11():
    arr, extra = rng.standard_normal(16), 5.0
    (g_arr, g_extra) = check_grad(lambda a, e: cases.seed_func11(lax, a, e), (arr, extra), (0, 1))
    # carry_k = sum_{j<k} arr_j + k * extra; f = carry_16 + sum_k carry_k
    np.testing.assert_allclose(np.asarray(g_arr), 1 + (15 - np.arange(16)), rtol=1e-12)
    np.testing.assert_allclose(float(g_extra), 16 + sum(range(16)), rtol=1e-12)


def test_vjp_of_carry_and_ys_matches_jvp():
    check_vjp_against_jvp(lambda c, xs: cases.sin_scan(lax, c, xs), (C, XS))
    check_vjp_against_jvp(lambda w, c, xs: lax.scan(lambda c, x: (lax.tanh(w * c + x), (c * w, lax.exp(x))),
                                                    c, xs), (W, C, XS))


def test_vjp_with_zero_cotangents():
    _, pullback = jc.vjp(lambda c, xs: cases.sin_scan(lax, c, xs), C, XS)
    ys_sum = lambda c, xs: lax.reduce_sum(cases.sin_scan(lax, c, xs)[1], (0,))
    ct_c, ct_xs = pullback((0.0, np.ones(5)))
    np.testing.assert_allclose(float(ct_c), numerical_grad(ys_sum, (C, XS), 0), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(ct_xs), numerical_grad(ys_sum, (C, XS), 1), rtol=1e-6)


def test_grad_with_integer_carry():
    g_c, g_xs = check_grad(lambda c, xs: cases.counter(lax, c, xs), (C, XS), (0, 1))
    # a_k = a_{k-1} x_k + (k - 1); f = a_n + sum_k a_{k-1}, linear in c with slope sum_k prod_{j<=k} x_j + 1
    np.testing.assert_allclose(float(g_c), 1 + np.sum(np.cumprod(XS)[:-1]) + np.prod(XS), rtol=1e-10)


def test_grad_allow_int_of_integer_initial_carry():
    def f(n, c, xs):
        body = lambda carry, x: ((carry[0] + 1, carry[1] * lax.convert_element_type(carry[0], np.float64) + x), None)
        return lax.scan(body, (n, c), xs)[0][1]

    g_n, g_c, g_xs = jc.grad(f, argnums=(0, 1, 2), allow_int=True)(np.int64(2), C, XS)
    assert np.asarray(g_n).dtype == jc.dtypes.float0
    np.testing.assert_allclose(float(g_c), 2 * 3 * 4 * 5 * 6, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(g_xs), numerical_grad(lambda xs: f(np.int64(2), C, xs), (XS,), 0), rtol=1e-6)


def test_linearize_matches_finite_differences():
    f = lambda c, xs: cases.carry_plus_ys(lax, c, xs)
    t = (0.3, rng.standard_normal(5))
    value, f_jvp = jc.linearize(f, C, XS)
    np.testing.assert_allclose(float(value), float(f(C, XS)), rtol=1e-12)
    eps = 1e-6
    fd = (float(f(C + eps * t[0], XS + eps * t[1])) - float(f(C - eps * t[0], XS - eps * t[1]))) / (2 * eps)
    np.testing.assert_allclose(float(f_jvp(*t)), fd, rtol=1e-6)


def test_value_and_grad():
    f = lambda c, xs: cases.carry_plus_ys(lax, c, xs)
    value, g = jc.value_and_grad(f)(C, XS)
    np.testing.assert_allclose(float(value), float(f(C, XS)), rtol=1e-12)
    np.testing.assert_allclose(float(g), numerical_grad(f, (C, XS), 0), rtol=1e-6)


def test_grad_of_grad():
    f = lambda c, xs: cases.with_consts(lax, W, c, xs)
    second = jc.grad(jc.grad(f))(C, XS)
    np.testing.assert_allclose(float(second), numerical_grad(jc.grad(f), (C, XS), 0), rtol=1e-5)


def test_grad_of_jit_and_jit_of_grad():
    f = lambda w, c, xs: cases.with_consts(lax, w, c, xs)
    expected = jc.grad(f, argnums=(0, 1, 2))(W, C, XS)
    for g in (jc.grad(jc.jit(f), argnums=(0, 1, 2)), jc.jit(jc.grad(f, argnums=(0, 1, 2)))):
        for a, b in zip(g(W, C, XS), expected):
            np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12)


def test_grad_with_jit_inside_the_body():
    def f(w, c, xs):
        step = jc.jit(lambda c, x: (lax.sin(c * w) + x, c * x))
        carry, ys = lax.scan(step, c, xs)
        return carry + lax.reduce_sum(ys, (0,))

    check_grad(f, (W, C, XS), (0, 1, 2))


def test_grad_of_checkpointed_body():
    def f(w, c, xs):
        body = checkpoint(lambda c, x: (lax.sin(lax.sin(c) * w) + x, lax.cos(c)))
        carry, ys = lax.scan(body, c, xs)
        return carry + lax.reduce_sum(ys, (0,))

    check_grad(f, (W, C, XS), (0, 1, 2))


def test_grad_of_matrix_carry():
    a = rng.standard_normal((3, 3)) * 0.5

    def f(a, v, xs):
        return lax.reduce_sum(lax.scan(lambda v, x: (lax.tanh(lax.dot(a, v)) * x, v), v, xs)[0], (0,))

    check_grad(f, (a, np.ones(3), XS), (0, 1, 2))


def test_linear_transpose_of_scan():
    f = lambda xs: lax.scan(lambda c, x: (c * 0.5 + x, 2.0 * c), 0.0, xs)
    ct_ys = rng.standard_normal(5)
    (ct_xs,) = jc.linear_transpose(f, XS)((1.5, ct_ys))
    basis = [f(e) for e in np.eye(5)]
    jacobian = np.stack([np.concatenate([[float(c)], np.asarray(ys)]) for c, ys in basis], 1)
    np.testing.assert_allclose(np.asarray(ct_xs), jacobian.T @ np.concatenate([[1.5], ct_ys]), rtol=1e-12)


def test_vmap_of_grad_and_grad_of_vmap():
    g = lambda c, xs: cases.sin_scan(lax, c, xs)[0]
    cs, xs_batch = np.array([0.3, 0.7, 1.1]), np.stack([XS, XS * 0.5])
    np.testing.assert_allclose(np.asarray(vmap(jc.grad(g), in_axes=(0, None))(cs, XS)),
                               [float(jc.grad(g)(c, XS)) for c in cs], rtol=1e-12)
    g_c, g_xs = jc.grad(lambda c, xs: lax.reduce_sum(vmap(g, in_axes=(None, 0))(c, xs), (0,)),
                        argnums=(0, 1))(C, xs_batch)
    np.testing.assert_allclose(float(g_c), sum(float(jc.grad(g)(C, x)) for x in xs_batch), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(g_xs), np.stack([np.asarray(jc.grad(g, 1)(C, x)) for x in xs_batch]),
                               rtol=1e-12)


def test_hessian_through_scan():
    f = lambda v: lax.reduce_sum(lax.scan(lambda c, x: (lax.tanh(c * x + v), c * c), v, XS)[1], (0, 1))
    v = np.array([0.2, -0.4])
    h = np.asarray(jc.hessian(f)(v))
    expected = np.stack([numerical_grad(lambda u, i=i: jc.grad(f)(u)[i], (v,), 0) for i in range(2)])
    np.testing.assert_allclose(h, expected, rtol=1e-5, atol=1e-8)




def test_jaxprs_match_jax():
    with open(GOLDEN_DIR / "scan_grad_golden.json") as f:
        golden = json.load(f)
    with enable_x64(False):
        table = cases.cases(jc, lax)
        assert {name for name, _, _ in table} == set(golden)
        for name, fn, args in table:
            assert str(jc.make_jaxpr(fn)(*args)) == golden[name], name
