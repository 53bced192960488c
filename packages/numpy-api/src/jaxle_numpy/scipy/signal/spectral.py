"""``jax.scipy.signal``'s spectral analysis: detrending, the short-time Fourier transform and its inverse, and
Welch's averaged periodograms (power and cross spectral densities). Windows are SciPy's (``get_window``), built
on the host as constants."""

from __future__ import annotations

from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core.avals import get_aval
from jaxle_core.lax.dot import Precision
from jaxle_numpy.util import check_arraylike, promote_dtypes_inexact

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


def _window(window: Any, nperseg: int, dtype: Any) -> Any:
    if isinstance(window, (str, tuple)):
        import scipy.signal  # imported on first use: it takes seconds, and `import jaxle` reaches this module

        values = scipy.signal.get_window(window, nperseg)
    else:
        values = np.asarray(window)
        if values.ndim != 1:
            raise ValueError("window must be 1-D")
        if values.shape[0] != nperseg:
            raise ValueError("value specified for nperseg is different from length of window")
    return jnp.asarray(values, dtype=jnp.finfo(dtype).dtype)


def _segment_sizes(n: int, nperseg: int | None, noverlap: int | None, nfft: int | None,
                   default_nperseg: int) -> tuple[int, int, int]:
    nperseg = min(default_nperseg if nperseg is None else nperseg, n)
    if nperseg < 1:
        raise ValueError("nperseg must be a positive integer")
    noverlap = nperseg // 2 if noverlap is None else noverlap
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    nfft = nperseg if nfft is None else nfft
    if nfft < nperseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    return nperseg, noverlap, nfft


def _segments(x: Any, nperseg: int, step: int) -> Any:
    """The overlapping segments of the last axis: (..., segments, nperseg)."""
    n = get_aval(x).shape[-1]
    count = (n - nperseg) // step + 1
    index = np.arange(count)[:, None] * step + np.arange(nperseg)[None, :]
    return x[..., index]


def _spectra(x: Any, fs: Any, window: Any, nperseg: int, noverlap: int, nfft: int, detrend_type: Any,
             onesided: bool) -> tuple[Any, Any, Any]:
    """The windowed FFTs of ``x``'s segments (..., freqs, segments), with the frequencies, segment centre times
    and the window."""
    step = nperseg - noverlap
    win = _window(window, nperseg, get_aval(x).dtype)
    segments = _segments(x, nperseg, step)
    if detrend_type is not False:
        segments = detrend_type(segments) if callable(detrend_type) else detrend(segments, -1, detrend_type)
    segments = segments * win
    if onesided:
        spectrum = jnp.fft.rfft(segments, nfft)
        freqs = jnp.fft.rfftfreq(nfft, 1 / fs)
    else:
        spectrum = jnp.fft.fft(segments, nfft)
        freqs = jnp.fft.fftfreq(nfft, 1 / fs)
    count = get_aval(segments).shape[-2]
    times = (nperseg / 2 + step * jnp.arange(count)) / fs
    return freqs.astype(jnp.finfo(x.dtype).dtype), times.astype(jnp.finfo(x.dtype).dtype), win, jnp.swapaxes(
        spectrum, -1, -2)


def _real_onesided(x: Any, return_onesided: bool) -> bool:
    return return_onesided and not jnp.iscomplexobj(x)


# How stft extends the signal by half a segment at each end, as jnp.pad arguments.
_BOUNDARY_PADS = {"even": {"mode": "reflect"}, "odd": {"mode": "reflect", "reflect_type": "odd"},
                  "constant": {"mode": "edge"}, "zeros": {"mode": "constant"}, None: {}}


