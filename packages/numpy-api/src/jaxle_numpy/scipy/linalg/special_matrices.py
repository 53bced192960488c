"""``jax.scipy.linalg``'s constructors of structured matrices: block diagonal, Toeplitz, Hankel, circulant,
companion forms, convolution and DFT matrices, and the classic test matrices (Hilbert, Pascal, Hadamard, Helmert,
Leslie, Fiedler)."""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core.avals import get_aval
from jaxle_core.lax import convolution_patches as lax_convolution_patches
from jaxle_core.lax import structural as lax_structural
from jaxle_core.lax.dot import Precision
from jaxle_numpy.scipy.special import gammaln
from jaxle_numpy.util import check_arraylike, named_jit, promote_dtypes

__all__ = ["block_diag", "toeplitz", "hankel", "circulant", "companion", "fiedler", "fiedler_companion",
           "convolution_matrix", "dft", "hilbert", "invhilbert", "pascal", "invpascal", "hadamard", "helmert",
           "leslie"]


@named_jit("block_diag")
def block_diag(*arrs: Any) -> Any:
    """The block diagonal matrix with the given arrays (scalars and vectors count as one row) on its diagonal."""
    if not arrs:
        return jnp.zeros((1, 0))
    check_arraylike("block_diag", *arrs)
    blocks = [jnp.atleast_2d(a) for a in promote_dtypes(*arrs)]
    for block in blocks:
        if get_aval(block).ndim != 2:
            raise ValueError("Arguments to jax.scipy.linalg.block_diag must have at most 2 dimensions, got "
                             f"{jnp.shape(block)} at argument.")
    widths = [get_aval(b).shape[1] for b in blocks]
    total, left = sum(widths), 0
    rows = []
    zero = jnp.zeros((), get_aval(blocks[0]).dtype)
    for block, width in zip(blocks, widths):
        rows.append(lax_structural.pad(block, zero, ((0, 0, 0), (left, total - left - width, 0))))
        left += width
    return jnp.concatenate(rows, axis=0)


def _vector(fun_name: str, *args: Any) -> list[Any]:
    check_arraylike(fun_name, *args)
    return [jnp.atleast_1d(a) for a in promote_dtypes(*args)]


def _hankel_diagonals(first_column: Any, last_row: Any) -> Any:
    """The matrix constant along anti-diagonals read from its first column and last row (their shared corner
    taken from the column); leading axes batch."""
    m, n = get_aval(first_column).shape[-1], get_aval(last_row).shape[-1]
    # entry (i, j) is c[i + j] while i + j < m, then r[i + j - m + 1]
    values = jnp.concatenate([first_column, last_row[..., 1:]], axis=-1)
    return values[..., np.arange(m)[:, None] + np.arange(n)[None, :]]


@functools.partial(jnp.vectorize, signature="(m),(n)->(m,n)")
def _toeplitz(first_column: Any, first_row: Any) -> Any:
    """One Toeplitz matrix: the windows of length ``n`` sliding over the reversed column followed by the row's
    tail (one patches convolution), last window first."""
    m, n = get_aval(first_column).shape[0], get_aval(first_row).shape[0]
    if m == 0 or n == 0:
        return jnp.empty((m, n), jnp.result_type(first_column, first_row))
    values = jnp.concatenate([first_column[::-1], first_row[1:]])
    windows = lax_convolution_patches.conv_general_dilated_patches(
        values.reshape((1, m + n - 1, 1)), (n,), (1,), "VALID", dimension_numbers=("NTC", "IOT", "NTC"),
        precision=Precision.HIGHEST)[0]
    return jnp.flip(windows, axis=0)


def toeplitz(c: Any, r: Any = None) -> Any:
    """The Toeplitz matrix with first column ``c`` and first row ``r`` (``conj(c)`` when not given: Hermitian)."""
    if r is None:
        check_arraylike("toeplitz", c)
        r = jnp.conjugate(jnp.asarray(c))
    else:
        check_arraylike("toeplitz", c, r)
    return _toeplitz(jnp.atleast_1d(c), jnp.atleast_1d(r))


def hankel(c: Any, r: Any = None) -> Any:
    """The Hankel matrix with first column ``c`` and last row ``r`` (zeros below the anti-diagonal when not
    given)."""
    if r is None:
        c, = _vector("hankel", c)
        r = jnp.zeros_like(c)
    else:
        c, r = _vector("hankel", c, r)
    return _hankel_diagonals(c, r)


def circulant(c: Any) -> Any:
    """The circulant matrix with first column ``c`` (each column the previous one rolled down by one)."""
    c, = _vector("circulant", c)
    n = get_aval(c).shape[-1]
    return c[..., (np.arange(n)[:, None] - np.arange(n)[None, :]) % n]


