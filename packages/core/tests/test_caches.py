"""Bounded caches: least-recently-used eviction, and ``clear_caches`` emptying every jitted function's caches."""

import sys

import numpy as np

import jaxle_core as jc
from jaxle_core import lax
from jaxle_core.caches import DEFAULT_CAPACITY, LruCache


def test_lru_cache_forgets_the_least_recently_used_entry():
    cache = LruCache(capacity=2)
    cache["a"] = 1
    cache["b"] = 2
    assert cache.lookup("a") == 1  # "b" is now the least recently used
    cache["c"] = 3
    assert len(cache) == 2
    assert cache.lookup("b") is None
    assert (cache.lookup("a"), cache.lookup("c")) == (1, 3)


def test_jit_keeps_at_most_capacity_signatures():
    f = jc.jit(lambda x: lax.mul(x, x))
    shared = sys.modules["jaxle_core.jit"]._traces_of(f.fun)  # the traces every jit of the function shares
    assert f._traces.capacity == f._array_calls.capacity == shared.capacity == DEFAULT_CAPACITY
    f._traces.capacity = f._array_calls.capacity = shared.capacity = 3
    for n in range(1, 8):
        np.testing.assert_array_equal(np.asarray(f(np.arange(n, dtype=np.float32))), np.arange(n) ** 2)
    assert len(f._traces) <= 3 and len(f._array_calls) <= 3
    traces = f.trace_count
    f(np.arange(7, dtype=np.float32))  # the most recent signature is still cached
    assert f.trace_count == traces
    f(np.arange(1, dtype=np.float32))  # the oldest was forgotten: traced again
    assert f.trace_count == traces + 1


def test_clear_caches_empties_every_jitted_function():
    f = jc.jit(lambda x: lax.sin(x))
    g = jc.jit(lambda x: lax.cos(x))
    x = np.ones(3, np.float32)
    f(x), g(x)
    f(x), g(x)
    assert (f.trace_count, g.trace_count) == (1, 1)
    jc.clear_caches()
    assert len(f._traces) == len(g._array_calls) == 0
    np.testing.assert_allclose(np.asarray(f(x)), np.sin(x), rtol=1e-6)
    g(x)
    assert (f.trace_count, g.trace_count) == (2, 2)


def test_a_jitted_function_clears_its_own_cache():
    f = jc.jit(lambda x: lax.neg(x))
    g = jc.jit(lambda x: lax.neg(x))
    x = np.ones(2, np.int32)
    f(x), g(x)
    f.clear_cache()
    f(x), g(x)
    assert (f.trace_count, g.trace_count) == (2, 1)
