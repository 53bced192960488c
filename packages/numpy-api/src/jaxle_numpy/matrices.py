"""Matrices from shapes and diagonals: eye/identity, tri/tril/triu, diag/diagflat, vander, and the index arrays
of diagonals and triangles (diag_indices, tril_indices, mask_indices, ...)."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from jaxle_core import dtypes, lax
from jaxle_core.array import Array
from jaxle_core.avals import canonicalize_shape, get_aval
from jaxle_core.core import Tracer
from jaxle_core.lax import placement
from jaxle_core.lax.structural import convert_keeping_weak_type
from jaxle_numpy.conditional import where
from jaxle_numpy.creation import asarray, ones, zeros
from jaxle_numpy.indexing import scatter_update
from jaxle_numpy.manipulation import diagonal, ravel
from jaxle_numpy.ranges import arange
from jaxle_numpy.selection import nonzero
from jaxle_numpy.ufuncs import power, subtract
from jaxle_numpy.util import (
    check_arraylike,
    check_jitted_arguments,
    check_scalar_arraylike,
    concrete_index,
    named_jit,
    put_staged,
    requested_dtype,
)

__all__ = ["eye", "identity", "tri", "tril", "triu", "diag", "diagflat", "vander", "diag_indices", "diag_indices_from",
           "tril_indices", "triu_indices", "tril_indices_from", "triu_indices_from", "mask_indices"]


def _index_dtype() -> np.dtype:
    """The dtype of the row and column counters: the default integer (int64 with x64), as JAX's."""
    return dtypes.default_int_dtype()


def _out_dtype(dtype: Any, fun_name: str) -> np.dtype:
    requested = requested_dtype(dtype, fun_name)
    return dtypes.default_float_dtype() if requested is None else requested


def _offset_rows(shape: tuple[int, int], k: Any) -> Any:
    """Row indices of a ``shape`` matrix shifted by ``k`` (an integer or a traced one)."""
    index = _index_dtype()
    return lax.add(lax.broadcasted_iota(index, shape, 0), convert_keeping_weak_type(k, index, False))


def _lower_mask(shape: tuple[int, int], k: Any) -> Any:
    """True on and below the ``k``-th diagonal, in the order JAX stages it (rows shifted before columns)."""
    rows = _offset_rows(shape, k)
    return lax.ge(rows, lax.broadcasted_iota(_index_dtype(), shape, 1))


def _eye_dim(size: Any, name: str) -> int:
    try:
        (size,) = canonicalize_shape((size,))
    except TypeError as error:
        # JAX's two messages word the argument differently.
        argument = "argument of 'N' jnp.eye()" if name == "N" else "argument 'M' of jnp.eye()"
        raise TypeError(f"{error} {argument}.") from None
    return size


def _eye_shape(N: Any, M: Any) -> tuple[int, int]:
    shape = (_eye_dim(N, "N"), _eye_dim(N if M is None else M, "M"))
    if any(d < 0 for d in shape):
        raise ValueError(f"negative dimensions are not allowed, got {N} and {M}")
    return shape


def eye(N: Any, M: Any = None, k: Any = 0, dtype: Any = None, *, device: Any = None) -> Array:
    """A matrix with ones on the ``k``-th diagonal and zeros elsewhere."""
    shape = _eye_shape(N, M)
    if not isinstance(k, (Array, Tracer)) and not isinstance(k, (int, np.integer)):
        raise ValueError(f"k must be a scalar integer; got {k}")
    return put_staged(lax.convert_element_type(_diagonal_mask(shape, k), _out_dtype(dtype, "eye")), device,
                      as_sharding=False)


def identity(n: Any, dtype: Any = None) -> Array:
    """The ``n`` by ``n`` identity matrix."""
    return eye(n, dtype=dtype)


def tri(N: int, M: int | None = None, k: int = 0, dtype: Any = None) -> Array:
    """A matrix with ones on and below the ``k``-th diagonal."""
    k = k if isinstance(k, Tracer) else operator.index(k)  # a traced diagonal is fine, as in JAX
    shape = canonicalize_shape((N, N if M is None else M))
    return lax.convert_element_type(_lower_mask(shape, k), _out_dtype(dtype, "tri"))


