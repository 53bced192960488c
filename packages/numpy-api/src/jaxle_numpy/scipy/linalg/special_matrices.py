"""``jax.scipy.linalg``'s constructors of structured matrices: block diagonal, Toeplitz, Hankel, circulant,
companion forms, convolution and DFT matrices, and the classic test matrices (Hilbert, Pascal, Hadamard, Helmert,
Leslie, Fiedler)."""

from __future__ import annotations

import functools
import math
import operator
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import dtypes
from jaxle_core.avals import get_aval
from jaxle_core.lax import convolution_patches as lax_convolution_patches
from jaxle_core.lax import elementwise as lax_elementwise
from jaxle_core.lax import slicing as lax_slicing
from jaxle_core.lax import special as lax_special
from jaxle_core.lax import structural as lax_structural
from jaxle_core.lax.dot import Precision
from jaxle_numpy.scipy.special import comb
from jaxle_numpy.util import check_arraylike, named_jit, promote_args_inexact, promote_dtypes

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


@functools.partial(jnp.vectorize, signature="(m),(n)->(m,n)")
def _toeplitz(first_column: Any, first_row: Any) -> Any:
    """One Toeplitz matrix: the windows of length ``n`` sliding over the reversed column followed by the row's
    tail (one patches convolution), last window first."""
    m, n = get_aval(first_column).shape[0], get_aval(first_row).shape[0]
    if m == 0 or n == 0:
        return jnp.empty((m, n), jnp.promote_types(first_column.dtype, first_row.dtype))
    return jnp.flip(_windows(jnp.concatenate((first_column[::-1], first_row[1:])), n), axis=0)


def _windows(values: Any, width: int) -> Any:
    """The windows of ``width`` consecutive ``values`` (rows), as one patches convolution."""
    return lax_convolution_patches.conv_general_dilated_patches(
        values.reshape((1, get_aval(values).shape[0], 1)), (width,), (1,), "VALID",
        dimension_numbers=("NTC", "IOT", "NTC"), precision=Precision.HIGHEST)[0]


def toeplitz(c: Any, r: Any = None) -> Any:
    """The Toeplitz matrix with first column ``c`` and first row ``r`` (``conj(c)`` when not given: Hermitian)."""
    if r is None:
        check_arraylike("toeplitz", c)
        r = jnp.conjugate(jnp.asarray(c))
    else:
        check_arraylike("toeplitz", c, r)
    return _toeplitz(jnp.atleast_1d(jnp.asarray(c)), jnp.atleast_1d(jnp.asarray(r)))


def hankel(c: Any, r: Any = None) -> Any:
    """The Hankel matrix with first column ``c`` and last row ``r`` (zeros below the anti-diagonal when not
    given); leading axes batch."""
    if r is None:
        check_arraylike("hankel", c)
        c = jnp.asarray(c)
        r = jnp.zeros_like(c)
    else:
        check_arraylike("hankel", c, r)
        c, r = jnp.asarray(c), jnp.asarray(r)
    for name, operand in (("c", c), ("r", r)):
        if get_aval(operand).ndim == 0:
            raise ValueError(f"hankel: {name} must be at least 1-dimensional, got a scalar.")
    c_ndim, r_ndim = get_aval(c).ndim, get_aval(r).ndim
    if c_ndim < r_ndim:  # equal ranks, so that vectorize broadcasts without promoting ranks
        c = lax_structural.expand_dims(c, range(r_ndim - c_ndim))
    elif r_ndim < c_ndim:
        r = lax_structural.expand_dims(r, range(c_ndim - r_ndim))
    return _hankel(c, r)


@functools.partial(jnp.vectorize, signature="(m),(n)->(m,n)")
def _hankel(first_column: Any, last_row: Any) -> Any:
    """One Hankel matrix: the windows of length ``n`` sliding over the column followed by the row's tail."""
    m, n = get_aval(first_column).shape[0], get_aval(last_row).shape[0]
    if m == 0 or n == 0:
        return jnp.empty((m, n), dtype=jnp.result_type(first_column, last_row))
    return _windows(jnp.concatenate((first_column, last_row[1:])), n)


