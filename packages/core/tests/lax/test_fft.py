"""lax.fft: jaxprs, values and errors against JAX 0.10.2 goldens (the transform and its jvp, grad, vmap and
transpose), values against numpy.fft, derivatives against finite differences."""

import importlib
import re

import numpy as np
import pytest
from make_fft_golden import assert_case_matches

import jaxle_core
from jaxle_core import lax
from jaxle_core.config import enable_x64
from jaxle_core.test_util import check_grads

SHARED = importlib.import_module("make_reductions_golden")
GEN, GOLDEN = SHARED.load_suite("fft")


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert_case_matches(jaxle_core, GEN.CASES[name], GOLDEN[name])


@pytest.mark.parametrize("name", sorted(GEN.X64_CASES))
def test_matches_jax_with_x64(name):
    with enable_x64(True):
        assert_case_matches(jaxle_core, GEN.X64_CASES[name], GOLDEN[name])


_NUMPY = {"FFT": np.fft.fftn, "IFFT": np.fft.ifftn, "RFFT": np.fft.rfftn}


def _numpy_fft(x, kind, lengths):
    axes = tuple(range(x.ndim - len(lengths), x.ndim))
    if kind == "IRFFT":
        return np.fft.irfftn(x, s=lengths, axes=axes)
    return _NUMPY[kind](x, axes=axes)


@pytest.mark.parametrize("x64", [False, True])
@pytest.mark.parametrize("kind", ["FFT", "IFFT", "RFFT", "IRFFT"])
@pytest.mark.parametrize("lengths", [(6,), (3, 6), (2, 3, 5)])
def test_values_match_numpy(kind, lengths, x64):
    real, complex_ = ("float64", "complex128") if x64 else ("float32", "complex64")
    shape = (2, 2, 3, lengths[-1] // 2 + 1) if kind == "IRFFT" else (2, 2, 3, lengths[-1])
    x = SHARED.rand(shape, real if kind == "RFFT" else complex_, seed=3)
    with enable_x64(x64):
        out = np.asarray(lax.fft(x, kind, lengths))
    expected = _numpy_fft(x.astype(np.complex128 if kind != "RFFT" else np.float64), kind, lengths)
    assert out.dtype == np.dtype(real if kind == "IRFFT" else complex_)
    tol = 1e-12 if x64 else 1e-5
    np.testing.assert_allclose(out, expected, rtol=tol, atol=tol * np.abs(expected).max())


@pytest.mark.parametrize("kind, shape, lengths", [
    ("FFT", (3, 4), (4,)), ("IFFT", (2, 3, 4), (2, 3, 4)), ("RFFT", (3, 4), (3, 4)), ("RFFT", (5,), (5,)),
    ("IRFFT", (2, 3), (4,)), ("IRFFT", (3, 3), (3, 5)),
])
def test_derivatives_match_finite_differences(kind, shape, lengths):
    with enable_x64(True):
        x = SHARED.rand(shape, "float64" if kind == "RFFT" else "complex128", seed=5)
        check_grads(lambda y: lax.fft(y, kind, lengths), (x,), order=2, modes=("fwd", "rev"))


@pytest.mark.parametrize("x, lengths, message", [
    (np.ones((3, 4), np.complex64), (8,),
     "IRFFT requires innermost dimension to be compatible with fft_length[-1]/2+1. Got: 4 but fft_length is 8."),
    (np.ones((1, 1, 2, 2), np.complex64), (1, 1, 2, 3), "rank must be between 1 and 3, but got 4."),
    (np.ones((2, 2), np.complex64), (0,),
     "IRFFT requires innermost dimension to be compatible with fft_length[-1]/2+1. Got: 2 but fft_length is 0."),
])
def test_transforms_xla_cannot_run_raise_its_message(x, lengths, message):
    """JAX stages these and fails in XLA's verifier (an MLIRError with this text); jaxle raises ValueError."""
    jaxle_core.make_jaxpr(lambda y: lax.fft(y, "IRFFT", lengths))(x)
    with pytest.raises(ValueError, match=re.escape(message)):
        lax.fft(x, "IRFFT", lengths)


def test_rfft_of_no_points_fails_as_xla_lowering_does():
    """XLA returns no frequencies where the result has one: JAX's ValueError from the verifier when lowering."""
    x = np.ones((2, 0), np.float32)
    assert str(jaxle_core.make_jaxpr(lambda y: lax.fft(y, "RFFT", (0,)))(x).out_avals[0]) == "complex64[2,1]"
    with pytest.raises(ValueError, match="^Cannot lower jaxpr with verifier errors:\n"):
        lax.fft(x, "RFFT", (0,))


@pytest.mark.parametrize("shape", [(2, 0), (2, 1), (0, 1)])
def test_irfft_to_no_points_takes_an_empty_or_single_innermost_dimension(shape):
    """XLA accepts an IRFFT of length 0 from an innermost dimension of 0 or 1 (jnp.fft.irfft of an empty array)."""
    out = lax.fft(np.ones(shape, np.complex64), "IRFFT", (0,))
    assert out.shape == shape[:-1] + (0,) and out.dtype == np.float32


def test_fft_type_is_an_int_enum_printed_as_its_number():
    assert [(t.name, int(t)) for t in lax.FftType] == [("FFT", 0), ("IFFT", 1), ("RFFT", 2), ("IRFFT", 3)]
    assert str(lax.FftType.RFFT) == "2" and repr(lax.FftType.IRFFT) == "<FftType.IRFFT: 3>"
