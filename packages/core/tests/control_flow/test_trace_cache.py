"""Control-flow functions are traced once per function, types and trace context, as in JAX: a second loop or
cond over the same function reuses the traced jaxpr (Python side effects of the body happen once), a changed
type or flag traces again, and the cache does not keep a function alive."""

from __future__ import annotations

import gc
import weakref

import numpy as np

import jaxle_core as jc
from jaxle_core import lax
from jaxle_core.config import enable_x64

f32 = np.float32


def test_scan_body_traced_once_for_the_same_types():
    traced = []

    def body(c, x):
        traced.append(x)
        return c + x, c

    xs = np.arange(4, dtype=f32)
    first = jc.jit(lambda xs: lax.scan(body, f32(0), xs))(xs)
    second = jc.jit(lambda xs: lax.scan(body, f32(0), xs)[0] * 2)(xs)
    assert len(traced) == 1
    np.testing.assert_allclose(np.asarray(first[0]), xs.sum())
    np.testing.assert_allclose(np.asarray(second), 2 * xs.sum())
    lax.scan(body, f32(0), np.arange(5, dtype=f32))  # the same per-step types: still one trace
    lax.scan(body, np.zeros(2, f32), np.ones((3, 2), f32))  # other types: traced again
    assert len(traced) == 2


def test_flags_in_the_trace_context_trace_again():
    traced = []

    def branch(x):
        traced.append(x)
        return x * 2

    lax.cond(True, branch, branch, 1.0)
    with enable_x64(True):
        out = lax.cond(True, branch, branch, 1.0)
    assert len(traced) == 2
    assert np.asarray(out).dtype == np.float64


def test_fori_and_while_bodies_traced_once():
    traced = []

    def body(i, c):
        traced.append(i)
        return c + i

    assert int(lax.fori_loop(0, 4, body, 0)) == 6
    assert int(lax.fori_loop(0, 4, body, 0)) == 6
    n = 4
    assert int(jc.jit(lambda n: lax.fori_loop(0, n, body, 0))(n)) == 6
    assert int(jc.jit(lambda n: lax.fori_loop(0, n, body, 0) + 1)(n)) == 7
    assert len(traced) == 2  # once as a scan body (static bounds), once as a while body


def test_the_cache_does_not_keep_functions_alive():
    def body(c, x):
        return c + x, c

    def fori_body(i, c):
        return c + 1

    lax.scan(body, f32(0), np.arange(3, dtype=f32))
    lax.fori_loop(0, 3, fori_body, f32(1))
    alive = [weakref.ref(body), weakref.ref(fori_body)]
    del body, fori_body
    gc.collect()
    assert [ref() for ref in alive] == [None, None]
