"""``jax.scipy.fft``: the type-2 discrete cosine transform and its inverse, in one and several dimensions, computed
through complex FFTs of the even-then-reversed-odd reordering of the input (Makhoul's method), as JAX stages them:
``dctn`` transforms pairs of axes with one two-dimensional FFT, ``idctn`` one axis after another."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core.avals import get_aval
from jaxle_core.lax import creation as lax_creation
from jaxle_core.lax import elementwise as lax_elementwise
from jaxle_core.lax import slicing as lax_slicing
from jaxle_core.lax import structural as lax_structural
from jaxle_numpy.util import canonicalize_axis, check_arraylike, promote_dtypes_inexact

__all__ = ["dct", "idct", "dctn", "idctn"]


def _split_complex(transform: Callable[..., Any], x: Any, *args: Any) -> Any:
    """``transform`` of a complex ``x``: of its real and imaginary parts separately."""
    return lax_elementwise.complex(transform(jnp.real(x), *args), transform(jnp.imag(x), *args))


def _check(fun_name: str, type: int, norm: str | None) -> None:  # noqa: A002 - SciPy's name
    if type != 2:
        raise NotImplementedError("Only DCT type 2 is implemented.")
    if norm is not None and norm not in ("ortho",):
        raise ValueError(f"jax.scipy.fft.{fun_name}: {norm=!r} is not implemented")


def _padded(x: Any, sizes: dict[int, int]) -> Any:
    """``x`` zero-padded (or cut, by negative padding) at the end of each axis in ``sizes`` to that size."""
    shape = get_aval(x).shape
    config = [(0, sizes[a] - shape[a] if a in sizes else 0, 0) for a in range(len(shape))]
    return lax_structural.pad(x, np.zeros((), get_aval(x).dtype), config)


def _along(axis: int, ndim: int, values: Any) -> Any:
    """The vector ``values`` laid along ``axis`` of an ``ndim``-dimensional array (unit length elsewhere)."""
    return lax_structural.expand_dims(values, [a for a in range(ndim) if a != axis])


def _twiddle(n: int, k: Any) -> Any:
    """``exp(-i pi k / (2 n))``."""
    return jnp.exp(-0.5j * np.pi * k / n)


def _interleaved(x: Any, axis: int) -> Any:
    """The even-indexed entries along ``axis`` followed by the odd-indexed ones reversed."""
    n = get_aval(x).shape[axis]
    evens = lax_slicing.slice_in_dim(x, 0, n, 2, axis)
    odds = lax_structural.rev(lax_slicing.slice_in_dim(x, 1, n, 2, axis), (axis,))
    return lax_structural.concatenate([evens, odds], axis)


def _deinterleaved(x: Any, axis: int) -> Any:
    """The inverse of ``_interleaved``: the first half back to the even indices, the reversed rest to the odd."""
    n = get_aval(x).shape[axis]
    half = (n + 1) // 2
    shape = get_aval(x).shape
    evens = lax_slicing.slice(x, (0,) * len(shape), (*shape[:axis], half, *shape[axis + 1:]))
    odds = lax_slicing.slice(x, (0,) * axis + (half,) + (0,) * (len(shape) - axis - 1), shape)
    odds = lax_structural.rev(odds, (axis,))
    before = (slice(None),) * axis
    out = jnp.zeros_like(x)
    out = out.at[(*before, slice(None, None, 2))].set(evens)
    return out.at[(*before, slice(1, None, 2))].set(odds)


def _ortho_normalized(x: Any, axis: int) -> Any:
    """``x`` divided along ``axis`` by ``sqrt(4 n)`` at index 0 and ``sqrt(2 n)`` elsewhere."""
    n = get_aval(x).shape[axis]
    dtype = get_aval(x).dtype
    factor = lax_structural.concatenate([lax_creation.full((1,), 4, dtype),
                                         lax_creation.full((n - 1,), 2, dtype)], 0)
    factor = _along(axis, get_aval(x).ndim, factor)
    return x / jnp.sqrt(factor * n)


def dct(x: Any, type: int = 2, n: int | None = None, axis: int = -1, norm: str | None = None) -> Any:  # noqa: A002
    """The type-2 discrete cosine transform along ``axis`` (``x`` cut or zero-padded to ``n``; ``norm='ortho'``
    for the orthonormal transform)."""
    check_arraylike("dct", x)
    _check("dct", type, norm)
    if jnp.iscomplexobj(x):
        return _split_complex(dct, x, type, n, axis, norm)
    x = jnp.asarray(x)
    ndim = get_aval(x).ndim
    axis = canonicalize_axis(axis, ndim)
    if n is not None:
        x = _padded(x, {axis: n})
    length = get_aval(x).shape[axis]
    spectrum = jnp.fft.fft(_interleaved(x, axis), axis=axis)
    k = _along(axis, ndim, jnp.arange(length, dtype=jnp.real(spectrum).dtype))
    out = 2 * jnp.real(spectrum * _twiddle(length, k))
    return _ortho_normalized(out, axis) if norm == "ortho" else out


def _dct_pair(x: Any, axes: tuple[int, int], norm: str | None) -> Any:
    """The type-2 transform over two axes at once: one two-dimensional FFT of the doubly reordered input, its
    second axis combined with its own mirror image."""
    first, second = axes
    ndim = get_aval(x).ndim
    n1, n2 = get_aval(x).shape[first], get_aval(x).shape[second]
    spectrum = jnp.fft.fftn(_interleaved(_interleaved(x, first), second), axes=axes)
    k1 = _along(first, ndim, jnp.arange(n1, dtype=spectrum.dtype))
    k2 = _along(second, ndim, jnp.arange(n2, dtype=spectrum.dtype))
    out = _twiddle(n1, k1) * (_twiddle(n2, k2) * spectrum
                              + _twiddle(n2, -k2) * jnp.roll(jnp.flip(spectrum, axis=second), shift=1, axis=second))
    out = 2 * jnp.real(out)
    if norm == "ortho":
        return _ortho_normalized(_ortho_normalized(out, first), second)
    return out


def _sizes(x: Any, s: Sequence[int] | None, axes: Sequence[int] | None) -> tuple[list[int], dict]:
    """The canonical ``axes`` (all by default) and the sizes ``s`` gives the first of them."""
    ndim = get_aval(x).ndim
    if s is not None and len(s) > ndim:
        raise ValueError(f"s must have at most x.ndim ({ndim}) elements, got {len(s)}")
    if axes is None:
        axes = range(ndim) if s is None else range(ndim - len(s), ndim)
    axes = [canonicalize_axis(a, ndim) for a in axes]
    return axes, ({} if s is None else dict(zip(axes, s)))


def _over_axes(name: str, transform_n: Callable, transform_1: Callable, x: Any, type: int,  # noqa: A002
               s: Sequence[int] | None, axes: Sequence[int] | None, norm: str | None) -> tuple[Any, list[int], bool]:
    """The start shared by ``dctn`` and ``idctn``: ``(result, [], True)`` when complex input (each part transformed)
    or one axis (``transform_1`` along it) finishes the work, else ``(x padded to s, axes, False)``."""
    check_arraylike(name, x)
    _check(name, type, norm)
    if jnp.iscomplexobj(x):
        return _split_complex(transform_n, x, type, s, axes, norm), [], True
    x = jnp.asarray(x)
    axes, sizes = _sizes(x, s, axes)
    if len(axes) == 1:
        return transform_1(x, n=sizes.get(axes[0]), axis=axes[0], norm=norm), [], True
    return (_padded(x, sizes) if sizes else x), axes, False


def dctn(x: Any, type: int = 2, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,  # noqa: A002
         norm: str | None = None) -> Any:
    """The type-2 discrete cosine transform over several axes (all by default): pairs of axes through
    two-dimensional FFTs, a last odd one alone."""
    x, axes, done = _over_axes("dctn", dctn, dct, x, type, s, axes, norm)
    if done:
        return x
    while len(axes) >= 2:
        x = _dct_pair(x, (axes[0], axes[1]), norm)
        axes = axes[2:]
    return dct(x, axis=axes[0], norm=norm) if axes else x


def idct(x: Any, type: int = 2, n: int | None = None, axis: int = -1, norm: str | None = None) -> Any:  # noqa: A002
    """The inverse of ``dct`` along ``axis``."""
    check_arraylike("idct", x)
    _check("idct", type, norm)
    if jnp.iscomplexobj(x):
        return _split_complex(idct, x, type, n, axis, norm)
    x, = promote_dtypes_inexact(jnp.asarray(x))
    ndim = get_aval(x).ndim
    axis = canonicalize_axis(axis, ndim)
    if n is not None:
        x = _padded(x, {axis: n})
    length = get_aval(x).shape[axis]
    if norm is None:  # the unnormalized inverse divides by both orthonormal factors
        x = _ortho_normalized(x, axis)
    x = _ortho_normalized(x, axis)
    k = _along(axis, ndim, jnp.arange(length, dtype=get_aval(x).dtype))
    x = x.astype(_twiddle(length, k).dtype)
    x = x / _twiddle(length, k) * 2 * length
    return _deinterleaved(jnp.real(jnp.fft.ifft(x, axis=axis)), axis)


def idctn(x: Any, type: int = 2, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,  # noqa: A002
          norm: str | None = None) -> Any:
    """The inverse of ``dctn``, one axis after another."""
    x, axes, done = _over_axes("idctn", idctn, idct, x, type, s, axes, norm)
    if done:
        return x
    for axis in axes:
        x = idct(x, axis=axis, norm=norm)
    return x