def circulant(c: Any) -> Any:
    """The circulant matrix with first column ``c`` (each column the previous one rolled down by one)."""
    check_arraylike("circulant", c)
    return _circulant(jnp.atleast_1d(jnp.asarray(c)))


@functools.partial(jnp.vectorize, signature="(n)->(n,n)")
def _circulant(column: Any) -> Any:
    n = get_aval(column).shape[0]
    return column[(jnp.arange(n)[:, None] - jnp.arange(n)[None, :]) % n]


def _polynomial(fun_name: str, a: Any) -> Any:
    """The coefficients ``a`` as an inexact array of at least one dimension."""
    a, = promote_args_inexact(fun_name, a)
    return jnp.atleast_1d(a)


def companion(a: Any) -> Any:
    """The companion matrix of the polynomial with coefficients ``a`` (highest power first): first row
    ``-a[1:] / a[0]``, ones on the subdiagonal."""
    a = _polynomial("companion", a)
    if get_aval(a).shape[-1] < 2:
        raise ValueError(f"The length of `a` along the last axis must be at least 2; got shape {jnp.shape(a)}.")
    return _companion(a)


@functools.partial(jnp.vectorize, signature="(n)->(m,m)")
def _companion(a: Any) -> Any:
    top = -a[1:] / a[0]
    m = get_aval(a).shape[0] - 1
    return jnp.eye(m, m, k=-1, dtype=top.dtype).at[0].set(top)


def fiedler(a: Any) -> Any:
    """The symmetric Fiedler matrix ``|a[i] - a[j]|``."""
    check_arraylike("fiedler", a)
    a = jnp.atleast_1d(a)
    return jnp.abs(a[..., None] - a[..., None, :])


def fiedler_companion(a: Any) -> Any:
    """The pentadiagonal Fiedler companion matrix of the polynomial with coefficients ``a`` (highest power first),
    with the companion matrix's eigenvalues; leading axes batch."""
    a = _polynomial("fiedler_companion", a)
    if get_aval(a).shape[-1] == 0:
        raise ValueError("fiedler_companion requires the last axis of 'a' to have nonzero length, but got an array "
                         f"of shape {jnp.shape(a)}.")
    return _fiedler_companion(a)


@functools.partial(jnp.vectorize, signature="(n)->(m,m)")
def _fiedler_companion(a: Any) -> Any:
    """One Fiedler companion matrix, selected entry by entry over the whole grid: ``-a[1]`` and a one down the
    first column's top, then along the rows of even index ``-a[i+2]`` and a one right of the diagonal, and
    ``-a[i+1]`` left of it; along the odd rows from the fourth a one two left of the diagonal."""
    n = get_aval(a).shape[0] - 1
    if n == 0:
        return jnp.empty_like(a, shape=(0, 0))
    a = a / a[0]
    if n == 1:
        return -a[1:].reshape(1, 1)
    i, j = jnp.arange(n)[:, None], jnp.arange(n)[None, :]
    above = -a[jnp.minimum(i + 2, n)]  # indices clipped; the masks keep only valid cells
    below = -a[jnp.minimum(i + 1, n)]
    even, odd = i % 2 == 0, i % 2 == 1
    one, zero = jnp.array(1, dtype=a.dtype), jnp.array(0, dtype=a.dtype)
    masks = [(i == 0) & (j == 0), (i == 1) & (j == 0), (j == i + 1) & even, (j == i + 2) & even,
             (j == i - 1) & even & (i >= 2), (j == i - 2) & odd & (i >= 3)]
    return jnp.select(masks, [-a[1], one, above, one, below, one], default=zero)