def _leading_normalized(fun_name: str, a: Any) -> Any:
    a, = _vector(fun_name, a)
    if get_aval(a).shape[-1] < 2:
        raise ValueError(f"The length of `a` along the last axis must be at least 2; got shape {jnp.shape(a)}.")
    a = a.astype(jnp.result_type(a, 1.0))
    return a[..., 1:] / a[..., :1]


def companion(a: Any) -> Any:
    """The companion matrix of the polynomial with coefficients ``a`` (highest power first): first row
    ``-a[1:] / a[0]``, ones on the subdiagonal."""
    tail = _leading_normalized("companion", a)
    n = get_aval(tail).shape[-1]
    shift = jnp.eye(n - 1, n, dtype=tail.dtype)
    return jnp.concatenate([-tail[..., None, :], jnp.broadcast_to(shift, (*get_aval(tail).shape[:-1], n - 1, n))],
                           axis=-2)


def fiedler(a: Any) -> Any:
    """The symmetric Fiedler matrix ``|a[i] - a[j]|``."""
    a, = _vector("fiedler", a)
    return jnp.abs(a[..., :, None] - a[..., None, :])


def fiedler_companion(a: Any) -> Any:
    """The pentadiagonal Fiedler companion matrix of the polynomial with coefficients ``a`` (highest power first),
    with the companion matrix's eigenvalues."""
    tail = _leading_normalized("fiedler_companion", a)
    if get_aval(tail).ndim != 1:
        raise ValueError("fiedler_companion expects a 1-D array of coefficients.")
    n = get_aval(tail).shape[0]
    # Coefficient k (a[k] / a[0], k = 1..n) and the unit entries sit on a fixed pentadiagonal pattern.
    coefficient = np.arange(1, n + 1)
    rows = np.concatenate([[0], np.arange(2, n, 2), np.arange(0, n - 1, 2)])
    cols = np.concatenate([[0], np.arange(1, n - 1, 2), np.arange(1, n, 2)])
    picks = np.concatenate([[1], coefficient[2::2][:len(range(2, n, 2))], coefficient[1::2][:len(range(0, n - 1, 2))]])
    matrix = jnp.zeros((n, n), tail.dtype).at[rows, cols].set(-tail[picks - 1])
    one_rows = np.concatenate([[1] if n > 1 else [], np.arange(3, n, 2), np.arange(0, n - 2, 2)]).astype(int)
    one_cols = np.concatenate([[0] if n > 1 else [], np.arange(1, n - 2, 2), np.arange(2, n, 2)]).astype(int)
    return matrix.at[one_rows, one_cols].set(1)


def convolution_matrix(a: Any, n: int, mode: str = "full") -> Any:
    """The matrix ``A`` with ``A @ v == np.convolve(a, v, mode)`` for vectors ``v`` of length ``n``."""
    if mode not in ("full", "valid", "same"):
        raise ValueError(f"mode must be one of 'full', 'valid', 'same'; got {mode!r}.")
    a, = _vector("convolution_matrix", a)
    if get_aval(a).ndim != 1:
        raise ValueError("convolution_matrix expects a 1-dimensional input")
    k = get_aval(a).shape[0]
    full = toeplitz(jnp.concatenate([a, jnp.zeros(n - 1, a.dtype)]), jnp.zeros(n, a.dtype))
    if mode == "full":
        return full
    if mode == "same":
        start = (min(n, k) - 1) // 2
        return full[start:start + max(n, k)]
    start = min(n, k) - 1
    return full[start:max(n, k)]


def dft(n: int, scale: str | None = None, *, dtype: Any = None) -> Any:
    """The ``n x n`` discrete Fourier transform matrix (scaled by ``1/sqrt(n)`` or ``1/n`` per ``scale``)."""
    if scale not in (None, "sqrtn", "n"):
        raise ValueError(f"scale must be None, 'sqrtn', or 'n'; got {scale!r}.")
    dtype = jnp.result_type(1j) if dtype is None else dtype
    k = np.arange(n)
    angles = jnp.asarray(-2 * np.pi * ((k[:, None] * k[None, :]) % max(n, 1)) / max(n, 1),
                         dtype=jnp.finfo(dtype).dtype)
    matrix = jnp.exp(1j * angles).astype(dtype)
    if scale == "sqrtn":
        return matrix / math.sqrt(n)
    if scale == "n":
        return matrix / n
    return matrix


