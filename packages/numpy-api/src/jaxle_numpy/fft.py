"""``jnp.fft``: discrete Fourier transforms over any axes, built on ``lax.fft`` (which transforms up to three minor
dimensions), with NumPy's ``n``/``s`` cropping and zero-padding and its ``norm`` conventions, plus the sample
frequency and shift helpers."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import get_aval
from jaxle_core.lax import slicing as lax_slicing
from jaxle_core.lax import structural as lax_structural
from jaxle_core.lax.fft import FftType
from jaxle_core.lax.fft import fft as lax_fft
from jaxle_numpy.creation import array, asarray
from jaxle_numpy.manipulation import moveaxis, pad, roll
from jaxle_numpy.ranges import arange
from jaxle_numpy.reductions import prod
from jaxle_numpy.ufuncs import conj, remainder, sqrt
from jaxle_numpy.util import canonicalize_axis, check_scalar_arraylike

__all__ = ["fft", "fft2", "fftfreq", "fftn", "fftshift", "hfft", "ifft", "ifft2", "ifftn", "ifftshift", "ihfft",
           "irfft", "irfft2", "irfftn", "rfft", "rfft2", "rfftfreq", "rfftn"]

_NORMS = (None, "backward", "ortho", "forward")
_INVERSE_TYPES = (FftType.IFFT, FftType.IRFFT)
_MAX_LAX_DIMS = 3  # lax.fft (XLA's FFT) transforms at most three minor dimensions at once


def _as_input(func_name: str, a: Any) -> Any:
    """``a`` as an array; JAX's TypeErrors for strings, bytes and other non-arrays (lists, tuples, None)."""
    check_scalar_arraylike(func_name, a)
    return asarray(a)


def _moveaxis_permutation(ndim: int, source: Sequence[int], destination: Sequence[int]) -> tuple[int, ...]:
    """The transpose that moves dimensions ``source`` to ``destination`` (NumPy's moveaxis, without its checks, so
    that repeated axes reach ``transpose`` and its error as in JAX)."""
    permutation = [i for i in range(ndim) if i not in source]
    for dest, src in sorted(zip(destination, source)):
        permutation.insert(dest, src)
    return tuple(permutation)


def _to_minor(x: Any, axes: tuple[int, ...]) -> tuple[Any, tuple[int, ...] | None]:
    """``x`` with dimensions ``axes`` moved, in order, to the minor end (no transpose when they are there already),
    and the permutation that moves them back (None when none was needed)."""
    ndim = get_aval(x).ndim
    permutation = _moveaxis_permutation(ndim, axes, tuple(range(ndim - len(axes), ndim)))
    if permutation == tuple(range(ndim)):
        return x, None
    return lax_structural.transpose(x, permutation), tuple(int(i) for i in np.argsort(permutation))


def _from_minor(x: Any, back: tuple[int, ...] | None) -> Any:
    return x if back is None else lax_structural.transpose(x, back)


def _transform_minor(x: Any, fft_type: FftType, lengths: tuple[int, ...], axes: tuple[int, ...]) -> Any:
    """The ``fft_type`` transform of ``x`` over its dimensions ``axes``, each moved to the minor end first.

    lax.fft takes three dimensions at most: more are split into a leading group (at least half of them, and all but
    three) and a trailing one; a forward transform does the trailing group (the real one of an rfft) first, an
    inverse one the leading group first, so that the real half-spectrum dimension is always the last transformed."""
    ndim = get_aval(x).ndim
    minor = tuple(range(ndim - len(axes), ndim))
    x, back = _to_minor(x, axes)
    if len(axes) <= _MAX_LAX_DIMS:
        x = lax_fft(x, fft_type, lengths)
    else:
        split = max(len(axes) - _MAX_LAX_DIMS, len(axes) // 2)
        leading, trailing = minor[:split], minor[split:]
        if fft_type in _INVERSE_TYPES:
            x = _transform_minor(x, FftType.IFFT, lengths[:split], leading)
            x = _transform_minor(x, fft_type, lengths[split:], trailing)
        else:
            x = _transform_minor(x, fft_type, lengths[split:], trailing)
            x = _transform_minor(x, FftType.FFT, lengths[:split], leading)
    return _from_minor(x, back)


def _normalization(transformed: Any, lengths: Sequence[int], norm: str | None, inverse: bool) -> Any:
    """``transformed`` scaled for ``norm`` (XLA's inverse transforms already divide by the size)."""
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm}; should be "backward","ortho" or "forward".')
    if norm is None:
        return transformed
    if norm == "backward":  # asked for by name, the identity scale is still applied, as in JAX
        return transformed * 1
    size = prod(array(lengths, dtype=get_aval(transformed).dtype))
    factor = sqrt(size) if norm == "ortho" else size
    return transformed * (factor if inverse else 1 / factor)


