"""Pieces shared by the linear-algebra primitive families (``factorizations``, ``householder``, ``matrix_solves``,
``symmetric_product``, ``eigen``, ``svd``, ``schur``, ``condensed_forms``): operand checks worded as JAX words them,
the matrix idioms (transposes, Hermitian parts, triangles, diagonals) traced as JAX traces them, the dtypes LAPACK
takes, SciPy imported on first use and the loop of a NumPy reference over leading batch dimensions."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.lax import slicing
from jaxle_core.lax.dot import dot_general
from jaxle_core.lax.elementwise import add, conj, div, ge, lt
from jaxle_core.lax.standard import check_dtype, check_same_dtypes
from jaxle_core.lax.structural import (
    broadcast_in_dim,
    broadcasted_iota,
    concatenate,
    convert_element_type,
    iota,
    select_n,
    transpose,
)

__all__: list[str] = []

# The element types jaxlib's LAPACK targets take; JAX fails to lower a LAPACK-backed primitive of any other.
LAPACK_DTYPES = frozenset(np.dtype(t) for t in (np.float32, np.float64, np.complex64, np.complex128))


def check_lapack_dtype(dtype: np.dtype) -> None:
    """Raise the error JAX raises when a LAPACK-backed primitive meets a dtype LAPACK lacks (float16, bfloat16)."""
    if np.dtype(dtype) not in LAPACK_DTYPES:
        raise NotImplementedError(KeyError(np.dtype(dtype).type), f"Unsupported dtype {np.dtype(dtype).name}.")


def check_operands(name: str, avals: Sequence[ShapedArray], core_ranks: Sequence[int], accepted: Sequence,
                   exact_rank: bool = False) -> tuple[int, ...]:
    """Check the operands of a linear-algebra primitive as JAX does and return their common batch shape.

    Operand ``i`` has ``core_ranks[i]`` minor dimensions (exactly, with ``exact_rank``) after the batch dimensions,
    which every operand must share; the first operand's dtype must be one of ``accepted`` and the others the same.
    (JAX checks the dtypes after each primitive's own shape rules, so an operand breaking both reports its dtype
    here.)"""
    for position, (aval, rank) in enumerate(zip(avals, core_ranks)):
        if exact_rank and aval.ndim != rank:
            raise TypeError(f"Input {position} to {name} must have a rank of exactly {rank}, but got "
                            f"shape={aval.shape}")
        if aval.ndim < rank:
            raise TypeError(f"Input {position} to {name} must have rank at least {rank}, but got shape={aval.shape}")
    check_dtype(name, avals[0].dtype, accepted, 0)
    batch_ranks = [aval.ndim - rank for aval, rank in zip(avals, core_ranks)]
    if len(set(batch_ranks)) > 1:
        raise TypeError(f"All inputs to {name} must have the same number of batch dimensions, but got "
                        f"{batch_ranks} batch dimensions for the inputs.")
    check_same_dtypes(name, avals, None)
    batch_shape = avals[0].shape[:batch_ranks[0]]
    for aval in avals[1:]:
        for dim, (size, other) in enumerate(zip(batch_shape, aval.shape)):
            if size != other:
                raise ValueError(f"Batching dimension 0_{dim} corresponds to two sizes: {size} and {other}")
    return batch_shape


def scipy_linalg() -> ModuleType:
    """``scipy.linalg``, imported on first use (only the reference implementations need it)."""
    return importlib.import_module("scipy.linalg")


def lapack_function(name: str, *arrays: np.ndarray) -> Callable[..., Any]:
    """SciPy's wrapper of the LAPACK routine ``name`` (``"getrf"``) for the type of ``arrays``."""
    return scipy_linalg().get_lapack_funcs((name,), arrays)[0]


def blas_function(name: str, *arrays: np.ndarray) -> Callable[..., Any]:
    """SciPy's wrapper of the BLAS routine ``name`` (``"trsm"``) for the type of ``arrays``."""
    return scipy_linalg().get_blas_funcs((name,), arrays)[0]


