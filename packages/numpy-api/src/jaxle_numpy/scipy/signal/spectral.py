"""``jax.scipy.signal``'s spectral analysis: detrending, the short-time Fourier transform and its inverse, and
Welch's averaged periodograms (power and cross spectral densities), all on one windowed-FFT helper as JAX 0.10.2
computes them (its Hann window built in jnp, other named windows SciPy's)."""

from __future__ import annotations

import functools
import math
import operator
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import dtypes, lax
from jaxle_core.avals import get_aval
from jaxle_core.batching import vmap
from jaxle_core.core import concrete_or_error
from jaxle_core.lax.dot import Precision
from jaxle_numpy.util import (
    canonicalize_axis,
    check_arraylike,
    ensure_arraylike,
    promote_dtypes_complex,
    promote_dtypes_inexact,
)

__all__ = ["detrend", "stft", "istft", "csd", "welch"]


def detrend(data: Any, axis: int = -1, type: str = "linear", bp: Any = 0,  # noqa: A002 - SciPy's name
            overwrite_data: None = None) -> Any:
    """``data`` less its least-squares line along ``axis`` ('linear', piecewise between the breakpoints ``bp``)
    or its mean ('constant')."""
    if overwrite_data is not None:
        raise NotImplementedError("overwrite_data argument not implemented.")
    if type not in ("constant", "linear"):
        raise ValueError("Trend type must be 'linear' or 'constant'.")
    data, = promote_dtypes_inexact(jnp.asarray(data))
    if type == "constant":
        return data - data.mean(axis, keepdims=True)
    n = get_aval(data).shape[axis]
    breakpoints = np.unique(np.r_[0, bp, n])
    if breakpoints[0] < 0 or breakpoints[-1] > n:
        raise ValueError("Breakpoints must be non-negative and less than length of data along given axis.")
    data = jnp.moveaxis(data, axis, 0)
    shape = get_aval(data).shape
    data = data.reshape(n, -1)
    for start, stop in zip(breakpoints[:-1], breakpoints[1:]):
        length = stop - start
        # Each piece's columns fitted by a + b t, t running over (1..length) / length.
        design = jnp.vstack([jnp.ones(length, dtype=data.dtype),
                             jnp.arange(1, length + 1, dtype=data.dtype) / length]).T
        piece = slice(start, stop)
        coefficients = jnp.linalg.lstsq(design, data[piece])[0]
        data = data.at[piece].add(-jnp.matmul(design, coefficients, precision=Precision.HIGHEST))
    return jnp.moveaxis(data.reshape(shape), 0, axis)


def _hann(n: int) -> Any:
    return jnp.array([1.0]) if n == 1 else jnp.sin(jnp.linspace(0, np.pi, n, endpoint=False)) ** 2


def _named_window(window: str | tuple, n: int) -> Any:
    """The ``n``-point window named ``window``: the periodic Hann window computed in jnp, others SciPy's."""
    if window == "hann":
        return _hann(n)
    import scipy.signal  # imported on first use: it takes seconds, and `import jaxle` reaches this module

    return scipy.signal.get_window(window, n)


def _triage_segments(window: Any, nperseg: int | None, input_length: int, dtype: Any) -> tuple[Any, int]:
    """The window as an array of ``dtype`` and the segment length: a named window has ``nperseg`` points (the
    whole signal by default, and at most), an array window fixes the length."""
    if isinstance(window, (str, tuple)):
        nperseg_int = input_length if nperseg is None else int(nperseg)
        if nperseg_int > input_length:
            warnings.warn(f"nperseg={nperseg_int} is greater than {input_length=}, using nperseg={input_length}",
                          stacklevel=4)
            nperseg_int = input_length
        return jnp.array(_named_window(window, nperseg_int), dtype=dtype), nperseg_int
    win = jnp.asarray(window, dtype=dtype)
    nperseg_int = win.size if nperseg is None else int(nperseg)
    if win.ndim != 1:
        raise ValueError("window must be 1-D")
    if input_length < win.size:
        raise ValueError("window is longer than input signal")
    if nperseg_int != win.size:
        raise ValueError("value specified for nperseg is different from length of window")
    return win, nperseg_int


def _median_bias(n: int) -> Any:
    """The expected ratio of the median to the mean of ``n`` chi-squared(2) periodogram values."""
    even = jnp.arange(2., n, 2)
    return 1 + jnp.sum(1. / (even + 1) - 1. / even)