def _fft_core(func_name: str, fft_type: FftType, a: Any, s: Sequence[int] | None, axes: Sequence[int] | None,
              norm: str | None) -> Any:
    """The n-dimensional ``fft_type`` transform of ``a`` named ``jax.numpy.fft.<func_name>``."""
    full_name = f"jax.numpy.fft.{func_name}"
    arr = _as_input(full_name, a)
    ndim = get_aval(arr).ndim
    if s is not None:
        s = tuple(operator.index(n) for n in s)
        if any(n <= 0 for n in s):
            raise ValueError("Shape should be positive.")
    if s is not None and axes is not None and len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    given = axes is not None
    if axes is None:
        axes = tuple(range(ndim)) if s is None else tuple(range(-len(s), 0))
    if len(axes) != len(set(axes)):
        raise ValueError(f"{full_name} does not support repeated axes. Got axes {tuple(axes)}.")
    axes = tuple(canonicalize_axis(operator.index(axis), ndim) for axis in axes)

    minor = tuple(range(ndim - len(axes), ndim))
    permutation = _moveaxis_permutation(ndim, axes, minor)
    back = None if permutation == tuple(range(ndim)) else tuple(int(i) for i in np.argsort(permutation))
    if given:  # by jnp.moveaxis, as JAX's: its parameter names an operand on other devices
        arr = moveaxis(arr, axes, minor)
    shape = get_aval(arr).shape
    if s is None:
        lengths = tuple(shape[ax] for ax in minor)
        if fft_type == FftType.IRFFT and lengths:
            lengths = lengths[:-1] + (max(0, 2 * (lengths[-1] - 1)),)
    else:
        lengths = s
        arr = _crop_and_pad(arr, _input_lengths(fft_type, s))
    transformed = _transform_minor(arr, fft_type, lengths, minor)
    # The scale follows the named function's direction: hfft runs an IRFFT but scales as a forward transform.
    transformed = _normalization(transformed, lengths, norm, inverse=func_name.startswith("i"))
    return _from_minor(transformed, back)