def _triangle(m: Any, k: int, keep_lower: bool) -> Any:
    aval = get_aval(m)
    mask = _lower_mask(aval.shape[-2:], k)
    layout = aval.explicit_sharding  # the mask is laid out as ``m`` (over Explicit mesh axes), as JAX's
    if aval.ndim > 2:
        mask = lax.broadcast_in_dim(mask, aval.shape, (aval.ndim - 2, aval.ndim - 1), out_sharding=layout)
    elif layout is not None and any(layout.spec):
        mask = placement.reshard(mask, layout)
    zero = lax.full_like(m, 0)
    return lax.select_n(mask, zero, m) if keep_lower else lax.select_n(mask, m, zero)


@named_jit("tril", ("k",))
def _tril(m: Any, k: int) -> Any:
    return _triangle(m, operator.index(k), keep_lower=True)


@named_jit("triu", ("k",))
def _triu(m: Any, k: int) -> Any:
    return _triangle(m, operator.index(k) - 1, keep_lower=False)


def _check_matrix(fun_name: str, m: Any) -> Any:
    check_arraylike(fun_name, m)
    m = asarray(m)
    if get_aval(m).ndim < 2:
        raise ValueError(f"Argument to jax.numpy.{fun_name} must be at least 2D")
    return m


def tril(m: Any, k: int = 0) -> Array:
    """``m`` with the elements above the ``k``-th diagonal zeroed (in its last two axes)."""
    check_jitted_arguments(tril, m=m)
    return _tril(_check_matrix("tril", m), k)


def triu(m: Any, k: int = 0) -> Array:
    """``m`` with the elements below the ``k``-th diagonal zeroed (in its last two axes)."""
    check_jitted_arguments(triu, m=m)
    return _triu(_check_matrix("triu", m), k)


@named_jit("_diag", ("k",))
def _diag(v: Any, k: int) -> Any:
    aval = get_aval(v)
    if aval.ndim == 2:
        return diagonal(v, offset=k)
    # Each row i of the result holds the padded vector's element i where the row meets the k-th diagonal.
    n = aval.shape[0] + abs(k)
    zero = lax.full_like(v, 0, shape=())  # weakly typed where v is, so the result stays so
    padded = lax.pad(v, zero, ((max(-k, 0), max(k, 0), 0),))
    return where(_diagonal_mask((n, n), k), lax.expand_dims(padded, (1,)), zero)


def _diagonal_mask(shape: tuple[int, int], k: Any) -> Any:
    """True on the ``k``-th diagonal (both iotas first, then the shifted rows compared, as JAX stages eye)."""
    index = _index_dtype()
    rows, cols = lax.broadcasted_iota(index, shape, 0), lax.broadcasted_iota(index, shape, 1)
    return lax.eq(lax.add(rows, convert_keeping_weak_type(k, index, False)), cols)


def diag(v: Any, k: int = 0) -> Array:
    """The ``k``-th diagonal of the 2-D ``v``, or a square matrix with the 1-D ``v`` on its ``k``-th diagonal."""
    check_scalar_arraylike("diag", v)
    v = asarray(v)
    if get_aval(v).ndim not in (1, 2):
        raise ValueError("diag input must be 1d or 2d")
    return _diag(v, operator.index(k))


def diagflat(v: Any, k: int = 0) -> Array:
    """A square matrix with the flattened ``v`` on its ``k``-th diagonal."""
    check_arraylike("diagflat", v)
    values = ravel(asarray(v))
    length = get_aval(values).size
    n = length + abs(k)
    flat = zeros(n * n, get_aval(values).dtype)
    i = arange(length)
    # The flat position of row r, column c is r * n + c; the diagonal's rows and columns are i and i + k.
    k_, n_ = np.asarray(k, _index_dtype()), np.asarray(n, _index_dtype())
    if k >= 0:
        positions = lax.add(lax.add(i, k_), lax.mul(i, n_))
    else:
        positions = lax.add(i, lax.mul(lax.sub(i, k_), n_))
    return lax.reshape(scatter_update(flat, positions, values, "set"), (n, n))