def map_matrices(fn: Callable[..., Sequence[np.ndarray]], batch_shape: tuple[int, ...],
                 out_avals: Sequence[ShapedArray], *operands: np.ndarray) -> list[np.ndarray]:
    """Apply ``fn`` (operands' matrices -> one array per output) to each batch element of ``operands``, which share
    the leading ``batch_shape``, filling arrays of ``out_avals``; an empty batch gives empty results."""
    outs = [np.empty(aval.shape, aval.dtype) for aval in out_avals]
    for index in np.ndindex(*batch_shape):
        for out, value in zip(outs, fn(*(x[index] for x in operands))):
            out[index] = value
    return outs


def nan_of(dtype: np.dtype) -> np.generic:
    """NaN of ``dtype``; complex NaNs have NaN real and imaginary parts."""
    dtype = np.dtype(dtype)
    return dtype.type(complex(np.nan, np.nan) if np.issubdtype(dtype, np.complexfloating) else np.nan)


def nan_matrix(aval: ShapedArray | tuple[tuple[int, ...], np.dtype]) -> np.ndarray:
    """An array of NaNs: what JAX returns where LAPACK reports a failure."""
    shape, dtype = (aval.shape, aval.dtype) if isinstance(aval, ShapedArray) else aval
    return np.full(shape, nan_of(dtype), dtype)


def _triangle_mask(x: Any, offset: int) -> Any:
    """``row + offset >= column`` over the two minor dimensions of ``x``, broadcast to its shape."""
    aval = get_aval(x)
    shape = aval.shape[-2:]
    index_type = dtypes.canonicalize_dtype(np.int64)  # the default integer type: 64-bit with x64
    rows = add(broadcasted_iota(index_type, shape, 0), index_type.type(offset))
    mask = ge(rows, broadcasted_iota(index_type, shape, 1))
    if aval.ndim > 2:
        mask = broadcast_in_dim(mask, aval.shape, (aval.ndim - 2, aval.ndim - 1))
    return mask


def matmul(a: Any, b: Any, precision: Any = None, preferred_element_type: Any = None) -> Any:
    """The matrix products of ``a`` and ``b``, batched over their (equal) leading dimensions."""
    ndim = get_aval(a).ndim
    batch = tuple(range(ndim - 2))
    return dot_general(a, b, (((ndim - 1,), (ndim - 2,)), (batch, batch)), precision, preferred_element_type)


def slice_axis(x: Any, start: int, stop: int, axis: int) -> Any:
    """``x[start:stop]`` along ``axis`` (a ``slice`` without strides, as ``jnp`` indexing stages it)."""
    shape = get_aval(x).shape
    return slicing.slice(x, tuple(start if d == axis else 0 for d in range(len(shape))),
                    tuple(stop if d == axis else size for d, size in enumerate(shape)))


def _zeros(x: Any) -> Any:
    aval = get_aval(x)  # laid out as ``x``, as JAX's zeros beside it
    return broadcast_in_dim(np.zeros((), aval.dtype), aval.shape, (), out_sharding=aval.explicit_sharding)


def tril(x: Any, k: int = 0) -> Any:
    """The lower triangle of the matrices of ``x`` (on and below diagonal ``k``), the rest zero."""
    mask = _triangle_mask(x, k)
    return select_n(mask, _zeros(x), x)


def triu(x: Any, k: int = 0) -> Any:
    """The upper triangle of the matrices of ``x`` (on and above diagonal ``k``), the rest zero."""
    mask = _triangle_mask(x, k - 1)
    return select_n(mask, x, _zeros(x))


# ---------------------------------------------------------------- matrix idioms


def swap_minor_dims(x: Any) -> Any:
    """``x`` with its two minor dimensions exchanged (each matrix transposed)."""
    ndim = get_aval(x).ndim
    return transpose(x, (*range(ndim - 2), ndim - 1, ndim - 2))


def adjoint(x: Any) -> Any:
    """The conjugate transpose of the matrices of ``x`` (just the transpose for real ones)."""
    swapped = swap_minor_dims(x)
    return conj(swapped) if dtypes.issubdtype(get_aval(x).dtype, np.complexfloating) else swapped


def symmetrize(x: Any) -> Any:
    """``(x + x^H) / 2``, in an inexact dtype: the Hermitian part that ``cholesky`` and ``eigh`` factor."""
    total = add(x, adjoint(x))
    dtype = get_aval(total).dtype
    inexact = dtypes.to_inexact_dtype(dtype)
    if inexact != dtype:
        total = convert_element_type(total, inexact)
    return div(total, np.array(2, inexact)[()])


