"""``jax.experimental.compute_on`` as JAX 0.10.2's: the block's operations marked in the lowered program for the
compute type asked for, through nested ``jit``, control flow, ``grad`` and ``vmap``; its values and errors
(golden/make_compute_on_golden.py)."""

import numpy as np
from conftest import golden_cases_test

import jaxle

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_compute_on_golden")


def test_block_computes_as_numpy_and_a_function_traced_outside_is_traced_again_inside():
    from jaxle.experimental.compute_on import compute_on

    doubled = jaxle.jit(lambda v: v * 2)
    outside = doubled.lower(GEN.X).as_text()
    with compute_on("device_host"):
        inside = doubled.lower(GEN.X).as_text()
        np.testing.assert_array_equal(np.asarray(doubled(GEN.X)), 2 * GEN.X)
    assert "_xla_compute_type" not in outside and '_xla_compute_type = "host"' in inside
    assert doubled.lower(GEN.X).as_text() == outside
