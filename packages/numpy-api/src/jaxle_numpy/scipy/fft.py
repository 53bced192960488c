"""``jax.scipy.fft``: the type-2 discrete cosine transform and its inverse, in one and several dimensions, computed
through one complex FFT of a reordered sequence (Makhoul's method)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core.avals import get_aval
from jaxle_numpy.util import check_arraylike, promote_dtypes_inexact

__all__ = ["dct", "idct", "dctn", "idctn"]


def _check(fun_name: str, type: int, norm: str | None) -> None:  # noqa: A002 - SciPy's name
    if type != 2:
        raise NotImplementedError("Only DCT type 2 is implemented.")
    if norm is not None and norm not in ("ortho",):
        raise ValueError(f"jax.scipy.fft.{fun_name}: {norm=!r} is not implemented")


def _resized(x: Any, n: int | None, axis: int) -> Any:
    """``x`` truncated or zero-padded to length ``n`` along ``axis``."""
    if n is None:
        return x
    length = get_aval(x).shape[axis]
    if n <= length:
        return jnp.take(x, np.arange(n), axis=axis)
    widths = [(0, 0)] * get_aval(x).ndim
    widths[axis] = (0, n - length)
    return jnp.pad(x, widths)


def _twiddle(n: int, sign: float, dtype: Any) -> Any:
    """``exp(sign * i * pi * k / (2 n))`` for ``k = 0..n-1``."""
    k = jnp.arange(n, dtype=jnp.finfo(dtype).dtype).astype(dtype)
    return jnp.exp(sign * (np.pi / 2) * 1j * k / n)


def _ortho_scale(n: int, axis: int, ndim: int, dtype: Any) -> Any:
    """The factors turning the unnormalized DCT-II into the orthonormal one along ``axis``."""
    scale = np.full(n, np.sqrt(1 / (2 * n)))
    scale[0] = np.sqrt(1 / (4 * n))
    shape = [1] * ndim
    shape[axis] = n
    return jnp.asarray(scale.reshape(shape), dtype=dtype)


def _dct_axis(x: Any, axis: int, norm: str | None) -> Any:
    x = jnp.moveaxis(x, axis, -1)
    n = get_aval(x).shape[-1]
    reordered = jnp.concatenate([x[..., ::2], jnp.flip(x[..., 1::2], -1)], axis=-1)
    spectrum = jnp.fft.fft(reordered)
    result = 2 * jnp.real(spectrum * _twiddle(n, -1.0, spectrum.dtype))
    if norm == "ortho":
        result = result * _ortho_scale(n, -1, get_aval(result).ndim, result.dtype)
    return jnp.moveaxis(result, -1, axis)


def _idct_axis(x: Any, axis: int, norm: str | None) -> Any:
    x = jnp.moveaxis(x, axis, -1)
    n = get_aval(x).shape[-1]
    if norm == "ortho":
        x = x / _ortho_scale(n, -1, get_aval(x).ndim, x.dtype)
    # Undo the DCT-II: rebuild the FFT of the reordered sequence from the cosine coefficients.
    mirrored = jnp.concatenate([jnp.zeros_like(x[..., :1]), jnp.flip(x[..., 1:], -1)], axis=-1)
    spectrum = (x - 1j * mirrored) * _twiddle(n, 1.0, jnp.result_type(x, 1j)) / 2
    reordered = jnp.real(jnp.fft.ifft(spectrum))
    result = jnp.zeros_like(reordered)
    result = result.at[..., ::2].set(reordered[..., :(n + 1) // 2])
    result = result.at[..., 1::2].set(jnp.flip(reordered[..., (n + 1) // 2:], -1))
    return jnp.moveaxis(result, -1, axis)


def _operand(fun_name: str, x: Any) -> Any:
    check_arraylike(f"jax.scipy.fft.{fun_name}", x)
    x, = promote_dtypes_inexact(jnp.asarray(x))
    return x


def dct(x: Any, type: int = 2, n: int | None = None, axis: int = -1, norm: str | None = None) -> Any:  # noqa: A002
    """The type-2 discrete cosine transform along ``axis`` (``x`` cut or zero-padded to ``n``; ``norm='ortho'``
    for the orthonormal transform)."""
    _check("dct", type, norm)
    x = _resized(_operand("dct", x), n, axis)
    return _dct_axis(x, axis, norm)


def idct(x: Any, type: int = 2, n: int | None = None, axis: int = -1, norm: str | None = None) -> Any:  # noqa: A002
    """The inverse of ``dct`` along ``axis``."""
    _check("idct", type, norm)
    x = _resized(_operand("idct", x), n, axis)
    return _idct_axis(x, axis, norm)


def _axes_and_sizes(x: Any, s: Sequence[int] | None, axes: Sequence[int] | None) -> list[tuple[int, int | None]]:
    ndim = get_aval(x).ndim
    if axes is None:
        axes = range(ndim) if s is None else range(ndim - len(s), ndim)
    axes = [a % ndim for a in axes]
    if s is not None and len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    return list(zip(axes, [None] * len(axes) if s is None else s))


def _along_axes(fun_name: str, transform: Callable[[Any, int, str | None], Any], x: Any, type: int,  # noqa: A002
                s: Sequence[int] | None, axes: Sequence[int] | None, norm: str | None) -> Any:
    """``transform`` applied along each of ``axes`` in turn, ``x`` cut or zero-padded to ``s`` first."""
    _check(fun_name, type, norm)
    x = _operand(fun_name, x)
    for axis, n in _axes_and_sizes(x, s, axes):
        x = transform(_resized(x, n, axis), axis, norm)
    return x


def dctn(x: Any, type: int = 2, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,  # noqa: A002
         norm: str | None = None) -> Any:
    """The type-2 discrete cosine transform over several axes (all by default), one axis after another."""
    return _along_axes("dctn", _dct_axis, x, type, s, axes, norm)


def idctn(x: Any, type: int = 2, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,  # noqa: A002
          norm: str | None = None) -> Any:
    """The inverse of ``dctn``."""
    return _along_axes("idctn", _idct_axis, x, type, s, axes, norm)