def _wrapped_index(index: Any, size: int) -> Any:
    # indexing with an array stages the wrap-around of negative entries, even where none can be negative
    zero, length = (np.array(v, get_aval(index).dtype)[()] for v in (0, size))
    return select_n(lt(index, zero), index, add(index, length))


def _diagonal_positions(i: Any, n: int) -> Any:
    """The ``(i, i)`` index pairs of an ``arange(n)`` ``i`` as ``[n, 2]`` indices, staged as ``x[..., i, i]``."""
    rows, cols = _wrapped_index(i, n), _wrapped_index(i, n)
    return concatenate([broadcast_in_dim(rows, (n, 1), (0,)), broadcast_in_dim(cols, (n, 1), (0,))], 1)


def indexed_diagonal(x: Any) -> Any:
    """The main diagonals of the square matrices ``x`` (batch dimensions first), gathered the way indexing
    ``x[..., i, i]`` with ``i = arange(n)`` stages it."""
    aval = get_aval(x)
    n, ndim = aval.shape[-1], aval.ndim
    positions = _diagonal_positions(iota(np.int32, n), n)
    numbers = slicing.GatherDimensionNumbers(offset_dims=tuple(range(ndim - 2)),
                                             collapsed_slice_dims=(ndim - 2, ndim - 1),
                                             start_index_map=(ndim - 2, ndim - 1))
    return slicing.gather(x, positions, numbers, aval.shape[:-2] + (1, 1),
                          mode=slicing.GatherScatterMode.PROMISE_IN_BOUNDS)


def diagonal_matrix(d: Any) -> Any:
    """Square matrices with the vectors ``d`` on their diagonals, zero elsewhere, staged as
    ``zeros.at[..., i, i].set(d)``."""
    aval = get_aval(d)
    n, ndim = aval.shape[-1], aval.ndim + 1
    i = iota(np.int32, n)
    zeros = broadcast_in_dim(np.zeros((), aval.dtype)[()], aval.shape + (n,), ())
    numbers = slicing.ScatterDimensionNumbers(update_window_dims=tuple(range(ndim - 2)),
                                              inserted_window_dims=(ndim - 2, ndim - 1),
                                              scatter_dims_to_operand_dims=(ndim - 2, ndim - 1))
    return slicing.scatter(zeros, _diagonal_positions(i, n), d, numbers, mode=slicing.GatherScatterMode.FILL_OR_DROP)


# ---------------------------------------------------------------- decompositions


def check_square(name: str, x: ShapedArray) -> None:
    """The ValueError several decompositions give for a non-square operand."""
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"The input to {name} must be a square matrix. Got shape {x.shape}.")


def real_dtype(dtype: np.dtype) -> np.dtype:
    """The real dtype of ``dtype``'s components (float32 for complex64)."""
    return np.finfo(dtype).dtype if dtypes.issubdtype(dtype, np.complexfloating) else np.dtype(dtype)


def complex_dtype(dtype: np.dtype) -> np.dtype:
    """The complex dtype with ``dtype``'s precision."""
    return np.result_type(dtype, np.complex64)


def map_decomposition(fn: Callable[[np.ndarray], Sequence[np.ndarray]], x: np.ndarray,
                      out_avals: Sequence[ShapedArray]) -> list[np.ndarray]:
    """``map_matrices`` of a one-operand decomposition: ``fn`` on each matrix of ``x`` fills arrays of
    ``out_avals`` (batch dimensions first), with NaNs where the LAPACK routine behind ``fn`` fails, as JAX reports
    a failure."""
    batch = x.shape[:-2]
    matrix_avals = [ShapedArray(aval.shape[len(batch):], aval.dtype) for aval in out_avals]

    def decompose(matrix: np.ndarray) -> Sequence[np.ndarray]:
        try:
            return fn(matrix)
        except (np.linalg.LinAlgError, ValueError):
            return [nan_matrix(aval) for aval in matrix_avals]

    return map_matrices(decompose, batch, out_avals, x)
