"""``jax.scipy.signal``'s n-dimensional convolutions and correlations: direct (one ``conv_general_dilated``) or
through FFTs, with SciPy's 'full', 'same' and 'valid' output regions."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core.avals import get_aval
from jaxle_core.batching import vmap
from jaxle_core.lax import convolution as lax_convolution
from jaxle_core.lax import slicing as lax_slicing
from jaxle_numpy.util import canonicalize_axis, check_arraylike, promote_dtypes_inexact

__all__ = ["convolve", "correlate", "convolve2d", "correlate2d", "fftconvolve"]

_MODES = ["full", "same", "valid"]


def _operands(fun_name: str, in1: Any, in2: Any, promote: bool = True) -> tuple[Any, Any]:
    """The operands as arrays of one rank, promoted to a common inexact type unless ``promote`` is False (the
    direct convolution promotes them itself)."""
    check_arraylike(fun_name, in1, in2)
    in1, in2 = jnp.asarray(in1), jnp.asarray(in2)
    if promote:
        in1, in2 = promote_dtypes_inexact(in1, in2)
    if get_aval(in1).ndim != get_aval(in2).ndim:
        raise ValueError("in1 and in2 must have the same number of dimensions")
    return in1, in2


def _direct(in1: Any, in2: Any, mode: str, precision: Any) -> Any:
    """The convolution of ``in1`` and ``in2`` as one ``conv_general_dilated`` over every axis, the operands
    swapped (as JAX does) when ``in1`` is nowhere larger; 'same' keeps ``in1``'s shape."""
    in1, in2 = promote_dtypes_inexact(in1, in2)
    shape1, shape2 = get_aval(in1).shape, get_aval(in2).shape
    if mode == "valid" and not (all(a >= b for a, b in zip(shape1, shape2))
                                or all(a <= b for a, b in zip(shape1, shape2))):
        raise ValueError("For 'valid' mode, one must be at least as large as the other in every dimension")
    out_shape = shape1
    if all(a <= b for a, b in zip(shape1, shape2)):
        in1, in2 = in2, in1
        shape1, shape2 = shape2, shape1
    padding = []
    for n, k, out in zip(shape1, shape2, out_shape):
        if mode == "full":
            padding.append((k - 1, k - 1))
        elif mode == "same":
            start = (n + k - 1 - out) // 2  # where the centred region starts in the full convolution
            padding.append((k - 1 - start, out - n + start))
        else:
            padding.append((0, 0))
    kernel = jnp.flip(in2)
    out = lax_convolution.conv_general_dilated(in1[None, None], kernel[None, None], (1,) * len(shape1), padding,
                                               precision=precision)
    return out[0, 0]


def _checked_mode(mode: str) -> str:
    if mode not in _MODES:
        raise ValueError(f"mode must be one of {_MODES}")
    return mode


def _checked_method(method: str) -> str:
    if method not in ("auto", "fft", "direct"):
        raise ValueError(f"Got {method=}; expected 'auto', 'fft', or 'direct'.")
    return method


def convolve(in1: Any, in2: Any, mode: str = "full", method: str = "auto", precision: Any = None) -> Any:
    """The n-dimensional convolution of ``in1`` and ``in2`` ('full', 'same' as ``in1``, or 'valid'); ``method``
    'fft' computes it through FFTs."""
    _checked_mode(mode)
    if _checked_method(method) == "fft":
        return fftconvolve(in1, in2, mode=mode)
    in1, in2 = _operands("convolve", in1, in2, promote=False)
    if get_aval(in1).size == 0 or get_aval(in2).size == 0:
        raise ValueError("convolve: inputs cannot be empty")
    return _direct(in1, in2, mode, precision)


def correlate(in1: Any, in2: Any, mode: str = "full", method: str = "auto", precision: Any = None) -> Any:
    """The n-dimensional cross-correlation of ``in1`` and ``in2``: the convolution of ``in1`` with ``in2``
    reversed and conjugated."""
    _checked_mode(mode)
    _checked_method(method)
    in1, in2 = _operands("correlate", in1, in2, promote=False)
    return convolve(in1, jnp.flip(jnp.conj(in2)), mode=mode, method=method, precision=precision)


def _check_2d(fun_name: str, in1: Any, in2: Any, boundary: str, fillvalue: Any) -> tuple[Any, Any]:
    if boundary != "fill" or fillvalue != 0:
        raise NotImplementedError(f"{fun_name}() only supports boundary='fill', fillvalue=0")
    in1, in2 = _operands(fun_name, in1, in2, promote=False)
    if get_aval(in1).ndim != 2:
        raise ValueError(f"{fun_name}() only supports 2-dimensional inputs.")
    return in1, in2