def stft(x: Any, fs: Any = 1.0, window: Any = "hann", nperseg: int = 256, noverlap: int | None = None,
         nfft: int | None = None, detrend: Any = False, return_onesided: bool = True,  # noqa: F811 - SciPy's name
         boundary: str | None = "zeros", padded: bool = True, axis: int = -1) -> tuple[Any, Any, Any]:
    """``(f, t, Zxx)``: the short-time Fourier transform of ``x`` along ``axis`` — the windowed FFT of each
    ``nperseg``-long segment (``noverlap`` shared with the next), scaled by the window's sum; the signal is first
    extended at both ends (``boundary``) and zero-padded to whole segments (``padded``)."""
    check_arraylike("stft", x)
    x, = promote_dtypes_inexact(jnp.asarray(x))
    if boundary not in _BOUNDARY_PADS:
        raise ValueError(f"Unknown boundary option '{boundary}', must be one of: {list(_BOUNDARY_PADS)}")
    x = jnp.moveaxis(x, axis, -1)
    nperseg, noverlap, nfft = _segment_sizes(get_aval(x).shape[-1], nperseg, noverlap, nfft, 256)
    if boundary is not None:
        widths = [(0, 0)] * (get_aval(x).ndim - 1) + [(nperseg // 2, nperseg // 2)]
        x = jnp.pad(x, widths, **_BOUNDARY_PADS[boundary])
    if padded:
        step = nperseg - noverlap
        extra = (-(get_aval(x).shape[-1] - nperseg) % step) % nperseg
        x = jnp.pad(x, [(0, 0)] * (get_aval(x).ndim - 1) + [(0, extra)])
    freqs, times, win, spectrum = _spectra(x, fs, window, nperseg, noverlap, nfft, detrend,
                                           _real_onesided(x, return_onesided))
    if boundary is not None:
        times = times - (nperseg / 2) / fs
    spectrum = spectrum / jnp.sum(win)
    return freqs, times, _restore_axes(spectrum, axis, get_aval(spectrum).ndim)


def _restore_axes(result: Any, axis: int, ndim: int) -> Any:
    """SciPy's layout: the frequency axis where the input's ``axis`` was, the segment axis last."""
    if axis in (-1, ndim - 2):
        return result
    return jnp.moveaxis(result, -2, axis if axis >= 0 else axis - 1)


def istft(Zxx: Any, fs: Any = 1.0, window: Any = "hann", nperseg: int | None = None,  # noqa: N803 - SciPy's name
          noverlap: int | None = None, nfft: int | None = None, input_onesided: bool = True, boundary: bool = True,
          time_axis: int = -1, freq_axis: int = -2) -> tuple[Any, Any]:
    """``(t, x)``: the signal whose ``stft`` (same parameters) is ``Zxx``, by overlap-adding the inverse FFTs of
    its segments, weighted by the window and normalized by the overlapping windows' energy."""
    check_arraylike("istft", Zxx)
    Zxx, = promote_dtypes_inexact(jnp.asarray(Zxx))  # noqa: N806
    ndim = get_aval(Zxx).ndim
    if ndim < 2:
        raise ValueError("Input stft must be at least 2d!")
    if freq_axis % ndim == time_axis % ndim:
        raise ValueError("Must specify differing time and frequency axes!")
    Zxx = jnp.moveaxis(Zxx, (freq_axis % ndim, time_axis % ndim), (-2, -1))  # noqa: N806
    freq_count, segment_count = get_aval(Zxx).shape[-2:]
    nfft = (2 * (freq_count - 1) if input_onesided else freq_count) if nfft is None else nfft
    nperseg = nfft if nperseg is None else nperseg
    if nperseg < 1:
        raise ValueError("nperseg must be a positive integer")
    noverlap = nperseg // 2 if noverlap is None else noverlap
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    step = nperseg - noverlap
    spectra = jnp.swapaxes(Zxx, -1, -2)
    segments = jnp.fft.irfft(spectra, nfft) if input_onesided else jnp.fft.ifft(spectra, nfft)
    win = _window(window, nperseg, get_aval(Zxx).dtype)
    segments = segments[..., :nperseg] * (win * jnp.sum(win))
    length = nperseg + (segment_count - 1) * step
    signal = jnp.zeros((*get_aval(segments).shape[:-2], length), segments.dtype)
    energy = jnp.zeros(length, win.dtype)
    for k in range(segment_count):
        signal = signal.at[..., k * step:k * step + nperseg].add(segments[..., k, :])
        energy = energy.at[k * step:k * step + nperseg].add(win ** 2)
    if boundary:
        signal = signal[..., nperseg // 2:length - nperseg // 2]
        energy = energy[nperseg // 2:length - nperseg // 2]
    signal = signal / jnp.where(energy > 1e-10, energy, 1.0)
    # As SciPy (and JAX): the times count the first axis of the result, the samples only for a 1-d signal.
    times = jnp.arange(get_aval(signal).shape[0], dtype=jnp.finfo(signal.dtype).dtype) / fs
    return times, signal


def _median_bias(n: int) -> float:
    """The expected ratio of the median to the mean of ``n`` chi-squared(2) periodogram values."""
    even = 2 * np.arange(1, (n - 1) // 2 + 1)
    return 1 + float(np.sum(1.0 / (even + 1) - 1.0 / even))


def csd(x: Any, y: Any, fs: Any = 1.0, window: Any = "hann", nperseg: int | None = None,
        noverlap: int | None = None, nfft: int | None = None, detrend: Any = "constant",  # noqa: F811
        return_onesided: bool = True, scaling: str = "density", axis: int = -1,
        average: str = "mean") -> tuple[Any, Any]:
    """``(f, Pxy)``: the cross spectral density of ``x`` and ``y`` by Welch's method — the average ('median', else
    the mean) over overlapping windowed segments of ``conj(X) Y``, scaled per ``scaling`` ('density' or
    'spectrum')."""
    check_arraylike("csd", x, y)
    if scaling not in ("density", "spectrum"):
        raise ValueError(f"Unknown scaling: {scaling}")
    x, y = promote_dtypes_inexact(jnp.asarray(x), jnp.asarray(y))
    x, y = jnp.moveaxis(x, axis, -1), jnp.moveaxis(y, axis, -1)
    n = max(get_aval(x).shape[-1], get_aval(y).shape[-1])
    if nperseg is None and not isinstance(window, (str, tuple)):
        nperseg = np.shape(window)[0]  # an explicit window sets the segment length
    nperseg, noverlap, nfft = _segment_sizes(n, nperseg, noverlap, nfft, 256)
    onesided = _real_onesided(x, return_onesided) and not jnp.iscomplexobj(y)
    freqs, _, win, spectrum_x = _spectra(x, fs, window, nperseg, noverlap, nfft, detrend, onesided)
    spectrum_y = _spectra(y, fs, window, nperseg, noverlap, nfft, detrend, onesided)[3]
    scale = 1.0 / (fs * jnp.sum(win ** 2)) if scaling == "density" else 1.0 / jnp.sum(win) ** 2
    cross = jnp.conj(spectrum_x) * spectrum_y * scale
    if onesided:
        doubled = np.ones(get_aval(cross).shape[-2])
        doubled[1:nfft // 2 + (nfft % 2)] = 2
        cross = cross * jnp.asarray(doubled, dtype=jnp.finfo(cross.dtype).dtype)[:, None]
    count = get_aval(cross).shape[-1]
    if average == "median" and count > 1:
        bias = _median_bias(count)
        if jnp.iscomplexobj(cross):
            cross = (jnp.median(jnp.real(cross), -1) + 1j * jnp.median(jnp.imag(cross), -1)) / bias
        else:
            cross = jnp.median(cross, -1) / bias
    else:
        cross = jnp.mean(cross, -1)
    return freqs, jnp.moveaxis(cross, -1, axis)


def welch(x: Any, fs: Any = 1.0, window: Any = "hann", nperseg: int | None = None, noverlap: int | None = None,
          nfft: int | None = None, detrend: Any = "constant", return_onesided: bool = True,  # noqa: F811
          scaling: str = "density", axis: int = -1, average: str = "mean") -> tuple[Any, Any]:
    """``(f, Pxx)``: the power spectral density of ``x`` by Welch's method (``csd`` of ``x`` with itself)."""
    freqs, power = csd(x, x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis, average)
    return freqs, jnp.real(power)
