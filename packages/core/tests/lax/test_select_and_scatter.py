"""JAX's general select_and_scatter primitive: jaxprs, values and errors against JAX 0.10.2 goldens, and the
reference against a loop over windows."""

import importlib

import numpy as np
import pytest

import jaxle_core

SHARED = importlib.import_module("make_reductions_golden")
GEN, GOLDEN = SHARED.load_suite("select_and_scatter")


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    SHARED.assert_text_matches(SHARED.run_text_case(jaxle_core, GEN.CASES[name]), GOLDEN[name])


def test_overlapping_windows_match_a_loop():
    x = SHARED.rand((5, 6), "float32", 3)
    source = SHARED.rand((4, 4), "float32", 4)
    expected = np.full(x.shape, 0.25, np.float32)
    for i in range(4):
        for j in range(0, 4):
            window = x[i:i + 2, j:j + 3]
            r, c = np.unravel_index(np.argmax(window), window.shape)  # the first maximum, as ``ge`` selects
            expected[i + r, j + c] += source[i, j]
    got = GEN._bind(jaxle_core, x, source, np.float32(0.25), window_dimensions=(2, 3), window_strides=(1, 1))
    np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-6)