@named_jit("convolution_matrix", ("n", "mode"))
def convolution_matrix(a: Any, n: int, mode: str = "full") -> Any:
    """The matrix ``A`` with ``A @ v == np.convolve(a, v, mode)`` for vectors ``v`` of length ``n``; leading axes
    of ``a`` batch."""
    n = operator.index(n)
    if n <= 0:
        raise ValueError(f"n must be a positive integer; got {n}.")
    check_arraylike("convolution_matrix", a)
    a = jnp.asarray(a)
    if get_aval(a).ndim == 0:
        raise ValueError("convolution_matrix: a must be at least 1-dimensional, got a scalar.")
    m = get_aval(a).shape[-1]
    if m < 1:
        raise ValueError(f"len(a) must be at least 1; got shape {jnp.shape(a)}.")
    if mode not in ("full", "valid", "same"):
        raise ValueError(f"mode must be one of 'full', 'valid', 'same'; got {mode!r}.")
    widths = [(0, 0)] * (get_aval(a).ndim - 1) + [(0, n - 1)]
    padded = jnp.pad(a, widths)
    padded_reversed = jnp.pad(jnp.flip(a, axis=-1), widths)
    length = m + n - 1
    if mode == "same":
        trimmed = min(n, m) - 1
        before, after = trimmed // 2, trimmed - trimmed // 2
    elif mode == "valid":
        before = after = min(n, m) - 1
    else:
        before = after = 0
    column = lax_slicing.slice_in_dim(padded, before, length - after, axis=-1)
    row = lax_slicing.slice_in_dim(padded_reversed, length - n - before, length - before, axis=-1)
    return toeplitz(column, row)


@named_jit("dft", ("n", "scale", "dtype"))
def dft(n: int, scale: str | None = None, *, dtype: Any = None) -> Any:
    """The ``n x n`` discrete Fourier transform matrix (scaled by ``1/sqrt(n)`` or ``1/n`` per ``scale``)."""
    if scale is not None and scale not in ("sqrtn", "n"):
        raise ValueError(f"scale must be None, 'sqrtn', or 'n'; got {scale!r}.")
    if dtype is None:
        dtype = dtypes.default_complex_dtype()
    else:
        dtype = dtypes.check_user_dtype(dtype, "dft")
        if not dtypes.issubdtype(dtype, np.complexfloating):
            raise ValueError(f"dtype must be a complex floating-point type; got {dtype}.")
    k = jnp.arange(n, dtype=dtype)
    matrix = jnp.exp(-2j * np.pi * k[:, None] * k[None, :] / n)
    if scale == "sqrtn":
        return matrix / jnp.sqrt(n)
    if scale == "n":
        return matrix / n
    return matrix


@named_jit("hilbert", ("n",))
def hilbert(n: int) -> Any:
    """The ``n x n`` Hilbert matrix ``1 / (i + j + 1)``."""
    k = lax_structural.broadcasted_iota(jnp.result_type(1.0), (n, 1), 0)
    return 1.0 / (k + k.T + 1)


@named_jit("invhilbert", ("n",))
def invhilbert(n: int) -> Any:
    """The inverse of the ``n x n`` Hilbert matrix, from its closed form in binomial coefficients."""
    k = jnp.arange(n, dtype=dtypes.default_float_dtype())
    i, j = k[:, None], k[None, :]
    total = i + j
    return (-1.0) ** total * (total + 1.0) * comb(n + i, n - j - 1) * comb(n + j, n - i - 1) * comb(total, i) ** 2


@named_jit("_binom")
def _binomial(n: Any, k: Any) -> Any:
    """``n choose k`` through ``lgamma``."""
    top = lax_special.lgamma(n + 1.0)
    rest = lax_special.lgamma(n - k + 1.0)
    chosen = lax_special.lgamma(k + 1.0)
    return lax_elementwise.exp(top - rest - chosen)


_PASCAL_KINDS = ["symmetric", "lower", "upper"]