def _input_lengths(fft_type: FftType, lengths: tuple[int, ...]) -> tuple[int, ...]:
    """The input sizes a transform to ``lengths`` reads: a half spectrum along the last axis for irfft."""
    if fft_type == FftType.IRFFT:
        return lengths[:-1] + (lengths[-1] // 2 + 1,)
    return lengths


def _crop_and_pad(arr: Any, lengths: tuple[int, ...]) -> Any:
    """``arr``'s minor dimensions cut to at most ``lengths``, then zero-padded up to them."""
    shape = get_aval(arr).shape
    batch = shape[:len(shape) - len(lengths)]
    minor_shape = shape[len(batch):]
    if any(size > n for size, n in zip(minor_shape, lengths)):
        limits = batch + tuple(min(size, n) for size, n in zip(minor_shape, lengths))
        arr = lax_slicing.slice(arr, (0,) * len(shape), limits)
        minor_shape = limits[len(batch):]
    widths = [(0, 0)] * len(batch) + [(0, n - size) for size, n in zip(minor_shape, lengths)]
    return pad(arr, widths)


def _single_axis(func_name: str, axis: Any) -> tuple[int] | None:
    if isinstance(axis, (list, tuple)):
        raise ValueError(f"jax.numpy.fft.{func_name} does not support multiple axes. Please use "
                         f"jax.numpy.fft.{func_name}n. Got axis = {axis}.")
    return None if axis is None else (axis,)


def _fft_1d(func_name: str, fft_type: FftType, a: Any, n: int | None, axis: int | None, norm: str | None) -> Any:
    axes = _single_axis(func_name, axis)
    return _fft_core(func_name, fft_type, a, None if n is None else [n], axes, norm)


def _two_axes(func_name: str, axes: Sequence[int]) -> Sequence[int]:
    if len(axes) != 2:
        raise ValueError(f"jax.numpy.fft.{func_name} only supports 2 axes. Got axes = {axes}.")
    return axes


def fft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Any:
    """The one-dimensional discrete Fourier transform along ``axis`` (cropped or zero-padded to ``n`` points)."""
    return _fft_1d("fft", FftType.FFT, a, n, axis, norm)


def ifft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Any:
    """The one-dimensional inverse discrete Fourier transform along ``axis``."""
    return _fft_1d("ifft", FftType.IFFT, a, n, axis, norm)


def rfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Any:
    """The one-dimensional transform of real input: the ``n // 2 + 1`` non-negative frequency terms."""
    return _fft_1d("rfft", FftType.RFFT, a, n, axis, norm)


def irfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Any:
    """The inverse of ``rfft``: ``n`` real points (``2 * (m - 1)`` by default) from a half spectrum of ``m``."""
    return _fft_1d("irfft", FftType.IRFFT, a, n, axis, norm)


def hfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Any:
    """The transform of a Hermitian-symmetric signal given by its first half: a real spectrum of ``n`` points."""
    conj_a = conj(a)
    _single_axis("hfft", axis)
    points = (get_aval(conj_a).shape[axis] - 1) * 2 if n is None else n
    return _fft_1d("hfft", FftType.IRFFT, conj_a, n, axis, norm) * points


def ihfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Any:
    """The inverse of ``hfft``: the first half of the Hermitian spectrum of a real signal."""
    _single_axis("ihfft", axis)
    arr = asarray(a)  # unlike the other transforms, a list is accepted here, as in JAX
    points = get_aval(arr).shape[axis] if n is None else n
    return conj(_fft_1d("ihfft", FftType.RFFT, arr, n, axis, norm)) * (1 / points)


def fftn(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: str | None = None) -> Any:
    """The n-dimensional discrete Fourier transform over ``axes`` (every axis, or the last ``len(s)``)."""
    return _fft_core("fftn", FftType.FFT, a, s, axes, norm)


def ifftn(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: str | None = None) -> Any:
    """The n-dimensional inverse discrete Fourier transform over ``axes``."""
    return _fft_core("ifftn", FftType.IFFT, a, s, axes, norm)


def rfftn(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: str | None = None) -> Any:
    """The n-dimensional transform of real input, halved along the last of ``axes``."""
    return _fft_core("rfftn", FftType.RFFT, a, s, axes, norm)


def irfftn(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
           norm: str | None = None) -> Any:
    """The inverse of ``rfftn``: a real result of shape ``s`` along ``axes``."""
    return _fft_core("irfftn", FftType.IRFFT, a, s, axes, norm)


def fft2(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str | None = None) -> Any:
    """The two-dimensional discrete Fourier transform over ``axes``."""
    return _fft_core("fft2", FftType.FFT, a, s, _two_axes("fft2", axes), norm)


def ifft2(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str | None = None) -> Any:
    """The two-dimensional inverse discrete Fourier transform over ``axes``."""
    return _fft_core("ifft2", FftType.IFFT, a, s, _two_axes("ifft2", axes), norm)


def rfft2(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str | None = None) -> Any:
    """The two-dimensional transform of real input over ``axes``."""
    return _fft_core("rfft2", FftType.RFFT, a, s, _two_axes("rfft2", axes), norm)


def irfft2(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str | None = None) -> Any:
    """The inverse of ``rfft2``."""
    return _fft_core("irfft2", FftType.IRFFT, a, s, _two_axes("irfft2", axes), norm)


def _check_spacing(func_name: str, d: Any) -> None:
    if isinstance(d, (list, tuple)):
        raise ValueError(f"The d argument of jax.numpy.fft.{func_name} only takes a single value. Got d = {list(d)}.")


def _computation_dtype(dtype: np.dtype) -> np.dtype:
    """The float dtype frequencies of ``dtype`` are computed in, as JAX's: itself when floating, else float64 for
    64-bit integers and complex128 and float32 for the rest."""
    if dtypes.issubdtype(dtype, np.floating):
        return dtype
    bits = dtype.itemsize * (4 if dtypes.issubdtype(dtype, np.complexfloating) else 8)
    return np.dtype(np.float64 if bits == 64 else np.float32)


def _check_length(func_name: str, n: Any) -> None:
    if isinstance(n, (list, tuple)):
        raise ValueError(f"The n argument of jax.numpy.fft.{func_name} only takes an int. Got n = {list(n)}.")


def fftfreq(n: int, d: Any = 1.0, *, dtype: Any = None, device: Any = None) -> Any:
    """The sample frequencies of an ``n``-point transform with sample spacing ``d``: ``[0, 1, ..., -1] / (d n)``.

    They are computed in ``dtype`` when it is a real floating type, else in a float of its width (float32 or
    float64) and converted. As JAX's, the steps are ``arange``, ``astype``, ``array`` and ``astype``: a 64-bit
    ``dtype`` with x64 off warns in each."""
    dtype = dtypes.default_float_dtype() if dtype is None else dtype
    _check_length("fftfreq", n)
    _check_spacing("fftfreq", d)
    float_dtype = _computation_dtype(dtypes.dtype(dtype, canonicalize=False))
    k = remainder(arange(n, dtype=float_dtype) + n // 2, n) - n // 2
    result = k.astype(float_dtype) / array(d * n, dtype=float_dtype, device=device)
    return result.astype(dtype)


def rfftfreq(n: int, d: Any = 1.0, *, dtype: Any = None, device: Any = None) -> Any:
    """The non-negative sample frequencies of an ``n``-point ``rfft``: ``[0, 1, ..., n // 2] / (d n)``."""
    dtype = dtypes.default_float_dtype() if dtype is None else dtype
    _check_length("rfftfreq", n)
    _check_spacing("rfftfreq", d)
    half = n // 2 if n % 2 == 0 else (n - 1) // 2  # as JAX's: a traced n fails converting the parity to bool
    return arange(0, half + 1, dtype=dtype) / array(d * n, dtype=dtype, device=device)


def _shift(func_name: str, x: Any, axes: None | int | Sequence[int], sign: int) -> Any:
    check_scalar_arraylike(func_name, x)
    arr = asarray(x)
    shape = get_aval(arr).shape
    if axes is None:
        axes = tuple(range(len(shape)))
        shift = [sign * (size // 2) for size in shape]
    elif isinstance(axes, int):
        shift = sign * (shape[axes] // 2)
    else:
        shift = [sign * (shape[axis] // 2) for axis in axes]
    return roll(arr, shift, axes)


def fftshift(x: Any, axes: None | int | Sequence[int] = None) -> Any:
    """``x`` with the zero-frequency term moved to the centre of ``axes`` (every axis by default)."""
    return _shift("fftshift", x, axes, 1)


def ifftshift(x: Any, axes: None | int | Sequence[int] = None) -> Any:
    """The inverse of ``fftshift``."""
    return _shift("ifftshift", x, axes, -1)