def _fft_helper(x: Any, win: Any, detrend_func: Callable[[Any], Any], nperseg: int, noverlap: int,
                nfft: int | None, sides: str) -> Any:
    """The FFTs of ``x``'s overlapping segments along its last axis (..., segments, frequencies), each detrended
    and windowed first."""
    if x.dtype.kind == "i":
        x = x.astype(win.dtype)
    *batch_shape, signal_length = x.shape
    if nperseg == 1 and noverlap == 0:
        result = x[..., np.newaxis]
    else:
        starts = jnp.arange(signal_length - nperseg + 1, step=nperseg - noverlap)
        result = vmap(lambda start: lax.dynamic_slice_in_dim(x, start, nperseg, axis=-1), out_axes=-2)(starts)
    result = detrend_func(result)
    if jnp.iscomplexobj(win):
        result, = promote_dtypes_complex(result)
    result = win.reshape((1,) * len(batch_shape) + (1, nperseg)) * result
    if sides == "twosided":
        return jnp.fft.fft(result, n=nfft)
    return jnp.fft.rfft(result.real, n=nfft)


def _odd_extension(x: Any, n: int, axis: int = -1) -> Any:
    """``x`` extended by ``n`` points at both ends along ``axis`` by odd reflection about its end points."""
    if n < 1:
        return x
    if n > x.shape[axis] - 1:
        raise ValueError(f"The extension length n ({n}) is too big. It must not exceed x.shape[axis]-1, which is "
                         f"{x.shape[axis] - 1}.")
    left_end = lax.slice_in_dim(x, 0, 1, axis=axis)
    left_ext = jnp.flip(lax.slice_in_dim(x, 1, n + 1, axis=axis), axis=axis)
    right_end = lax.slice_in_dim(x, -1, None, axis=axis)
    right_ext = jnp.flip(lax.slice_in_dim(x, -(n + 1), -1, axis=axis), axis=axis)
    return jnp.concatenate((2 * left_end - left_ext, x, 2 * right_end - right_ext), axis=axis)


def _padding(mode: str, **options: Any) -> Callable[..., Any]:
    def pad(x: Any, n: int, axis: int = -1) -> Any:
        widths = [(0, 0)] * x.ndim
        widths[axis] = (n, n)
        return jnp.pad(x, widths, mode, **options)
    return pad


# How the signal is extended by half a segment at each end before its segments are taken.
_BOUNDARIES: dict[Any, Callable[..., Any]] = {
    "even": _padding("reflect"), "odd": _odd_extension, "constant": _padding("edge"),
    "zeros": _padding("constant", constant_values=0.0), None: lambda x, *args, **kwargs: x}


def _zeros_padded(x: Any, like: Any, extra: int) -> Any:
    """``x`` with ``extra`` zeros (of ``like``'s dtype) appended along its last axis."""
    return jnp.concatenate((x, jnp.zeros_like(like, shape=(*x.shape[:-1], extra))), axis=-1)


def _detrend_function(detrend_type: Any, axis: int) -> Callable[[Any], Any]:
    if isinstance(detrend_type, str):
        return functools.partial(detrend, type=detrend_type, axis=-1)
    if callable(detrend_type):
        if axis == -1:
            return detrend_type

        def along_axis(d: Any) -> Any:
            return jnp.moveaxis(detrend_type(jnp.moveaxis(d, axis, -1)), -1, axis)
        return along_axis
    if not detrend_type:
        return lambda d: d
    raise ValueError(f"Unsupported detrend type: {detrend_type}")


