"""jnp's matrices and triangle/diagonal index arrays against JAX 0.10.2's records and NumPy."""

import jnp_golden
import make_matrices_golden
import numpy as np
import pytest

import jaxle_core
import jaxle_numpy as jnp
from jaxle_core import config
from jaxle_core.test_util import check_grads

GOLDEN = jnp_golden.load("matrices_golden.json")

@pytest.mark.parametrize("name", sorted(make_matrices_golden.CASES))
def test_golden(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_matrices_golden.CASES[name])
    jnp_golden.assert_case_matches(actual, GOLDEN[name])


@pytest.mark.parametrize("n, m, k", [(3, None, 0), (2, 4, 1), (4, 2, -1), (3, 3, 5), (0, 2, 0), (3, 1, -3)])
def test_eye_tri_and_triangle_indices_match_numpy(n, m, k):
    np.testing.assert_array_equal(np.asarray(jnp.eye(n, m, k)), np.eye(n, m, k))
    np.testing.assert_array_equal(np.asarray(jnp.tri(n, m, k)), np.tri(n, m, k))
    for ours, theirs in [(jnp.tril_indices, np.tril_indices), (jnp.triu_indices, np.triu_indices)]:
        for got, want in zip(ours(n, k, m), theirs(n, k, m)):
            np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint32", "float16", "bfloat16", "float32", "complex64"])
@pytest.mark.parametrize("k", [-1, 0, 2])
def test_tril_triu_match_numpy(dtype, k):
    x = jnp_golden.rand((2, 3, 4), dtype, 7)
    np.testing.assert_array_equal(np.asarray(jnp.tril(x, k)), np.tril(x, k))
    np.testing.assert_array_equal(np.asarray(jnp.triu(x, k)), np.triu(x, k))
    assert jnp.tril(x, k).dtype == x.dtype


@pytest.mark.parametrize("k", [-2, 0, 1, 4])
def test_diag_matches_numpy(k):
    v, m = np.arange(1, 4), np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(np.asarray(jnp.diag(v, k)), np.diag(v, k))
    np.testing.assert_array_equal(np.asarray(jnp.diag(m, k)), np.diag(m, k))


@pytest.mark.parametrize("n, increasing", [(None, False), (None, True), (1, False), (5, True)])
@pytest.mark.parametrize("x", [np.array([1, 2, -3]), np.array([0.5, -1.5, 2.0, 0.0], np.float32)])
def test_vander_matches_numpy(x, n, increasing):
    np.testing.assert_allclose(np.asarray(jnp.vander(x, n, increasing)), np.vander(x, n, increasing), rtol=1e-6)


@pytest.mark.parametrize("k", [-2, 0, 1])
def test_diagflat_matches_numpy(k):
    v = np.arange(1, 7).reshape(2, 3)
    np.testing.assert_array_equal(np.asarray(jnp.diagflat(v, k)), np.diagflat(v, k))


def test_mask_indices_matches_numpy():
    for got, want in zip(jnp.mask_indices(4, jnp.triu, 1), np.mask_indices(4, np.triu, 1)):
        np.testing.assert_array_equal(np.asarray(got), want)
    rows, cols = jnp.mask_indices(3, jnp.tril, size=8)
    np.testing.assert_array_equal(np.asarray(rows), [0, 1, 1, 2, 2, 2, 0, 0])
    np.testing.assert_array_equal(np.asarray(cols), [0, 0, 1, 0, 1, 2, 0, 0])


def test_x64_default_dtypes():
    with config.enable_x64(True):
        assert jnp.eye(2).dtype == np.float64
        assert jnp.tri(2, dtype=int).dtype == np.int64
        assert jnp.diag_indices(2)[0].dtype == np.int64


def test_under_vmap_and_grad():
    x = jnp_golden.rand((3, 2, 2), "float32", 8)
    np.testing.assert_array_equal(np.asarray(jaxle_core.vmap(jnp.tril)(x)), np.tril(x))
    np.testing.assert_array_equal(np.asarray(jaxle_core.vmap(jnp.diagflat)(x)),
                                  np.stack([np.diagflat(m) for m in x]))
    eyes = jaxle_core.vmap(lambda k: jnp.eye(3, k=k))(np.array([-1, 0, 1]))
    np.testing.assert_array_equal(np.asarray(eyes), np.stack([np.eye(3, k=k) for k in (-1, 0, 1)]))
    check_grads(lambda m: jnp.triu(m, 1), (x[0],), order=2)
    check_grads(lambda v: jnp.diagflat(v, -1), (x[0, 0],), order=2)
    check_grads(lambda v: jnp.diag(v, 1), (x[0, 0],), order=2)
    check_grads(lambda v: jnp.vander(v, 3), (x[0, 0],), order=2)
