"""geqp3 on XLA: jaxlib's LAPACK geqp3 kernel against the reference (SciPy's LAPACK): free columns bit for bit,
batched and for empty matrices, eagerly and under jit; columns marked to stay in front within rounding (the
reference factors them, updates the rest and pivots its trailing block in separate LAPACK calls); and the
factorization itself, ``a[:, p] = Q R``."""

import numpy as np
import pytest
import scipy.linalg
from conftest import check_against_reference

from jaxle_core import config
from jaxle_core.lax.householder import geqp3, ormqr


def _operand(shape, dtype):
    rng = np.random.default_rng(1)
    x = rng.standard_normal(shape)
    if np.issubdtype(dtype, np.complexfloating):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
@pytest.mark.parametrize("shape", [(4, 3), (3, 5), (2, 3, 3), (0, 3), (2, 0, 2)])
def test_geqp3_with_free_columns_matches_the_reference(dtype, shape):
    check_against_reference(geqp3, _operand(shape, dtype), np.zeros(shape[:-2] + shape[-1:], np.int32))


@pytest.mark.parametrize("shape", [(5, 4), (3, 5)])
def test_geqp3_keeps_marked_columns_in_front(shape):
    with config.enable_x64(True):
        _check_marked_columns(shape)


def _check_marked_columns(shape):
    a = _operand(shape, np.float64)
    jpvt = np.zeros(shape[-1], np.int32)
    jpvt[[1, 3]] = 1
    check_against_reference(geqp3, a, jpvt, rtol=1e-12, atol=1e-12)
    factored, permutation, taus = (np.asarray(x) for x in geqp3(a, jpvt))
    assert permutation[:2].tolist() == [2, 4]  # the marked columns first, in order, counted from 1
    k = min(shape)
    r = np.triu(factored[:k])
    q_r = np.asarray(ormqr(factored, taus, np.vstack([r, np.zeros((shape[0] - k, shape[1]))])))
    np.testing.assert_allclose(q_r, a[:, permutation - 1], atol=1e-12)
    # the free columns are pivoted as SciPy's pivoted QR of what the marked columns' reflectors leave of them
    tail = np.asarray(ormqr(factored[:, :2], taus[:2], a[:, [0, 2] + list(range(4, shape[1]))], transpose=True))
    _, _, pivots = scipy.linalg.qr(tail[2:], pivoting=True)
    assert (permutation[2:] - 1).tolist() == np.array([0, 2] + list(range(4, shape[1])))[pivots].tolist()
