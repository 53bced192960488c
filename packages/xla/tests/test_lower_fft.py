"""XLA lowering of fft agrees with core's NumPy reference and emits the ``stablehlo.fft`` JAX 0.10.2 emits."""

import re

import numpy as np
import pytest
from conftest import check_against_reference, random_values

import jaxle_core as jc
from jaxle_core import lax
from jaxle_core.config import enable_x64

LENGTHS = [(6,), (3, 6), (2, 3, 5)]


def _input(kind, lengths, x64, batch=(2,)):
    real, complex_ = (np.float64, np.complex128) if x64 else (np.float32, np.complex64)
    last = lengths[-1] // 2 + 1 if kind == "IRFFT" else lengths[-1]
    return random_values(np.random.default_rng(0), (*batch, *lengths[:-1], last), real if kind == "RFFT" else complex_)


@pytest.mark.parametrize("x64", [False, True], ids=["32", "64"])
@pytest.mark.parametrize("lengths", LENGTHS, ids=lambda n: f"{len(n)}d")
@pytest.mark.parametrize("kind", ["FFT", "IFFT", "RFFT", "IRFFT"])
def test_each_transform_matches_the_reference(kind, lengths, x64):
    with enable_x64(x64):
        x = _input(kind, lengths, x64)
        check_against_reference(lambda v: lax.fft(v, kind, lengths), x, rtol=1e-4 if not x64 else 1e-10,
                                atol=1e-4 if not x64 else 1e-10)


def test_grad_and_vmap_run_compiled():
    x = _input("RFFT", (3, 4), False)

    def loss(v):
        spectrum = lax.fft(v, "RFFT", (3, 4))
        back = lax.fft(spectrum * spectrum, "IRFFT", (3, 4))
        return lax.reduce_sum(back * v, (0, 1, 2))

    check_against_reference(jc.grad(loss), x, rtol=1e-4, atol=1e-4)
    check_against_reference(jc.vmap(lambda v: lax.fft(v, "IFFT", (4,)), in_axes=2), _input("FFT", (4, 3), False),
                            rtol=1e-5, atol=1e-5)


def test_empty_transforms():
    check_against_reference(lambda v: lax.fft(v, "FFT", (0,)), np.ones((3, 0), np.complex64))
    check_against_reference(lambda v: lax.fft(v, "RFFT", (4,)), np.ones((0, 4), np.float32))


@pytest.mark.parametrize("kind, lengths, arg, line", [
    ("FFT", (3, 4), "2x3x4xcomplex<f32>",
     "stablehlo.fft %arg0, type = FFT, length = [3, 4] : (tensor<2x3x4xcomplex<f32>>) -> tensor<2x3x4xcomplex<f32>>"),
    ("IRFFT", (3, 6), "2x3x4xcomplex<f32>",
     "stablehlo.fft %arg0, type = IRFFT, length = [3, 6] : (tensor<2x3x4xcomplex<f32>>) -> tensor<2x3x6xf32>"),
    ("RFFT", (2, 3, 4), "2x3x4xf32",
     "stablehlo.fft %arg0, type = RFFT, length = [2, 3, 4] : (tensor<2x3x4xf32>) -> tensor<2x3x3xcomplex<f32>>"),
])
def test_lowered_text_is_jaxs(kind, lengths, arg, line):
    # The op as jax.jit(f).lower(x).as_text() prints it, inside the private @fft function of the jitted lax.fft.
    x = np.ones((2, 3, 4), np.complex64 if kind != "RFFT" else np.float32)
    text = jc.jit(lambda v: lax.fft(v, kind, lengths)).lower(x).as_text()
    assert f"func.func private @fft(%arg0: tensor<{arg}>)" in text
    assert f"%0 = {line}" in text


@pytest.mark.parametrize("x, kind, lengths, message", [
    (np.ones((3, 4), np.complex64), "IRFFT", (8,),
     "IRFFT requires innermost dimension to be compatible with fft_length[-1]/2+1. Got: 4 but fft_length is 8."),
    (np.ones((1, 1, 2, 2), np.complex64), "FFT", (1, 1, 2, 2), "rank must be between 1 and 3, but got 4."),
])
def test_transforms_xla_rejects_fail_with_its_message(x, kind, lengths, message):
    # JAX raises an MLIRError with this text when it lowers them.
    with pytest.raises(ValueError, match=re.escape(message)):
        jc.jit(lambda v: lax.fft(v, kind, lengths)).lower(x).as_text()
    with pytest.raises(ValueError, match=re.escape(message)):
        lax.fft(x, kind, lengths)
