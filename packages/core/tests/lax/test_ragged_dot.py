"""lax ragged_dot and ragged_dot_general: jaxprs, values, grads, vmap and errors against JAX 0.10.2 goldens, and
the reference against a per-group NumPy loop and finite differences."""

import importlib

import numpy as np
import pytest

import jaxle_core
from jaxle_core import lax

SHARED = importlib.import_module("make_reductions_golden")
GEN, GOLDEN = SHARED.load_suite("ragged_dot")


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    SHARED.assert_matches(SHARED.run_case(jaxle_core, GEN.CASES[name]), GOLDEN[name])


def _groups(group_sizes):
    ends = np.cumsum(group_sizes)
    return zip(ends - group_sizes, ends)


def _ragged_dot_loop(lhs, rhs, group_sizes):
    out = np.zeros((lhs.shape[0], rhs.shape[2]))
    for j, (start, end) in enumerate(_groups(group_sizes)):
        out[start:end] = lhs[start:end] @ rhs[j]
    return out


@pytest.mark.parametrize("group_sizes", [[2, 0, 3], [1, 1, 1], [0, 0, 7], [3, 3, 1]])
def test_ragged_dot_is_a_product_per_group(group_sizes):
    rng = np.random.default_rng(0)
    lhs, rhs = rng.standard_normal((7, 4)), rng.standard_normal((3, 4, 5))
    sizes = np.array(group_sizes, np.int32)
    np.testing.assert_allclose(np.asarray(lax.ragged_dot(lhs, rhs, sizes)), _ragged_dot_loop(lhs, rhs, sizes),
                               rtol=1e-5, atol=1e-5)


def test_contracting_mode_contracts_each_group():
    rng = np.random.default_rng(1)
    lhs, rhs, sizes = rng.standard_normal((3, 6)), rng.standard_normal((6, 2)), np.array([4, 2], np.int32)
    numbers = lax.RaggedDotDimensionNumbers((((1,), (0,)), ((), ())), [1], [])
    out = np.asarray(lax.ragged_dot_general(lhs, rhs, sizes, numbers))
    expected = np.stack([lhs[:, s:e] @ rhs[s:e] for s, e in _groups(sizes)])
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)


def test_grads_match_finite_differences():
    rng = np.random.default_rng(2)
    lhs, rhs, weights = rng.standard_normal((5, 3)), rng.standard_normal((2, 3, 2)), rng.standard_normal((5, 2))
    sizes = np.array([2, 2], np.int32)

    def loss(a, b):
        return lax.reduce_sum(lax.mul(lax.ragged_dot(a, b, sizes), weights.astype(np.float32)), (0, 1))

    grads = jaxle_core.grad(loss, argnums=(0, 1))(lhs.astype(np.float32), rhs.astype(np.float32))

    def numeric(fn, x, eps=1e-6):
        out = np.zeros_like(x)
        for i in np.ndindex(x.shape):
            step = np.zeros_like(x)
            step[i] = eps
            out[i] = (fn(x + step) - fn(x - step)) / (2 * eps)
        return out

    reference = (numeric(lambda a: (_ragged_dot_loop(a, rhs, sizes) * weights).sum(), lhs),
                 numeric(lambda b: (_ragged_dot_loop(lhs, b, sizes) * weights).sum(), rhs))
    for got, want in zip(grads, reference):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("name", ["err-general-contracting-size", "err-general-contracting-range"])
def test_contraction_errors_name_the_users_dimensions(name):
    assert SHARED.run_case(jaxle_core, GEN.CASES[name])["message"] == GOLDEN[name]["message"]
