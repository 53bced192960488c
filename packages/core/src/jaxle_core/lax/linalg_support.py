"""Pieces shared by the linear-algebra primitive families (``factorizations``, ``householder``, ``matrix_solves``,
``symmetric_product``): operand checks worded as JAX words them, triangular masks traced as JAX traces them, the
dtypes LAPACK takes, SciPy imported on first use and the loop of a NumPy reference over leading batch dimensions."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.lax.elementwise import add, ge
from jaxle_core.lax.standard import check_dtype
from jaxle_core.lax.structural import broadcast_in_dim, broadcasted_iota, select_n

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
    which every operand must share; the first operand's dtype must be one of ``accepted``."""
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
    batch_shape = avals[0].shape[:batch_ranks[0]]
    for aval in avals[1:]:
        for dim, (size, other) in enumerate(zip(batch_shape, aval.shape)):
            if size != other:
                raise ValueError(f"Batching dimension 0_{dim} corresponds to two sizes: {size} and {other}")
    return batch_shape


def scipy_linalg() -> ModuleType:
    """``scipy.linalg``, imported on first use (only the reference implementations need it)."""
    try:
        return importlib.import_module("scipy.linalg")
    except ImportError:
        raise ImportError("The NumPy reference implementations of lax.linalg need SciPy: pip install scipy "
                          "(or install jaxle-xla to compute with XLA).") from None


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


def _zeros(x: Any) -> Any:
    aval = get_aval(x)
    return broadcast_in_dim(np.zeros((), aval.dtype), aval.shape, ())


def tril(x: Any, k: int = 0) -> Any:
    """The lower triangle of the matrices of ``x`` (on and below diagonal ``k``), the rest zero."""
    mask = _triangle_mask(x, k)
    return select_n(mask, _zeros(x), x)


def triu(x: Any, k: int = 0) -> Any:
    """The upper triangle of the matrices of ``x`` (on and above diagonal ``k``), the rest zero."""
    mask = _triangle_mask(x, k - 1)
    return select_n(mask, x, _zeros(x))
