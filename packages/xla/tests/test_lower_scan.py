"""Lowering of ``scan`` (and so ``map``) to ``stablehlo.while``: compiled and eager results against core's
reference, forward and reverse, with consts, pytrees, several dtypes, length 0, and under jvp and vmap."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_against_reference, random_values

import jaxle_core as jc
import jaxle_tree as tree
from jaxle_core import lax
from jaxle_core.config import enable_x64

RNG = np.random.default_rng(0)
f32 = np.float32


def flat(fun):
    """``fun`` returning the leaves of its output pytree (what check_against_reference compares)."""
    return lambda *args: tree.tree_leaves(fun(*args))


def rnn(h, xs, w):
    def step(c, x):
        h, s = c
        h = lax.tanh(h * w + x)
        return (h, s + h * h), (h * x, lax.sin(x), x)
    return lax.scan(step, (h, lax.convert_element_type(0.0, h.dtype)), xs)


@pytest.mark.parametrize("reverse", [False, True])
def test_carry_pytree_consts_and_ys(reverse):
    def f(h, x0, x1, w):
        (h, s), ys = lax.scan(lambda c, x: ((lax.tanh(c[0] * w + x[0]), c[1] + c[0] * lax.reduce_sum(x[1], (0,))),
                                                           (c[0] * w, x[1] * 2)),
                              (h, h), (x0, x1), reverse=reverse)
        return h, s, *ys
    check_against_reference(f, RNG.standard_normal(3).astype(f32),
                            RNG.standard_normal((5, 3)).astype(f32), RNG.standard_normal((5, 2, 3)).astype(f32),
                            f32(0.5), rtol=1e-5)


@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.bool_, np.float16, np.float64, np.complex64])
def test_dtypes(dtype):
    def f(c, xs):
        if np.dtype(dtype) == np.bool_:
            return lax.scan(lambda c, x: (lax.bitwise_xor(c, x), lax.bitwise_and(c, x)), c, xs)
        return lax.scan(lambda c, x: (c + x, c * x), c, xs, reverse=True)
    with enable_x64(True):
        xs = random_values(RNG, (6, 2), dtype)
        check_against_reference(f, xs[0], xs)


def test_length_zero_and_no_xs():
    check_against_reference(flat(lambda c, xs: lax.scan(lambda c, x: (c + x, (c * x, x)), c, xs)),
                            np.full(3, 2, f32), np.zeros((0, 3), f32))
    check_against_reference(flat(lambda c: lax.scan(lambda c, _: (c * 2, c), c, length=5)), np.int32(1))


def test_map_with_batches():
    xs = RNG.standard_normal((10, 3)).astype(f32)
    check_against_reference(lambda xs: lax.map(lambda x: lax.reduce_sum(x * x, (x.ndim - 1,)), xs, batch_size=4),
                            xs, rtol=1e-5)


def test_jvp_and_vmap_of_scan():
    h, xs, w = f32(0.3), RNG.standard_normal(6).astype(f32), f32(0.7)
    check_against_reference(flat(lambda h, xs, w: jc.jvp(lambda v: rnn(h, xs, v), (w,), (f32(1.0),))), h, xs, w,
                            rtol=1e-5)
    check_against_reference(flat(jc.vmap(rnn, in_axes=(0, 1, None))), RNG.standard_normal(4).astype(f32),
                            RNG.standard_normal((6, 4)).astype(f32), w, rtol=1e-5)


def test_vmapped_markov_chain_with_a_batched_gather_in_the_body():
    cdf = np.cumsum(np.array([[0.9, 0.1, 0.0], [0.2, 0.5, 0.3], [0.1, 0.1, 0.8]], f32), axis=1)

    def chain(state, draws):
        def step(s, u):
            row = lax.dynamic_index_in_dim(cdf, s, 0, keepdims=False)
            nxt = lax.reduce_sum(lax.convert_element_type(lax.lt(row, u), np.int32), (0,))
            return nxt, nxt
        return lax.scan(step, state, draws)

    check_against_reference(flat(jc.vmap(chain)), np.array([0, 1, 2, 1], np.int32),
                            RNG.uniform(size=(4, 20)).astype(f32))


def test_lowered_text_is_a_while_loop():
    text = jc.jit(lambda xs: lax.scan(lambda c, x: (c + x, c), f32(0), xs, reverse=True)).lower(
        np.arange(4, dtype=f32)).as_text()
    assert "stablehlo.while" in text
    assert "stablehlo.dynamic_slice" in text and "stablehlo.dynamic_update_slice" in text


@pytest.fixture
def traced(monkeypatch):
    """The operand types of every scan helper traced while the test runs (the helper cache starts empty)."""
    from jaxle_xla.lowering import context

    avals_traced = []
    trace = context._trace_helper
    monkeypatch.setattr(context, "_trace_helper", lambda fun, avals, mesh: avals_traced.append(avals) or trace(
        fun, avals, mesh))
    monkeypatch.setattr(context, "_helper_jaxprs", context.LruCache())
    return avals_traced


def test_helpers_are_traced_once_per_operand_types(traced):
    def lowered(xs):
        return jc.jit(lambda xs: lax.scan(lambda c, x: (c + x, c * x), xs[0] * 0, xs)).lower(xs).as_text()

    first = lowered(np.ones((4, 3), f32))
    assert len(traced) == 2  # the read of a slice of xs, the write of a slice of ys
    assert lowered(np.ones((4, 3), f32)) == first and len(traced) == 2
    with enable_x64(True):  # other flags, other operand types: traced again, typed as they are
        text = lowered(np.ones((4, 3), np.float64))
    assert len(traced) == 4 and "tensor<4x3xf64>" in text
    assert "tensor<4x3xf32>" in lowered(np.ones((4, 3), f32)) and len(traced) == 4


@pytest.mark.parametrize("reverse", [False, True])
def test_unrolled_scan_helpers_are_traced_once(traced, reverse):
    def scan(xs):
        return lax.scan(lambda c, x: (c + x, c * x), xs[0] * 0, xs, unroll=2, reverse=reverse)

    xs = np.arange(15, dtype=f32).reshape(5, 3)
    text = jc.jit(scan).lower(xs).as_text()
    first = len(traced)  # the block's slices and stacking, the split of xs into blocks and a tail, ...
    assert first > 2
    assert jc.jit(scan).lower(xs).as_text() == text and len(traced) == first  # the next lowering traces none
    carry, ys = jc.jit(scan)(xs)
    steps = range(4, -1, -1) if reverse else range(5)
    c, expected = np.zeros(3, f32), np.zeros((5, 3), f32)
    for i in steps:
        c, expected[i] = c + xs[i], c * xs[i]
    np.testing.assert_allclose(np.asarray(carry), c)
    np.testing.assert_allclose(np.asarray(ys), expected)


def test_reused_helpers_keep_the_located_text(monkeypatch):
    from jaxle_xla.lowering import context

    def f(c, xs):
        return lax.scan(lambda c, x: (c + x, c * x), c, xs)

    def located():
        return jc.jit(f).lower(f32(0), np.ones(5, f32)).as_text(debug_info=True)

    def located_elsewhere():
        return jc.jit(f).lower(f32(0), np.ones(5, f32)).as_text(debug_info=True)

    monkeypatch.setattr(context, "_helper_jaxprs", context.LruCache())
    texts = []
    for reused in (False, True):
        context._helper_jaxprs.clear()
        if reused:
            located_elsewhere()  # the helpers traced from another line
        texts.append(located())  # one line: the same user frames
    assert texts[0] == texts[1] and 'loc("' in texts[0]
