"""Fast Fourier transforms over the minor dimensions: the ``fft`` primitive, ``FftType`` and ``lax.fft``."""

from __future__ import annotations

import enum
import functools
from collections.abc import Sequence

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import Primitive
from jaxle_core.jit import jit
from jaxle_core.lax.structural import convert_element_type

__all__ = ["FftType", "fft", "fft_p"]


class FftType(enum.IntEnum):
    """Describes which FFT operation to perform."""

    FFT = 0
    IFFT = 1
    RFFT = 2
    IRFFT = 3


_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64), np.dtype(np.float64): np.dtype(np.complex128)}
_REAL_OF = {c: r for r, c in _COMPLEX_OF.items()}


def _minor_dims(shape: tuple[int, ...], lengths: tuple[int, ...]) -> tuple[int, ...]:
    # JAX slices with -len(lengths), so no lengths compare against the whole shape.
    return shape[-len(lengths):]


# ---------------------------------------------------------------- fft

fft_p = Primitive("fft")


@fft_p.def_abstract_eval
def _fft_aval(x: ShapedArray, *, fft_type: FftType, fft_lengths: tuple[int, ...]) -> ShapedArray:
    if x.ndim < len(fft_lengths):
        raise ValueError(f"FFT input shape {x.shape} must have at least as many input dimensions as fft_lengths "
                         f"{fft_lengths}.")
    if fft_type == FftType.RFFT:
        if x.dtype not in _COMPLEX_OF:
            raise ValueError(f"RFFT input must be float32 or float64, got {x.dtype}")
        if _minor_dims(x.shape, fft_lengths) != fft_lengths:
            raise ValueError(f"RFFT input shape {x.shape} minor dimensions must be equal to fft_lengths "
                             f"{fft_lengths}")
        return ShapedArray(x.shape[:-1] + (fft_lengths[-1] // 2 + 1,), _COMPLEX_OF[x.dtype])
    name = "IRFFT" if fft_type == FftType.IRFFT else "FFT"
    if x.dtype not in _REAL_OF:
        raise ValueError(f"{name} input must be complex64 or complex128, got {x.dtype}")
    if fft_type == FftType.IRFFT:
        if _minor_dims(x.shape, fft_lengths)[:-1] != fft_lengths[:-1]:
            raise ValueError(f"IRFFT input shape {x.shape} minor dimensions must be equal to all except the last "
                             f"fft_length, got fft_lengths={fft_lengths}")
        return ShapedArray(x.shape[:-1] + (fft_lengths[-1],), _REAL_OF[x.dtype])
    if _minor_dims(x.shape, fft_lengths) != fft_lengths:
        raise ValueError(f"FFT input shape {x.shape} minor dimensions must be equal to fft_lengths {fft_lengths}")
    return ShapedArray(x.shape, x.dtype)


def check_fft_supported(x: ShapedArray, fft_type: FftType, fft_lengths: tuple[int, ...]) -> None:
    """Raise the error XLA's verifier gives for an ``fft`` that abstract evaluation accepts but XLA cannot run.

    JAX stages such transforms and fails only when compiling them; the reference backend fails the same way."""
    if not 1 <= len(fft_lengths) <= 3:
        raise ValueError(f"rank must be between 1 and 3, but got {len(fft_lengths)}.")
    if fft_type == FftType.RFFT and fft_lengths[-1] == 0:  # XLA's result has no frequencies where one is expected
        raise ValueError(f"Cannot lower jaxpr with verifier errors:\n\tthe RFFT of no points has shape "
                         f"{x.shape[:-1] + (0,)}, which doesn't match the result's {x.shape[:-1] + (1,)}")
    # XLA also takes an empty innermost dimension for an empty result (jnp.fft.irfft of no points).
    empty = fft_lengths[-1] == 0 and x.shape[-1] == 0
    if fft_type == FftType.IRFFT and x.shape[-1] != fft_lengths[-1] // 2 + 1 and not empty:
        raise ValueError(f"IRFFT requires innermost dimension to be compatible with fft_length[-1]/2+1. Got: "
                         f"{x.shape[-1]} but fft_length is {fft_lengths[-1]}.")


_NUMPY_TRANSFORMS = {FftType.FFT: np.fft.fftn, FftType.IFFT: np.fft.ifftn, FftType.RFFT: np.fft.rfftn}


@fft_p.def_impl
def _fft_impl(x: np.ndarray, *, fft_type: FftType, fft_lengths: tuple[int, ...]) -> np.ndarray:
    check_fft_supported(get_aval(x), fft_type, fft_lengths)
    out = _fft_aval(get_aval(x), fft_type=fft_type, fft_lengths=fft_lengths)
    if out.size == 0:  # NumPy refuses transforms of no points, where XLA gives the empty result
        return np.zeros(out.shape, out.dtype)
    axes = tuple(range(x.ndim - len(fft_lengths), x.ndim))
    if fft_type == FftType.IRFFT:
        result = np.fft.irfftn(x, s=fft_lengths, axes=axes)
    else:
        result = _NUMPY_TRANSFORMS[FftType(fft_type)](x, axes=axes)
    return np.asarray(result, out.dtype)


# JAX accepts each transform's name in upper or lower case, not mixed.
_FFT_TYPE_NAMES = {**FftType.__members__, **{name.lower(): member for name, member in FftType.__members__.items()}}


def _parse_fft_type(fft_type: FftType | str) -> FftType:
    if isinstance(fft_type, str):
        if fft_type not in _FFT_TYPE_NAMES:
            raise ValueError(f"Unknown FFT type '{fft_type}'")
        return _FFT_TYPE_NAMES[fft_type]
    if isinstance(fft_type, FftType):
        return fft_type
    raise TypeError(f"Unknown FFT type value '{fft_type}'")


@functools.partial(jit, static_argnums=(1, 2))
def fft(x, fft_type: FftType | str, fft_lengths: Sequence[int]):
    """The ``fft_type`` transform (a name such as ``"rfft"`` works too) over the ``len(fft_lengths)`` minor
    dimensions of ``x``; real inputs of complex transforms are made complex first."""
    typ = _parse_fft_type(fft_type)
    dtype = get_aval(x).dtype
    if typ == FftType.RFFT:
        if dtypes.issubdtype(dtype, np.complexfloating):
            raise ValueError("only real valued inputs supported for rfft")
        x = convert_element_type(x, dtypes.to_inexact_dtype(dtype))
    else:
        x = convert_element_type(x, dtypes.to_complex_dtype(dtype))
    if len(fft_lengths) == 0:
        return x
    return fft_p.bind(x, fft_type=typ, fft_lengths=tuple(fft_lengths))
