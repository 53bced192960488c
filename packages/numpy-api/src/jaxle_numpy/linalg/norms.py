"""Vector and matrix norms: ``vector_norm`` (any order over any axes), ``matrix_norm`` (over the last two axes) and
``norm``, which picks one by the number of axes, as JAX 0.10.2 stages them."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from jaxle_core.avals import get_aval
from jaxle_numpy import reductions, ufuncs
from jaxle_numpy.creation import asarray
from jaxle_numpy.linalg.svd import svd
from jaxle_numpy.manipulation import expand_dims, moveaxis
from jaxle_numpy.scalar_types import finfo
from jaxle_numpy.util import (
    canonicalize_axis,
    check_arraylike,
    check_scalar_arraylike,
    named_jit,
    promote_dtypes_inexact,
    scalar_like,
)

__all__ = ["vector_norm", "matrix_norm", "norm"]


def _sum_of_squared_magnitudes(x: Any, axis: Any, keepdims: bool) -> Any:
    """The Euclidean (Frobenius) norm over ``axis``: sqrt(sum(|x|**2)) with |x|**2 as x * conj(x)."""
    squares = ufuncs.real(ufuncs.multiply(x, ufuncs.conj(x)))
    return ufuncs.sqrt(reductions.sum(squares, axis=axis, keepdims=keepdims))


def vector_norm(x: Any, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False,
                ord: int | str = 2) -> Any:
    """The ``ord``-norm of the vectors along ``axis`` (of all elements when None): 2, 1, inf, -inf, 0 (the count
    of non-zero elements) or any other power."""
    check_scalar_arraylike("jnp.linalg.vector_norm", x)
    if isinstance(ord, str):
        raise ValueError(f"Invalid order '{ord}' for vector norm.")
    if ord is None or ord == 2:
        return _sum_of_squared_magnitudes(x, axis, keepdims)
    if ord == np.inf:
        return reductions.max(ufuncs.abs(x), axis=axis, keepdims=keepdims, initial=0)
    if ord == -np.inf:
        return reductions.min(ufuncs.abs(x), axis=axis, keepdims=keepdims)
    if ord == 0:
        count_dtype = finfo(get_aval(asarray(x)).dtype).dtype
        return reductions.sum(ufuncs.not_equal(x, 0), axis=axis, keepdims=keepdims, dtype=count_dtype)
    if ord == 1:
        return reductions.sum(ufuncs.abs(x), axis=axis, keepdims=keepdims)
    magnitudes = ufuncs.abs(x)
    # The exponents are constants of the magnitudes' dtype (for integers: integer powers, 1/ord truncated).
    powered = reductions.sum(ufuncs.power(magnitudes, scalar_like(magnitudes, ord)), axis=axis, keepdims=keepdims)
    return ufuncs.power(powered, scalar_like(magnitudes, 1.0 / ord))


def matrix_norm(x: Any, /, *, keepdims: bool = False, ord: str | int = "fro") -> Any:
    """The ``ord``-norm of each matrix (the last two axes): 'fro', 'nuc', 1, -1, 2, -2, inf or -inf."""
    check_arraylike("jnp.linalg.matrix_norm", x)
    return norm(x, ord=ord, keepdims=keepdims, axis=(-2, -1))


def _matrix_norm_over(x: Any, ord: Any, row_axis: int, col_axis: int, keepdims: bool) -> Any:
    """The ``ord``-norm of the matrices spanned by ``row_axis`` and ``col_axis`` (canonical axes)."""
    if ord is None or ord == "fro":
        return _sum_of_squared_magnitudes(x, (row_axis, col_axis), keepdims)
    if ord in (1, -1):  # the largest (smallest) column sum
        if not keepdims and col_axis > row_axis:
            col_axis -= 1
        column_sums = reductions.sum(ufuncs.abs(x), axis=row_axis, keepdims=keepdims)
        if ord == 1:
            return reductions.max(column_sums, axis=col_axis, keepdims=keepdims, initial=0)
        return reductions.min(column_sums, axis=col_axis, keepdims=keepdims)
    if ord in (np.inf, -np.inf):  # the largest (smallest) row sum
        if not keepdims and row_axis > col_axis:
            row_axis -= 1
        row_sums = reductions.sum(ufuncs.abs(x), axis=col_axis, keepdims=keepdims)
        if ord == np.inf:
            return reductions.max(row_sums, axis=row_axis, keepdims=keepdims, initial=0)
        return reductions.min(row_sums, axis=row_axis, keepdims=keepdims)
    if ord in (2, -2, "nuc"):  # from the singular values
        singular_values = svd(moveaxis(x, (row_axis, col_axis), (-2, -1)), compute_uv=False)
        if ord == 2:
            y = reductions.max(singular_values, axis=-1, initial=0)
        elif ord == -2:
            y = reductions.min(singular_values, axis=-1)
        else:
            y = reductions.sum(singular_values, axis=-1)
        return expand_dims(y, (row_axis, col_axis)) if keepdims else y
    raise ValueError(f"Invalid order '{ord}' for matrix norm.")


@named_jit("norm", ("ord", "axis", "keepdims"))
def norm(x: Any, ord: int | str | None = None, axis: None | tuple[int, ...] | int = None,
         keepdims: bool = False) -> Any:
    """NumPy's norm: of all elements (Frobenius) by default; over one axis a vector norm, over two a matrix norm."""
    check_arraylike("jnp.linalg.norm", x)
    x, = promote_dtypes_inexact(asarray(x))
    ndim = get_aval(x).ndim
    if axis is None:
        if ord is None:
            return _sum_of_squared_magnitudes(x, None, keepdims)
        axes = tuple(range(ndim))
    elif isinstance(axis, tuple):
        axes = tuple(canonicalize_axis(operator.index(a), ndim) for a in axis)
    else:
        axes = (canonicalize_axis(operator.index(axis), ndim),)
    if len(axes) == 1:
        return vector_norm(x, ord=2 if ord is None else ord, axis=axes, keepdims=keepdims)
    if len(axes) == 2:
        return _matrix_norm_over(x, ord, *axes, keepdims)
    raise ValueError(f"Improper number of axes for norm: axis={axis if axis is not None else axes}. Pass one axis "
                     "to compute a vector-norm, or two axes to compute a matrix-norm.")
