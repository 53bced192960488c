"""Ordered ``io_callback``s in ``shard_map`` and ``pmap`` bodies of programs partitioned over eight CPU devices, as
JAX 0.10.2's (golden/make_partitioned_ordered_effects_golden.py): the token of the body's ordered calls threaded
through the manual computation in the lowered text, the results, and the blocks each device's calls received."""

import numpy as np
from conftest import golden_cases_test

import jaxle

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_partitioned_ordered_effects_golden")


def test_golden_covers_every_case():
    assert sorted(GOLDEN) == sorted(GEN.CASES)


def test_each_device_calls_in_program_order():
    # a scan of two steps in the body: each device's second call receives its first result (its block plus its sum)
    body, seen = GEN._recording(jaxle)
    result = jaxle.jit(GEN._scan_in_the_body(jaxle, body))(GEN.VALUES)
    jaxle.effects_barrier()
    blocks = GEN.VALUES.reshape(8, 2)
    once = blocks + blocks.sum(1, keepdims=True)
    np.testing.assert_allclose(np.asarray(result), (once + once.sum(1, keepdims=True)).reshape(-1))
    for first in blocks.tolist():
        second = (np.array(first) + sum(first)).tolist()
        assert seen.index(first) < seen.index(second)