@named_jit("hilbert", ("n",))
def hilbert(n: int) -> Any:
    """The ``n x n`` Hilbert matrix ``1 / (i + j + 1)``."""
    k = lax_structural.broadcasted_iota(jnp.result_type(1.0), (n, 1), 0)
    return 1.0 / (k + k.T + 1)


def _log_binomial(n: Any, k: Any) -> Any:
    return gammaln(n + 1) - gammaln(k + 1) - gammaln(n - k + 1)


def invhilbert(n: int) -> Any:
    """The inverse of the ``n x n`` Hilbert matrix, from its closed form in binomial coefficients."""
    k = jnp.arange(n, dtype=jnp.result_type(1.0))
    i, j = k[:, None], k[None, :]
    sign = jnp.where((i + j) % 2 == 0, 1.0, -1.0)
    log_magnitude = (jnp.log(i + j + 1) + _log_binomial(n + i, n - j - 1) + _log_binomial(n + j, n - i - 1)
                     + 2 * _log_binomial(i + j, i))
    return sign * jnp.exp(log_magnitude)


_PASCAL_KINDS = ["symmetric", "lower", "upper"]


def pascal(n: int, kind: str | None = None) -> Any:
    """The ``n x n`` Pascal matrix of binomial coefficients: 'symmetric' (default), 'lower' or 'upper'."""
    kind = "symmetric" if kind is None else kind
    if kind not in _PASCAL_KINDS:
        raise ValueError(f"Expected kind to be on of: {_PASCAL_KINDS}; got {kind}")
    k = jnp.arange(n, dtype=jnp.result_type(1.0))
    i, j = k[:, None], k[None, :]
    if kind == "symmetric":
        return jnp.exp(_log_binomial(i + j, i))
    lower = jnp.where(i >= j, jnp.exp(_log_binomial(i, jnp.minimum(i, j))), 0.0)
    return lower if kind == "lower" else lower.T


def invpascal(n: int, kind: str | None = None) -> Any:
    """The inverse of ``pascal(n, kind)``."""
    kind = "symmetric" if kind is None else kind
    if kind not in _PASCAL_KINDS:
        raise ValueError(f"Expected kind to be on of: {_PASCAL_KINDS}; got {kind}")
    k = jnp.arange(n, dtype=jnp.result_type(1.0))
    i, j = k[:, None], k[None, :]
    lower = jnp.where(i >= j, jnp.where((i + j) % 2 == 0, 1.0, -1.0) * jnp.exp(_log_binomial(i, jnp.minimum(i, j))),
                      0.0)
    if kind == "lower":
        return lower
    if kind == "upper":
        return lower.T
    return jnp.matmul(lower.T, lower, precision="highest")


def hadamard(n: int, dtype: Any = int) -> Any:
    """The ``n x n`` Sylvester Hadamard matrix of +1/-1 (``n`` a power of two)."""
    if n < 1 or n & (n - 1):
        raise ValueError(f"n must be a positive power of 2; got {n}.")
    bits = np.arange(n)
    parity = np.bitwise_count(bits[:, None] & bits[None, :]).astype(np.int64) % 2
    return jnp.asarray(1 - 2 * parity, dtype=dtype)


def helmert(n: int, full: bool = False) -> Any:
    """The orthogonal Helmert matrix of order ``n`` (without its constant first row unless ``full``)."""
    k = jnp.arange(1, n, dtype=jnp.result_type(1.0))
    scale = 1 / jnp.sqrt(k * (k + 1))
    cols = np.arange(n)[None, :]
    rows = np.arange(1, n)[:, None]
    body = jnp.where(cols < rows, scale[:, None], jnp.where(cols == rows, -k[:, None] * scale[:, None], 0.0))
    if not full:
        return body
    return jnp.concatenate([jnp.full((1, n), 1 / math.sqrt(n), body.dtype), body], axis=0)


def leslie(f: Any, s: Any) -> Any:
    """The Leslie matrix: fecundities ``f`` in the first row, survival rates ``s`` on the subdiagonal."""
    check_arraylike("leslie", f, s)
    f, s = promote_dtypes(jnp.asarray(f), jnp.asarray(s))
    if get_aval(f).ndim != 1 or get_aval(s).ndim != 1 or get_aval(s).shape[0] != get_aval(f).shape[0] - 1:
        raise ValueError(f"Incorrect shapes for leslie: f.shape={jnp.shape(f)}, s.shape={jnp.shape(s)}")
    n = get_aval(f).shape[0]
    survival = jnp.concatenate([jnp.diag(s), jnp.zeros((n - 1, 1), f.dtype)], axis=1)
    return jnp.concatenate([f[None, :], survival], axis=0)