@named_jit("pascal", ("n", "kind"))
def pascal(n: int, kind: str | None = None) -> Any:
    """The ``n x n`` Pascal matrix of binomial coefficients: 'symmetric' (default), 'lower' or 'upper'."""
    kind = "symmetric" if kind is None else kind
    if kind not in _PASCAL_KINDS:
        raise ValueError(f"Expected kind to be on of: {_PASCAL_KINDS}; got {kind}")
    k = jnp.arange(n, dtype=np.float32)  # float32 even with 64-bit types, as JAX's
    lower = _binomial(k[:, None], k[None, :])
    if kind == "lower":
        return lower
    if kind == "upper":
        return lower.T
    return jnp.dot(lower, lower.T)


@named_jit("invpascal", ("n", "kind"))
def invpascal(n: int, kind: str | None = None) -> Any:
    """The inverse of ``pascal(n, kind)``: the lower factor's inverse is ``(-1)^(i-j) binom(i, j)``."""
    kind = "symmetric" if kind is None else kind
    if kind not in _PASCAL_KINDS:
        raise ValueError(f"Expected kind to be one of: {_PASCAL_KINDS}; got {kind}")
    k = jnp.arange(n, dtype=dtypes.default_float_dtype())
    i, j = k[:, None], k[None, :]
    lower = (-1.0) ** (i - j) * _binomial(i, j)
    if kind == "lower":
        return lower
    if kind == "upper":
        return lower.T
    return jnp.dot(lower.T, lower)


@named_jit("helmert", ("n", "full"))
def helmert(n: int, full: bool = False) -> Any:
    """The orthogonal Helmert matrix of order ``n`` (without its constant first row unless ``full``)."""
    if n < 1:
        raise ValueError(f"n must be a positive integer; got {n}.")
    i, j = jnp.arange(n - 1)[:, None], jnp.arange(n)[None, :]
    k = i + 1
    k_float = k.astype(dtypes.default_float_dtype())
    norm = jnp.sqrt(k_float * (k_float + 1))
    body = jnp.where(j <= i, 1.0 / norm, jnp.where(j == k, -k_float / norm, jnp.zeros_like(norm)))
    if not full:
        return body
    return jnp.concatenate([jnp.full((1, n), 1.0 / jnp.sqrt(n), dtype=body.dtype), body], axis=0)


@named_jit("hadamard", ("n", "dtype"))
def hadamard(n: int, dtype: Any = int) -> Any:
    """The ``n x n`` Sylvester Hadamard matrix of +1/-1 (``n`` a power of two), doubled block by block."""
    if n < 1 or not math.log2(n).is_integer():
        raise ValueError(f"n must be a positive power of 2; got {n}.")
    matrix = jnp.ones((1, 1), dtype=dtype)
    for _ in range(int(math.log2(n))):
        matrix = jnp.block([[matrix, matrix], [matrix, -matrix]])
    return matrix


def leslie(f: Any, s: Any) -> Any:
    """The Leslie matrix: fecundities ``f`` in the first row, survival rates ``s`` on the subdiagonal; leading
    axes batch."""
    check_arraylike("leslie", f, s)
    f, s = jnp.atleast_1d(f), jnp.atleast_1d(s)
    if get_aval(f).shape[-1] < 2:
        raise ValueError(f"The length of f along the last axis must be at least 2; got shape {jnp.shape(f)}.")
    if get_aval(s).shape[-1] != get_aval(f).shape[-1] - 1:
        raise ValueError("Incorrect lengths for f and s. The length of s along the last axis must be one less than "
                         f"the length of f; got f shape {jnp.shape(f)} and s shape {jnp.shape(s)}.")
    return _leslie(f, s)


@functools.partial(jnp.vectorize, signature="(n),(m)->(n,n)")
def _leslie(f: Any, s: Any) -> Any:
    f, s = promote_dtypes(f, s)
    return jnp.diag(s, k=-1).at[0].set(f)
