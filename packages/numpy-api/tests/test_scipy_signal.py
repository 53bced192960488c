"""``jax.scipy.signal``: n-dimensional convolutions and correlations (direct and FFT) against SciPy, gradients,
jit/vmap, and JAX 0.10.2's jaxprs, values and errors for a sample (golden/make_scipy_signal_golden.py, which also
holds the optimize, sparse.linalg and interpolate cases replayed by their own tests)."""

import sys

import numpy as np
import pytest
import scipy.signal

from jaxle_core import jit, vmap
from jaxle_core.test_util import check_grads
from jaxle_numpy.scipy import signal

sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent / "golden"))
import jnp_golden  # noqa: E402
import scipy_golden  # noqa: E402
from make_scipy_signal_golden import CASES, VALUES_ONLY  # noqa: E402

GOLDEN = jnp_golden.load("scipy_signal_golden.json")

# Cases whose values and errors match JAX's but whose jaxprs differ; each says why.
JAXPR_DIFFERS = {
    **dict.fromkeys(("signal.convolve_full", "signal.convolve_same", "signal.convolve_valid",
                     "signal.convolve_2d", "signal.convolve_int", "signal.convolve2d"),
                    "the kernel is flipped inline (JAX: a jitted _flip) and the operands gain their unit axes by "
                    "indexing"),
    **dict.fromkeys(("signal.correlate_same", "signal.correlate2d_same"),
                    "the correlation is staged as a convolution with the conjugated, flipped kernel"),
    "signal.fftconvolve": "the 'same' region is sliced with other equations",
    "interpolate.linear": "the cell search and corner weights are staged with other equations",
}


def golden_case_names(prefix: str) -> list[str]:
    return sorted(name for name in CASES if name.startswith(prefix))


def replay(name: str) -> None:
    """One golden case of make_scipy_signal_golden.py, jaxprs compared unless differing or not recorded."""
    actual = jnp_golden.run_case(scipy_golden.jaxle_namespace(), CASES[name])
    expected = GOLDEN[name]
    if name in JAXPR_DIFFERS or name in VALUES_ONLY:
        actual, expected = {**actual, "jaxpr": ""}, {**expected, "jaxpr": ""}
    jnp_golden.assert_case_matches(actual, expected)


@pytest.mark.parametrize("name", golden_case_names("signal."))
def test_golden(name):
    replay(name)


SHAPES = [((5,), (3,)), ((3,), (5,)), ((4,), (4,)), ((4, 5), (2, 3)), ((2, 3), (4, 5)), ((4, 3), (2, 2))]


@pytest.mark.parametrize("shapes", SHAPES)
@pytest.mark.parametrize("name", ["convolve", "correlate", "fftconvolve"])
def test_against_scipy(shapes, name):
    rng = np.random.default_rng(0)
    x, y = (rng.standard_normal(s).astype(np.float32) for s in shapes)
    for mode in ("full", "same", "valid"):
        expected = getattr(scipy.signal, name)(x, y, mode=mode)
        actual = getattr(signal, name)(x, y, mode=mode)
        assert actual.shape == expected.shape
        np.testing.assert_allclose(actual, expected, atol=1e-4, err_msg=mode)


@pytest.mark.parametrize("name", ["convolve2d", "correlate2d"])
def test_2d_against_scipy(name):
    rng = np.random.default_rng(1)
    for shape1, shape2 in SHAPES[3:]:
        x, y = rng.standard_normal(shape1), rng.standard_normal(shape2)
        for mode in ("full", "same", "valid"):
            np.testing.assert_allclose(getattr(signal, name)(x, y, mode=mode),
                                       getattr(scipy.signal, name)(x, y, mode=mode), atol=1e-4, err_msg=mode)
    with pytest.raises(ValueError, match="2-dimensional"):
        getattr(signal, name)(np.ones(3), np.ones(2))


def test_complex_methods_and_axes():
    rng = np.random.default_rng(2)
    x, y = rng.standard_normal((3, 4)) + 1j, rng.standard_normal((2, 2)) - 2j
    for mode in ("full", "same", "valid"):
        np.testing.assert_allclose(signal.correlate(x, y, mode=mode), scipy.signal.correlate(x, y, mode=mode),
                                   atol=1e-4)
        np.testing.assert_allclose(signal.fftconvolve(x, y, mode=mode), scipy.signal.fftconvolve(x, y, mode=mode),
                                   atol=1e-4)
        np.testing.assert_allclose(signal.convolve(x, y, mode=mode, method="fft"),
                                   scipy.signal.convolve(x, y, mode=mode), atol=1e-4)
        np.testing.assert_allclose(signal.fftconvolve(x.real, y.real[:1], mode=mode, axes=1),
                                   scipy.signal.fftconvolve(x.real, y.real[:1], mode=mode, axes=1), atol=1e-4)
    assert signal.convolve(np.arange(3), np.arange(2)).dtype == np.float32


def test_gradients_jit_and_vmap():
    rng = np.random.default_rng(3)
    x, y = rng.standard_normal(6), rng.standard_normal(3)
    check_grads(lambda a, b: signal.convolve(a, b, mode="same"), (x, y), order=1, modes=("fwd", "rev"), atol=1e-2,
                rtol=1e-2)
    check_grads(lambda a: signal.fftconvolve(a, y), (x,), order=1, modes=("rev",), atol=1e-2, rtol=1e-2)
    stack = rng.standard_normal((2, 6)).astype(np.float32)
    np.testing.assert_allclose(vmap(lambda a: signal.correlate(a, y.astype(np.float32)))(stack),
                               np.stack([scipy.signal.correlate(a, y) for a in stack]), atol=1e-4)
    np.testing.assert_allclose(jit(signal.convolve2d)(stack, stack[:, :2]),
                               scipy.signal.convolve2d(stack, stack[:, :2]), atol=1e-4)
