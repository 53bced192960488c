"""lax.stack, lax.unstack and lax.tile: jaxpr text, values and errors against JAX 0.10.2 goldens (alone and under
jit/jvp/grad/linear_transpose/vmap), values against NumPy, derivatives against finite differences."""

import importlib

import numpy as np
import pytest

import jaxle_core
from jaxle_core import lax
from jaxle_core.test_util import check_grads

SHARED = importlib.import_module("make_reductions_golden")
GEN, GOLDEN = SHARED.load_suite("stacking")


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    SHARED.assert_text_matches(SHARED.run_text_case(jaxle_core, GEN.CASES[name]), GOLDEN[name])


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_stack_and_unstack_match_numpy(axis):
    xs = [SHARED.rand((3, 4), "int16", seed) for seed in range(3)]
    np.testing.assert_array_equal(np.asarray(lax.stack(xs, axis)), np.stack(xs, axis))
    pieces = lax.unstack(np.stack(xs, axis), axis)
    assert isinstance(pieces, tuple) and len(pieces) == 3
    for piece, x in zip(pieces, xs):
        np.testing.assert_array_equal(np.asarray(piece), x)


@pytest.mark.parametrize("reps", [(1, 1), (3, 1), (2, 4), (0, 2)])
def test_tile_matches_numpy(reps):
    x = SHARED.rand((2, 3), "float32")
    np.testing.assert_array_equal(np.asarray(lax.tile(x, reps)), np.tile(x, reps))


def test_derivatives_match_finite_differences():
    x = SHARED.rand((2, 3), "float64")
    with jaxle_core.config.enable_x64(True):
        check_grads(lambda x: lax.stack([x, lax.sin(x)], 1), (x,), order=2)
        check_grads(lambda x: lax.unstack(x * x, 1), (x,), order=2)
        check_grads(lambda x: lax.tile(lax.sin(x), (2, 3)), (x,), order=2)
