"""``jax.scipy.signal``: n-dimensional convolutions and correlations (direct and FFT), detrending and spectral
analysis (welch, csd, stft, istft) against SciPy, gradients,
jit/vmap, and JAX 0.10.2's jaxprs, values and errors for a sample (golden/make_scipy_signal_golden.py, which also
holds the optimize, sparse.linalg and interpolate cases replayed by their own tests), in float32 and, widened, with
64-bit types (make_scipy_signal_x64_golden.py)."""

import sys
import warnings

import numpy as np
import pytest
import scipy.signal

from jaxle_core import config, jit, vmap
from jaxle_core.test_util import check_grads
from jaxle_numpy.scipy import signal

sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent / "golden"))
import jnp_golden  # noqa: E402
import make_scipy_signal_x64_golden  # noqa: E402
import scipy_golden  # noqa: E402
from make_scipy_signal_golden import CASES  # noqa: E402

GOLDEN = jnp_golden.load("scipy_signal_golden.json")
X64_GOLDEN = jnp_golden.load("scipy_signal_x64_golden.json")

def golden_case_names(prefix: str) -> list[str]:
    return sorted(name for name in CASES if name.startswith(prefix))


def replay(name: str) -> None:
    """One golden case of make_scipy_signal_golden.py: jaxpr, values and weak types, or the error."""
    scipy_golden.assert_case_matches(CASES[name], GOLDEN[name])


def replay_x64(name: str) -> None:
    """The case's float64/complex128 form with 64-bit types enabled (make_scipy_signal_x64_golden.py)."""
    with config.enable_x64(True):
        scipy_golden.assert_case_matches(make_scipy_signal_x64_golden.CASES[name], X64_GOLDEN[name])


@pytest.mark.parametrize("name", golden_case_names("signal."))
def test_golden(name):
    replay(name)


@pytest.mark.parametrize("name", golden_case_names("signal."))
def test_golden_x64(name):
    replay_x64(name)


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
        rows = rng.standard_normal((3, 2))  # the axis not transformed pairs rows of equal count
        np.testing.assert_allclose(signal.fftconvolve(x.real, rows, mode=mode, axes=1),
                                   scipy.signal.fftconvolve(x.real, rows, mode=mode, axes=1), atol=1e-4)
    with pytest.raises(ValueError, match="mapped axes must have same shape"):  # JAX does not broadcast them
        signal.fftconvolve(x.real, y.real[:1], axes=1)
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


_LONG = np.random.default_rng(4).standard_normal((2, 40)).astype(np.float32)


def _close_all(actual, expected, atol=1e-5):
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        assert np.shape(a) == np.shape(e)
        np.testing.assert_allclose(np.asarray(a), e, atol=atol)


@pytest.mark.parametrize("kwargs", [dict(nperseg=16), dict(window="hamming", nperseg=16, detrend="linear", noverlap=4,
                                                           nfft=20),
                                    dict(nperseg=16, scaling="spectrum", average="median"),
                                    dict(nperseg=15, return_onesided=False), dict(window=np.ones(8)),
                                    dict(nperseg=8, axis=0)])
def test_welch_and_csd_against_scipy(kwargs):
    x = _LONG.T if kwargs.get("axis") == 0 else _LONG
    _close_all(signal.welch(x, **kwargs), scipy.signal.welch(x, **kwargs))
    _close_all(signal.csd(x, x[::-1], **kwargs), scipy.signal.csd(x, x[::-1], **kwargs))
    _close_all(signal.csd(x + 1j * x[::-1], x, **kwargs), scipy.signal.csd(x + 1j * x[::-1], x, **kwargs))


@pytest.mark.parametrize("kwargs", [dict(nperseg=16), dict(nperseg=16, boundary=None, padded=False, noverlap=5),
                                    dict(nperseg=8, axis=0), dict(nperseg=16, boundary="even"),
                                    dict(nperseg=16, boundary="odd"), dict(nperseg=16, boundary="constant")])
def test_stft_and_istft_against_scipy(kwargs):
    x = _LONG.T if kwargs.get("axis") == 0 else _LONG
    _close_all(signal.stft(x, **kwargs), scipy.signal.stft(x, **kwargs))
    _, _, spectrum = scipy.signal.stft(_LONG, nperseg=8, noverlap=6)
    for boundary in (True, False):
        with warnings.catch_warnings():  # SciPy warns that the unpadded transform may not invert
            warnings.simplefilter("ignore")
            expected = scipy.signal.istft(spectrum, nperseg=8, noverlap=6, boundary=boundary)
        _close_all(signal.istft(spectrum, nperseg=8, noverlap=6, boundary=boundary), expected)
    _, restored = signal.istft(signal.stft(_LONG[0], nperseg=16)[2], nperseg=16)
    np.testing.assert_allclose(restored[:40], _LONG[0], atol=1e-5)


def test_detrend_against_scipy():
    for kwargs in (dict(), dict(axis=0, type="constant"), dict(bp=[10, 30])):
        np.testing.assert_allclose(signal.detrend(_LONG, **kwargs), scipy.signal.detrend(_LONG, **kwargs), atol=1e-4)
    for bad_type in ("x", "c"):  # JAX, unlike SciPy, takes only the full names
        with pytest.raises(ValueError, match="Trend type"):
            signal.detrend(_LONG, type=bad_type)
