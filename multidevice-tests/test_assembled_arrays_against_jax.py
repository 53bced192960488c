"""Arrays assembled from parts and multihost_utils' conversions in one process, as JAX 0.10.2's
(golden/make_assembled_arrays_golden.py): types, shardings and values, and JAX's errors for parts of another dtype,
a missing part, host values given as parts, and pspecs that are not a tuple prefix of the inputs or hold None."""

import numpy as np
from conftest import golden_cases_test

import jaxle

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_assembled_arrays_golden")


def test_golden_covers_every_case():
    assert sorted(GOLDEN) == sorted(GEN.CASES)


def test_single_device_arrays_are_placed_as_numpy_blocks():
    # each device's block holds its position in the mesh: the whole is those positions tiled as the mesh is
    sharding = GEN._sharding(jaxle, "Explicit", "x", "y")
    whole = jaxle.make_array_from_single_device_arrays((8, 4), sharding, GEN._parts(jaxle, sharding))
    expected = np.kron(np.arange(8, dtype=np.float32).reshape(2, 4), np.ones((4, 1), np.float32))
    np.testing.assert_array_equal(np.asarray(whole), expected)
