"""``lax.scan`` under jvp (against central differences in float64), vmap (against a loop over the batch), their
compositions and jit."""

from __future__ import annotations

import numpy as np
import pytest
from jvp_checks import finite_difference, x64_everywhere  # noqa: F401  (x64_everywhere: an autouse fixture)

import jaxle_core as jc
import jaxle_tree as tree
from jaxle_core import lax

RNG = np.random.default_rng(0)


def check_jvp(fun, primals, nonzero=None):
    """``jvp(fun)`` against ``fun`` and the central difference, with random tangents (zero where not ``nonzero``)."""
    nonzero = [True] * len(primals) if nonzero is None else nonzero
    tangents = [RNG.standard_normal(np.shape(p)) if nz else np.zeros(np.shape(p)) for p, nz in zip(primals, nonzero)]
    value, derivative = jc.jvp(fun, tuple(primals), tuple(tangents))
    expected = finite_difference(fun, primals, tangents)
    for a, e in zip(tree.tree_leaves(value), tree.tree_leaves(fun(*primals))):
        np.testing.assert_allclose(np.asarray(a), np.asarray(e), rtol=1e-12)
    for a, e in zip(tree.tree_leaves(derivative), tree.tree_leaves(expected)):
        np.testing.assert_allclose(np.asarray(a), e, rtol=1e-6, atol=1e-8)


def rnn(c0, xs, w):
    """A carry pytree, consts and xs, all differentiable."""
    def step(c, x):
        h, s = c
        h = lax.tanh(h * w + x)
        return (h, s + h * h), (h * x, lax.sin(x))
    return lax.scan(step, c0, xs)


C0 = (np.float64(0.3), np.float64(0.0))
XS = RNG.standard_normal(6)
W = np.float64(0.7)


@pytest.mark.parametrize("reverse", [False, True])
def test_jvp_all_operands(reverse):
    def f(h, s, xs, w):
        (h, s), ys = lax.scan(lambda c, x: ((lax.tanh(c[0] * w + x), c[1] + c[0] * x), c[0] * w), (h, s), xs,
                              reverse=reverse)
        return h, s, ys
    check_jvp(f, [np.float64(0.3), np.float64(0.1), XS, W])


@pytest.mark.parametrize("nonzero", [[True, False, False], [False, True, False], [False, False, True]])
def test_jvp_one_operand_at_a_time(nonzero):
    check_jvp(lambda h, xs, w: rnn((h, np.float64(0)), xs, w), [np.float64(0.3), XS, W], nonzero)


def test_jvp_fixed_point_through_swapped_carries():
    def f(a, xs):
        return lax.scan(lambda c, x: ((c[1] * x, c[0] + x), c[0]), (a, np.float64(1.0)), xs)
    check_jvp(f, [np.float64(0.5), XS], [True, False])


def test_jvp_of_length_zero_and_integer_carry():
    def f(a, xs):
        (c, n), ys = lax.scan(lambda c, x: ((c[0] * x, c[1] + 1), c[0]), (a, 0), xs)
        return c, ys
    check_jvp(f, [np.float64(0.5), XS[:0]])
    check_jvp(f, [np.float64(0.5), XS])


def test_jvp_under_jit_and_second_order():
    f = jc.jit(lambda w: rnn(C0, XS, w)[0][1])
    check_jvp(f, [W])
    first = lambda w: jc.jvp(lambda v: rnn(C0, XS, v)[0][1], (w,), (np.float64(1.0),))[1]  # noqa: E731
    check_jvp(first, [W])


# ---------------------------------------------------------------- vmap


def per_example(fun, args, in_axes):
    size = next(np.shape(a)[ax] for a, ax in zip(args, in_axes) if ax is not None)
    outs = [fun(*[a if ax is None else np.take(a, i, axis=ax) for a, ax in zip(args, in_axes)]) for i in range(size)]
    return tree.tree_map(lambda *xs: np.stack([np.asarray(x) for x in xs]), *outs)


def check_vmap(fun, args, in_axes):
    got = jc.vmap(fun, in_axes=in_axes)(*args)
    expected = per_example(fun, args, in_axes)
    for a, e in zip(tree.tree_leaves(got), tree.tree_leaves(expected)):
        np.testing.assert_allclose(np.asarray(a), e, rtol=1e-12)


def rnn3(h, xs, w):
    return rnn((h, np.float64(0)), xs, w)


