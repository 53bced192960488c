"""Arrays in a CPU device's host memories live there and say so as JAX 0.10.2's do: shardings of a memory kind,
``device_put`` into and out of host memory, computations on host arrays, ``jit`` out_shardings of a memory kind,
types (``float32<host>[8]``), jaxprs and lowered text (golden/make_memory_kinds_golden.py)."""

import numpy as np
from conftest import golden_cases_test

import jaxle

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_memory_kinds_golden")


def test_host_arrays_compute_as_numpy():
    pinned = GEN._pinned(jaxle)
    step = jaxle.jit(lambda v, w: jaxle.numpy.tanh(v) * w + v.sum())
    out = step(pinned, jaxle.device_put(np.float32(3), GEN._in(jaxle, "pinned_host")))
    np.testing.assert_allclose(np.asarray(out), np.tanh(GEN.X) * 3 + GEN.X.sum(), rtol=1e-6)
    assert out.sharding.memory_kind == "pinned_host"
    back = jaxle.device_put(out, GEN._in(jaxle, "device"))
    np.testing.assert_array_equal(np.asarray(back), np.asarray(out))
    assert back.sharding.memory_kind == "device" and out.sharding.memory_kind == "pinned_host"


def test_host_memory_round_trip_of_a_sharded_array():
    host = jaxle.device_put(GEN.GRID, GEN._named(jaxle, "pinned_host", "x", "y"))
    device = jaxle.device_put(host, GEN._named(jaxle, None, "x", "y"))
    assert {s.data.sharding.memory_kind for s in device.addressable_shards} == {"device"}
    np.testing.assert_array_equal(np.asarray(device), GEN.GRID)