def convolve2d(in1: Any, in2: Any, mode: str = "full", boundary: str = "fill", fillvalue: Any = 0,
               precision: Any = None) -> Any:
    """The 2-dimensional convolution of ``in1`` and ``in2`` (zero-filled boundaries)."""
    in1, in2 = _check_2d("convolve2d", in1, in2, boundary, fillvalue)
    return _direct(in1, in2, _checked_mode(mode), precision)


def correlate2d(in1: Any, in2: Any, mode: str = "full", boundary: str = "fill", fillvalue: Any = 0,
                precision: Any = None) -> Any:
    """The 2-dimensional cross-correlation of ``in1`` and ``in2`` (zero-filled boundaries): the convolution of
    the reversed ``in1`` with the conjugated ``in2``, reversed back (the operands' roles swapped, as SciPy
    does, when ``in1`` is the smaller in every axis)."""
    in1, in2 = _check_2d("correlate2d", in1, in2, boundary, fillvalue)
    mode = _checked_mode(mode)
    shape1, shape2 = get_aval(in1).shape, get_aval(in2).shape
    swap = all(a <= b for a, b in zip(shape1, shape2)) and mode != "same"
    if swap and mode == "valid" and shape1 == shape2:
        swap = False
    if swap:
        result = _direct(jnp.flip(in2), in1.conj(), mode, precision)
        return result.conj() if mode == "full" else result
    return jnp.flip(_direct(jnp.flip(in1), in2.conj(), mode, precision))


def _fftconvolve_unbatched(in1: Any, in2: Any, mode: str) -> Any:
    """The convolution of ``in1`` and ``in2`` over all their axes through FFTs of the full size (the operands
    swapped for 'valid' when ``in1`` is nowhere larger), cut to ``mode``'s region by one ``dynamic_slice``."""
    shape1, shape2 = get_aval(in1).shape, get_aval(in2).shape
    full_shape = tuple(s1 + s2 - 1 for s1, s2 in zip(shape1, shape2))
    if mode == "valid":
        no_swap = all(s1 >= s2 for s1, s2 in zip(shape1, shape2))
        swap = all(s1 <= s2 for s1, s2 in zip(shape1, shape2))
        if not (no_swap or swap):
            raise ValueError("For 'valid' mode, One input must be at least as large as the other in every "
                             "dimension.")
        if swap:
            in1, in2 = in2, in1
            shape1, shape2 = shape2, shape1
    if all(s1 == 1 or s2 == 1 for s1, s2 in zip(shape1, shape2)):
        conv = in1 * in2
    else:
        fft, ifft = (jnp.fft.fftn, jnp.fft.ifftn) if jnp.iscomplexobj(in1) else (jnp.fft.rfftn, jnp.fft.irfftn)
        conv = ifft(fft(in1, full_shape) * fft(in2, full_shape), full_shape)
    if mode == "full":
        out_shape = full_shape
    elif mode == "same":
        out_shape = shape1
    else:
        out_shape = tuple(s1 - s2 + 1 for s1, s2 in zip(shape1, shape2))
    starts = tuple((full - out) // 2 for full, out in zip(full_shape, out_shape))
    return lax_slicing.dynamic_slice(conv, starts, out_shape)


def fftconvolve(in1: Any, in2: Any, mode: str = "full", axes: Sequence[int] | None = None) -> Any:
    """The convolution of ``in1`` and ``in2`` through FFTs over ``axes`` (all by default); the other axes, of
    equal sizes, are mapped over (each of their entries convolved separately)."""
    check_arraylike("fftconvolve", in1, in2)
    in1, in2 = promote_dtypes_inexact(in1, in2)
    ndim = get_aval(in1).ndim
    if ndim != get_aval(in2).ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    _checked_mode(mode)
    convolve_fft = functools.partial(_fftconvolve_unbatched, mode=mode)
    if axes is None:
        return convolve_fft(in1, in2)
    axes = tuple(canonicalize_axis(axis, ndim) for axis in ((axes,) if np.ndim(axes) == 0 else axes))
    mapped = set(range(ndim)) - set(axes)
    shape1, shape2 = get_aval(in1).shape, get_aval(in2).shape
    if any(shape1[i] != shape2[i] for i in mapped):
        raise ValueError(f"mapped axes must have same shape; got in1.shape={shape1} in2.shape={shape2} {axes=}")
    for axis in sorted(mapped):
        convolve_fft = vmap(convolve_fft, in_axes=axis, out_axes=axis)
    return convolve_fft(in1, in2)