def _spectral_helper(x: Any, y: Any, fs: Any = 1.0, window: Any = "hann", nperseg: int | None = None,
                     noverlap: int | None = None, nfft: int | None = None, detrend_type: Any = "constant",
                     return_onesided: bool = True, scaling: str = "density", axis: int = -1, mode: str = "psd",
                     boundary: str | None = None, padded: bool = False) -> tuple[Any, Any, Any]:
    """``(freqs, times, result)``: the scaled windowed FFTs of ``x``'s segments along ``axis`` (``mode='stft'``),
    their periodograms (``'psd'``), or with ``y`` the cross periodograms ``conj(X) Y``; the frequency axis where
    ``axis`` was, the segments last."""
    if mode not in ("psd", "stft"):
        raise ValueError(f"Unknown value for mode {mode}, must be one of: ('psd', 'stft')")
    if boundary not in _BOUNDARIES:
        raise ValueError(f"Unknown boundary option '{boundary}', must be one of: {list(_BOUNDARIES.keys())}")
    axis = canonicalize_axis(concrete_or_error(axis, "axis of windowed-FFT"), jnp.ndim(x))
    if y is None:
        check_arraylike("spectral_helper", x)
        x, = promote_dtypes_inexact(x)
        y_arr = x
        outer_shape = x.shape[:axis] + x.shape[axis + 1:]
    else:
        if mode != "psd":
            raise ValueError("two-argument mode is available only when mode=='psd'")
        check_arraylike("spectral_helper", x, y)
        x, y_arr = promote_dtypes_inexact(x, y)
        if x.ndim != y_arr.ndim:
            raise ValueError("two-arguments must have the same rank ({x.ndim} vs {y.ndim}).")
        try:
            outer_shape = jnp.broadcast_shapes(x.shape[:axis] + x.shape[axis + 1:],
                                               y_arr.shape[:axis] + y_arr.shape[axis + 1:])
        except ValueError as err:
            raise ValueError("x and y cannot be broadcast together.") from err
    result_dtype = dtypes.to_complex_dtype(x.dtype)
    freq_dtype = np.finfo(result_dtype).dtype

    if nperseg is not None:
        nperseg = int(concrete_or_error(nperseg, "nperseg of windowed-FFT"))
        if nperseg < 1:
            raise ValueError("nperseg must be a positive integer")
    win, nperseg_int = _triage_segments(window, nperseg, input_length=x.shape[axis], dtype=x.dtype)
    noverlap_int = (nperseg_int // 2 if noverlap is None
                    else int(concrete_or_error(noverlap, "noverlap of windowed-FFT")))
    nfft_int = nperseg_int if nfft is None else int(concrete_or_error(nfft, "nfft of windowed-FFT"))

    if x.size == 0 or (y is not None and y_arr.size == 0):
        shape = x.shape if y is None else (*outer_shape[:axis], min(x.shape[axis], y_arr.shape[axis]),
                                           *outer_shape[axis:])
        return jnp.zeros(shape, freq_dtype), jnp.zeros(shape, freq_dtype), jnp.zeros(shape, result_dtype)

    x = jnp.moveaxis(x, axis, -1)
    if y is not None and y_arr.ndim > 1:
        y_arr = jnp.moveaxis(y_arr, axis, -1)
    if y is not None and x.shape[-1] != y_arr.shape[-1]:  # the shorter one zero-padded
        if x.shape[-1] < y_arr.shape[-1]:
            x = _zeros_padded(x, x, y_arr.shape[-1] - x.shape[-1])
        else:
            y_arr = _zeros_padded(y_arr, x, x.shape[-1] - y_arr.shape[-1])

    if nfft_int < nperseg_int:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    if noverlap_int >= nperseg_int:
        raise ValueError("noverlap must be less than nperseg.")
    nstep = nperseg_int - noverlap_int
    if boundary is not None:
        extend = _BOUNDARIES[boundary]
        x = extend(x, nperseg_int // 2, axis=-1)
        if y is not None:
            y_arr = extend(y_arr, nperseg_int // 2, axis=-1)
    if padded:  # zeros up to a whole number of segments
        extra = (-(x.shape[-1] - nperseg_int) % nstep) % nperseg_int
        x = _zeros_padded(x, x, extra)
        if y is not None:
            y_arr = _zeros_padded(y_arr, x, extra)
    detrend_func = _detrend_function(detrend_type, axis)

    if scaling == "density":
        scale = 1.0 / (fs * (win * win).sum())
    elif scaling == "spectrum":
        scale = 1.0 / win.sum() ** 2
    else:
        raise ValueError(f"Unknown scaling: {scaling}")
    if mode == "stft":
        scale = jnp.sqrt(scale)
    scale, = promote_dtypes_complex(scale)

    sides = "onesided" if return_onesided else "twosided"
    if return_onesided and (jnp.iscomplexobj(x) or jnp.iscomplexobj(y)):
        sides = "twosided"
        warnings.warn("Input data is complex, switching to return_onesided=False", stacklevel=3)
    if sides == "twosided":
        freqs = jnp.fft.fftfreq(nfft_int, 1 / fs, dtype=freq_dtype)
    else:
        freqs = jnp.fft.rfftfreq(nfft_int, 1 / fs, dtype=freq_dtype)

    result = _fft_helper(x, win, detrend_func, nperseg_int, noverlap_int, nfft_int, sides)
    if y is not None:
        result_y = _fft_helper(y_arr, win, detrend_func, nperseg_int, noverlap_int, nfft_int, sides)
        result = jnp.conjugate(result) * result_y
    elif mode == "psd":
        result = jnp.conjugate(result) * result
    result = result * scale
    if sides == "onesided" and mode == "psd":  # the negative frequencies' power folded onto the positive ones
        result = result.at[..., 1:None if nfft_int % 2 else -1].mul(2)

    time = jnp.arange(nperseg_int / 2, x.shape[-1] - nperseg_int / 2 + 1, nperseg_int - noverlap_int,
                      dtype=freq_dtype) / fs
    if boundary is not None:
        time = time - (nperseg_int / 2) / fs
    result = result.astype(result_dtype)
    if y is None and mode != "stft":
        result = result.real
    return freqs, time, jnp.moveaxis(result, -1, axis)


def stft(x: Any, fs: Any = 1.0, window: Any = "hann", nperseg: int = 256, noverlap: int | None = None,
         nfft: int | None = None, detrend: Any = False, return_onesided: bool = True,  # noqa: F811 - SciPy's name
         boundary: str | None = "zeros", padded: bool = True, axis: int = -1) -> tuple[Any, Any, Any]:
    """``(f, t, Zxx)``: the short-time Fourier transform of ``x`` along ``axis`` — the windowed FFT of each
    ``nperseg``-long segment (``noverlap`` shared with the next), scaled by the window's sum; the signal is first
    extended at both ends (``boundary``) and zero-padded to whole segments (``padded``)."""
    return _spectral_helper(x, None, fs, window, nperseg, noverlap, nfft, detrend, return_onesided,
                            scaling="spectrum", axis=axis, mode="stft", boundary=boundary, padded=padded)


def csd(x: Any, y: Any, fs: Any = 1.0, window: Any = "hann", nperseg: int | None = None,
        noverlap: int | None = None, nfft: int | None = None, detrend: Any = "constant",  # noqa: F811
        return_onesided: bool = True, scaling: str = "density", axis: int = -1,
        average: str = "mean") -> tuple[Any, Any]:
    """``(f, Pxy)``: the cross spectral density of ``x`` and ``y`` by Welch's method — the average ('median' or
    'mean') over overlapping windowed segments of ``conj(X) Y``, scaled per ``scaling`` ('density' or
    'spectrum')."""
    freqs, _, pxy = _spectral_helper(x, y, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling,
                                     axis, mode="psd")
    if y is not None:
        pxy = pxy + 0j  # complex even when x is y
    if pxy.ndim >= 2 and pxy.size > 0:
        if pxy.shape[-1] > 1:
            if average == "median":
                bias = _median_bias(pxy.shape[-1]).astype(pxy.dtype)
                if jnp.iscomplexobj(pxy):
                    pxy = jnp.median(jnp.real(pxy), axis=-1) + 1j * jnp.median(jnp.imag(pxy), axis=-1)
                else:
                    pxy = jnp.median(pxy, axis=-1)
                pxy = pxy / bias
            elif average == "mean":
                pxy = pxy.mean(axis=-1)
            else:
                raise ValueError(f'average must be "median" or "mean", got {average}')
        else:
            pxy = jnp.reshape(pxy, pxy.shape[:-1])
    return freqs, pxy


def welch(x: Any, fs: Any = 1.0, window: Any = "hann", nperseg: int | None = None, noverlap: int | None = None,
          nfft: int | None = None, detrend: Any = "constant", return_onesided: bool = True,  # noqa: F811
          scaling: str = "density", axis: int = -1, average: str = "mean") -> tuple[Any, Any]:
    """``(f, Pxx)``: the power spectral density of ``x`` by Welch's method (``csd`` of ``x`` alone)."""
    freqs, pxx = csd(x, None, fs=fs, window=window, nperseg=nperseg, noverlap=noverlap, nfft=nfft, detrend=detrend,
                     return_onesided=return_onesided, scaling=scaling, axis=axis, average=average)
    return freqs, pxx.real


def _overlap_and_add(x: Any, step_size: int) -> Any:
    """The frames of ``x`` (..., frames, frame_length), each shifted ``step_size`` further than the last, summed:
    every frame cut into ``step_size`` pieces, the pieces of the same offset laid end to end and the layers
    added."""
    check_arraylike("_overlap_and_add", x)
    step_size = operator.index(concrete_or_error(step_size, "step_size for overlap_and_add"))
    if x.ndim < 2:
        raise ValueError("Input must have (..., frames, frame_length) shape.")
    *batch_shape, frames, frame_length = x.shape
    batch = math.prod(batch_shape)
    x = x.reshape((batch, frames, frame_length))
    output_size = step_size * (frames - 1) + frame_length
    pieces = 1 + (frame_length - 1) // step_size
    x = jnp.pad(x, ((0, 0), (0, 0), (0, pieces * step_size - frame_length)))
    x = x.reshape((batch, frames, pieces, step_size))
    x = x.transpose((0, 2, 1, 3))  # (batch, pieces, frames, step)
    x = jnp.pad(x, ((0, 0), (0, 0), (0, frames), (0, 0)))  # a frame of zeros after each, so the rows shift
    shrunken = x.shape[2] - 1
    x = x.reshape((batch, -1))[:, :(pieces * shrunken * step_size)]
    x = x.reshape((batch, pieces, shrunken * step_size))
    x = x.sum(axis=1)[:, :output_size]
    return x.reshape(tuple(batch_shape) + (-1,))


def istft(Zxx: Any, fs: Any = 1.0, window: Any = "hann", nperseg: int | None = None,  # noqa: N803 - SciPy's name
          noverlap: int | None = None, nfft: int | None = None, input_onesided: bool = True, boundary: bool = True,
          time_axis: int = -1, freq_axis: int = -2) -> tuple[Any, Any]:
    """``(t, x)``: the signal whose ``stft`` (same parameters) is ``Zxx``, by overlap-adding the inverse FFTs of
    its segments, weighted by the window and normalized by the overlapping windows' energy."""
    Zxx = ensure_arraylike("istft", Zxx)  # noqa: N806
    if Zxx.ndim < 2:
        raise ValueError("Input stft must be at least 2d!")
    freq_axis = canonicalize_axis(freq_axis, Zxx.ndim)
    time_axis = canonicalize_axis(time_axis, Zxx.ndim)
    if freq_axis == time_axis:
        raise ValueError("Must specify differing time and frequency axes!")
    Zxx = jnp.asarray(Zxx, dtype=dtypes.to_complex_dtype(Zxx.dtype))  # noqa: N806
    n_default = 2 * (Zxx.shape[freq_axis] - 1) if input_onesided else Zxx.shape[freq_axis]
    nperseg_int = int(concrete_or_error(nperseg or n_default, "nperseg: segment length of STFT"))
    if nperseg_int < 1:
        raise ValueError("nperseg must be a positive integer")
    if nfft is None:
        nfft_int = n_default + 1 if input_onesided and nperseg_int == n_default + 1 else n_default
    else:
        nfft_int = int(concrete_or_error(nfft, "nfft of STFT"))
    if nfft_int < nperseg_int:
        raise ValueError(f"FFT length ({nfft_int}) must be longer than nperseg ({nperseg_int}).")
    noverlap_int = int(concrete_or_error(noverlap or nperseg_int // 2, "noverlap of STFT"))
    if noverlap_int >= nperseg_int:
        raise ValueError("noverlap must be less than nperseg.")
    nstep = nperseg_int - noverlap_int
    if time_axis != Zxx.ndim - 1 or freq_axis != Zxx.ndim - 2:
        outer = tuple(i for i in range(Zxx.ndim) if i not in {time_axis, freq_axis})
        Zxx = jnp.transpose(Zxx, outer + (freq_axis, time_axis))  # noqa: N806

    inverse = jnp.fft.irfft if input_onesided else jnp.fft.ifft
    xsubs = inverse(Zxx, axis=-2, n=nfft)[..., :nperseg_int, :]  # JAX passes the nfft given
    if isinstance(window, (str, tuple)):
        win = jnp.array(_named_window(window, nperseg_int), dtype=xsubs.dtype) if window != "hann" else (
            _hann(nperseg_int).astype(xsubs.dtype))
    else:
        win = jnp.asarray(window)
        if len(win.shape) != 1:
            raise ValueError("window must be 1-D")
        if win.shape[0] != nperseg_int:
            raise ValueError(f"window must have length of {nperseg_int}")
    xsubs = xsubs * win.sum()  # the 'spectrum' scaling undone

    win = lax.expand_dims(win, (*range(xsubs.ndim - 2), -1))
    x = _overlap_and_add((xsubs * win).swapaxes(-2, -1), nstep)
    norm = _overlap_and_add(jnp.repeat((win * win), xsubs.shape[-1], axis=-1).swapaxes(-2, -1), nstep)
    if boundary:
        x = x[..., nperseg_int // 2:-(nperseg_int // 2)]
        norm = norm[..., nperseg_int // 2:-(nperseg_int // 2)]
    x = x / jnp.where(norm > 1e-10, norm, 1.0)
    if x.ndim > 1 and time_axis != Zxx.ndim - 1:
        if freq_axis < time_axis:
            time_axis -= 1
        x = jnp.moveaxis(x, -1, time_axis)
    # As SciPy (and JAX): the times count the first axis of the result, the samples only for a 1-d signal.
    return jnp.arange(x.shape[0], dtype=np.finfo(x.dtype).dtype) / fs, x