@named_jit("vander", ("N", "increasing"))
def _vander(x: Any, N: int | None, increasing: bool) -> Any:
    if get_aval(x).ndim != 1:
        raise ValueError("x must be a one-dimensional array")
    N = get_aval(x).shape[0] if N is None else operator.index(N)
    if N < 0:
        raise ValueError("N must be nonnegative")
    exponents = lax.iota(get_aval(x).dtype, N)
    if not increasing:
        exponents = subtract(N - 1, exponents)
    return power(lax.expand_dims(x, (1,)), lax.expand_dims(exponents, (0,)))


def vander(x: Any, N: int | None = None, increasing: bool = False) -> Array:
    """The Vandermonde matrix of the 1-D ``x``: its columns are powers of ``x`` (decreasing unless
    ``increasing``)."""
    check_jitted_arguments(vander, x=x)
    check_arraylike("vander", x)
    return _vander(asarray(x), N, bool(increasing))


def diag_indices(n: int, ndim: int = 2) -> tuple[Array, ...]:
    """The indices of the main diagonal of an ``ndim``-dimensional array of side ``n``."""
    n = concrete_index(n, "'n' argument of jnp.diag_indices()")
    ndim = concrete_index(ndim, "'ndim' argument of jnp.diag_indices()")
    if n < 0:
        raise ValueError(f"n argument to diag_indices must be nonnegative, got {n}")
    if ndim < 0:
        raise ValueError(f"ndim argument to diag_indices must be nonnegative, got {ndim}")
    return (lax.iota(_index_dtype(), n),) * ndim


def diag_indices_from(arr: Any) -> tuple[Array, ...]:
    """The indices of the main diagonal of ``arr`` (at least 2-D, all sides equal)."""
    check_arraylike("diag_indices_from", arr)
    shape = np.shape(arr) if not hasattr(arr, "shape") else tuple(arr.shape)
    if len(shape) < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(shape[0], len(shape))


def _triangle_indices(n: int, k: int, m: int | None, keep_lower: bool) -> tuple[Array, Array]:
    # JAX's messages name triu_indices for both triangles.
    n, k = concrete_index(n, "n argument of jnp.triu_indices"), concrete_index(k, "k argument of jnp.triu_indices")
    m = n if m is None else concrete_index(m, "m argument of jnp.triu_indices")
    count = int(np.count_nonzero((np.tri if keep_lower else _np_upper)(n, m, k))) if n >= 0 and m >= 0 else 0
    square = ones((n, m))
    return nonzero(tril(square, k) if keep_lower else triu(square, k), size=count)


def _np_upper(n: int, m: int, k: int) -> np.ndarray:
    return 1 - np.tri(n, m, k - 1)


def tril_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Array, Array]:
    """Row and column indices of the lower triangle (on and below the ``k``-th diagonal) of an n x m array."""
    return _triangle_indices(n, k, m, keep_lower=True)


def triu_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Array, Array]:
    """Row and column indices of the upper triangle (on and above the ``k``-th diagonal) of an n x m array."""
    return _triangle_indices(n, k, m, keep_lower=False)


def _matrix_shape(fun_name: str, arr: Any) -> tuple[int, ...]:
    if not hasattr(arr, "shape"):
        check_arraylike(fun_name, arr)
    shape = np.shape(arr) if not hasattr(arr, "shape") else tuple(arr.shape)
    if len(shape) != 2:
        raise ValueError("Only 2-D inputs are accepted")
    return shape


def tril_indices_from(arr: Any, k: int = 0) -> tuple[Array, Array]:
    """``tril_indices`` for the shape of the 2-D ``arr``."""
    n, m = _matrix_shape("tril_indices_from", arr)
    return tril_indices(n, k, m)


def triu_indices_from(arr: Any, k: int = 0) -> tuple[Array, Array]:
    """``triu_indices`` for the shape of the 2-D ``arr``."""
    n, m = _matrix_shape("triu_indices_from", arr)
    return triu_indices(n, k, m)


def mask_indices(n: int, mask_func: Callable[[Any, int], Any], k: int = 0, *,
                 size: int | None = None) -> tuple[Array, Array]:
    """The indices where ``mask_func(ones((n, n)), k)`` is nonzero (``size`` fixes their number)."""
    return nonzero(asarray(mask_func(ones((n, n), dtype=_index_dtype()), k)), size=size)