@pytest.mark.parametrize("in_axes", [(0, None, None), (None, 0, None), (None, 1, None), (None, None, 0),
                                     (0, 1, 0), (None, 0, 0)])
def test_vmap_matches_a_loop_over_the_batch(in_axes):
    args = [RNG.standard_normal(3) if in_axes[0] is not None else np.float64(0.2),
            RNG.standard_normal({None: (6,), 0: (3, 6), 1: (6, 3)}[in_axes[1]]),
            RNG.standard_normal(3) if in_axes[2] is not None else W]
    check_vmap(rnn3, args, in_axes)


def test_vmap_with_batched_ys_only_and_forwarding():
    f = lambda c, xs: lax.scan(lambda c, x: (c, (x, c * x)), c, xs, reverse=True)  # noqa: E731
    check_vmap(f, [np.float64(2.0), RNG.standard_normal((4, 5))], (None, 0))
    check_vmap(f, [RNG.standard_normal(4), RNG.standard_normal(5)], (0, None))


def test_vmap_fixed_point_through_swapped_carries():
    f = lambda a, xs: lax.scan(lambda c, x: ((c[1] * x, c[0] + x), c[0]), (a, np.float64(1.0)), xs)  # noqa: E731
    check_vmap(f, [RNG.standard_normal(3), XS], (0, None))


def test_vmap_of_map_and_nested_vmap():
    f = lambda xs: lax.map(lambda x: x * x + 1, xs, batch_size=2)  # noqa: E731
    check_vmap(f, [RNG.standard_normal((5, 3))], (1,))
    g = jc.vmap(lambda h, xs: rnn3(h, xs, W), in_axes=(0, None))
    check_vmap(g, [RNG.standard_normal(2), RNG.standard_normal((4, 6))], (None, 0))


def test_vmap_of_jvp_and_jvp_of_vmap():
    def tangent(h, xs, w):
        return jc.jvp(lambda v: rnn3(h, xs, v), (w,), (np.float64(1.0),))[1]
    check_vmap(tangent, [RNG.standard_normal(3), XS, W], (0, None, None))
    batched = jc.vmap(rnn3, in_axes=(0, None, None))
    check_jvp(lambda h, w: batched(h, XS, w), [RNG.standard_normal(3), W])


def test_collectives_over_the_vmapped_axis_inside_the_body():
    xs = RNG.standard_normal((3, 5))
    f = lambda xs: lax.scan(lambda c, x: (c + lax.psum(x, "i"), c * x), 0.0, xs)  # noqa: E731
    carry, ys = jc.vmap(f, axis_name="i")(xs)
    totals = np.concatenate([[0.0], np.cumsum(xs.sum(0))])
    np.testing.assert_allclose(np.asarray(carry), np.full(3, totals[-1]), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(ys), totals[None, :-1] * xs, rtol=1e-12)
    g = lambda a, xs: lax.scan(lambda c, x: (c + lax.psum(a, "i"), c * x), 0.0, xs)[0]  # noqa: E731
    np.testing.assert_allclose(np.asarray(jc.vmap(g, in_axes=(0, None), axis_name="i")(xs[:, 0], xs[0])),
                               np.full(3, 5 * xs[:, 0].sum()), rtol=1e-12)


def test_jit_of_vmap_of_scan():
    args = [RNG.standard_normal(3), XS, W]
    got = jc.jit(jc.vmap(rnn3, in_axes=(0, None, None)))(*args)
    expected = per_example(rnn3, args, (0, None, None))
    for a, e in zip(tree.tree_leaves(got), tree.tree_leaves(expected)):
        np.testing.assert_allclose(np.asarray(a), e, rtol=1e-12)


@pytest.mark.parametrize("batch_size", [None, 2, 3])
def test_map_under_jit_grad_and_vmap(batch_size):
    xs = RNG.standard_normal((5, 3))
    f = lambda v: lax.map(lambda x: lax.sin(x) * x, v, batch_size=batch_size)  # noqa: E731
    np.testing.assert_allclose(np.asarray(jc.jit(f)(xs)), np.sin(xs) * xs, rtol=1e-12)
    grad = jc.grad(lambda v: lax.reduce_sum(f(v), (0, 1)))(xs)
    np.testing.assert_allclose(np.asarray(grad), np.cos(xs) * xs + np.sin(xs), rtol=1e-12)
    batched = jc.vmap(f, in_axes=1, out_axes=1)(xs)
    np.testing.assert_allclose(np.asarray(batched), np.sin(xs) * xs, rtol=1e-12)
