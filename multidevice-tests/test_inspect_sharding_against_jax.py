"""``jax.debug.inspect_array_sharding`` reports, once per compilation, the layouts XLA's partitioner chose for
values anywhere in a program (control flow, nested functions, transformed code, ``shard_map`` bodies), as JAX
0.10.2 does (golden/make_inspect_sharding_golden.py)."""

import numpy as np
from conftest import golden_cases_test

import jaxle

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_inspect_sharding_golden")


def test_inspecting_inside_a_loop_changes_no_value():
    x = GEN._put(jaxle, "Auto", "x", "y")
    seen = []

    def step(i, v):
        jaxle.debug.inspect_array_sharding(v, callback=seen.append)
        return v * 2 + i

    looped = jaxle.jit(lambda a: jaxle.lax.fori_loop(0, 3, step, a))
    expected = ((GEN.X * 2) * 2 + 1) * 2 + 2
    np.testing.assert_array_equal(np.asarray(looped(x)), expected)
    np.testing.assert_array_equal(np.asarray(looped(x)), expected)
    assert len(seen) == 1  # called when compiled, not per iteration or per call
