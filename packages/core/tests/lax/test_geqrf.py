"""geqrf (LAPACK's packed QR, behind jnp.linalg.qr(mode="raw") and slogdet(method="qr")) on the reference backend
against SciPy's raw QR: float32/float64/complex, batched and empty matrices, vmap, its staged equation and its
errors."""

import numpy as np
import pytest
import scipy.linalg

import jaxle_core
from jaxle_core.config import enable_x64
from jaxle_core.lax.householder import geqrf


def _matrix(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.issubdtype(dtype, np.complexfloating):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("shape", [(4, 3), (3, 5), (2, 3, 3)])
def test_geqrf_matches_scipy_raw_qr(dtype, shape):
    x = _matrix(shape, dtype, 0)
    with enable_x64(True):
        packed, taus = geqrf(x)
    assert packed.dtype == dtype and taus.dtype == dtype and taus.shape == shape[:-2] + (min(shape[-2:]),)
    tolerance = 1e-5 if dtype in (np.float32, np.complex64) else 1e-12
    for index in np.ndindex(*shape[:-2]):
        (expected_packed, expected_taus), _ = scipy.linalg.qr(x[index], mode="raw")
        np.testing.assert_allclose(np.asarray(packed)[index], expected_packed, rtol=tolerance, atol=tolerance)
        np.testing.assert_allclose(np.asarray(taus)[index], expected_taus, rtol=tolerance, atol=tolerance)


def test_geqrf_of_empty_matrices_and_its_equation():
    packed, taus = geqrf(np.zeros((2, 0, 3), np.float32))
    assert packed.shape == (2, 0, 3) and taus.shape == (2, 0)
    text = str(jaxle_core.make_jaxpr(geqrf)(np.ones((3, 2), np.float32)))
    assert "b:f32[3,2] c:f32[2] = geqrf a" in text


def test_geqrf_under_vmap_maps_over_a_leading_batch():
    x = _matrix((3, 2, 4, 3), np.float32, 1)
    packed, taus = jaxle_core.vmap(geqrf, in_axes=1)(x)
    expected_packed, expected_taus = geqrf(np.moveaxis(x, 1, 0))
    np.testing.assert_array_equal(np.asarray(packed), np.asarray(expected_packed))
    np.testing.assert_array_equal(np.asarray(taus), np.asarray(expected_taus))


def test_geqrf_errors():
    with pytest.raises(TypeError):
        geqrf(np.ones(3, np.float32))
    with pytest.raises(NotImplementedError, match="Unsupported dtype float16"):
        geqrf(np.eye(2, dtype=np.float16))
