"""Primitives that change dtype or shape without arithmetic: conversions, broadcasts, reshapes."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import Primitive
from jaxle_core.lax.standard import as_int_tuple

__all__ = ["broadcast", "broadcast_in_dim", "convert_element_type", "reshape", "squeeze", "transpose"]

# ---------------------------------------------------------------- convert_element_type

convert_element_type_p = Primitive("convert_element_type")


@convert_element_type_p.def_abstract_eval
def _convert_element_type_aval(x, *, new_dtype, weak_type, sharding):
    return ShapedArray(x.shape, new_dtype, weak_type)


@convert_element_type_p.def_impl
def _convert_element_type_impl(x, *, new_dtype, weak_type, sharding):
    if np.issubdtype(x.dtype, np.complexfloating) and not np.issubdtype(new_dtype, np.complexfloating):
        x = np.real(x)
    if new_dtype == np.bool_:
        return x != 0
    if np.issubdtype(new_dtype, np.integer) and dtypes.issubdtype(x.dtype, np.inexact):
        return _float_to_int(x, np.dtype(new_dtype))
    return x.astype(new_dtype)


def _float_to_int(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Truncate toward zero, saturating at the integer range and sending NaN to 0, as XLA does."""
    info = np.iinfo(dtype)
    wide = np.trunc(x.astype(np.float64))
    wide = np.where(np.isnan(wide), 0, wide)
    out = np.clip(wide, info.min, info.max)
    # float64 cannot hold int64's max exactly; saturate explicitly.
    result = out.astype(dtype)
    result = np.where(wide >= float(info.max), info.max, result)
    return np.where(wide <= float(info.min), info.min, result).astype(dtype)


def convert_element_type(operand, new_dtype):
    """``operand`` converted to ``new_dtype`` (canonicalised), as a strongly typed value."""
    new_dtype = dtypes.canonicalize_dtype(dtypes.dtype(new_dtype))
    aval = get_aval(operand)
    if aval.dtype == new_dtype and not aval.weak_type and not isinstance(operand, (int, float, complex, bool)):
        return operand
    return convert_element_type_p.bind(operand, new_dtype=new_dtype, weak_type=False, sharding=None)


def _convert_keeping_weak_type(operand, new_dtype, weak_type: bool):
    return convert_element_type_p.bind(operand, new_dtype=np.dtype(new_dtype), weak_type=weak_type, sharding=None)


# ---------------------------------------------------------------- broadcast_in_dim

broadcast_in_dim_p = Primitive("broadcast_in_dim")


@broadcast_in_dim_p.def_abstract_eval
def _broadcast_in_dim_aval(x, *, shape, broadcast_dimensions, sharding):
    if len(broadcast_dimensions) != x.ndim:
        raise TypeError(f"broadcast_in_dim broadcast_dimensions must have length equal to operand ndim; got "
                        f"broadcast_dimensions {broadcast_dimensions} for operand ndim {x.ndim}.")
    for in_dim, out_dim in enumerate(broadcast_dimensions):
        if not 0 <= out_dim < len(shape) or x.shape[in_dim] not in (1, shape[out_dim]):
            raise TypeError(f"broadcast_in_dim operand dimension sizes must either be 1, or be equal to their "
                            f"corresponding dimensions in the target broadcast shape; got operand of shape "
                            f"{x.shape}, target broadcast shape {shape}, broadcast_dimensions "
                            f"{broadcast_dimensions} ")
    if list(broadcast_dimensions) != sorted(set(broadcast_dimensions)):
        raise TypeError(f"broadcast_in_dim broadcast_dimensions must be strictly increasing; got "
                        f"broadcast_dimensions {broadcast_dimensions}")
    return ShapedArray(shape, x.dtype, x.weak_type)


@broadcast_in_dim_p.def_impl
def _broadcast_in_dim_impl(x, *, shape, broadcast_dimensions, sharding):
    expanded = [1] * len(shape)
    for in_dim, out_dim in enumerate(broadcast_dimensions):
        expanded[out_dim] = x.shape[in_dim]
    return np.broadcast_to(x.reshape(expanded), shape)


def broadcast_in_dim(operand, shape: Sequence[int], broadcast_dimensions: Sequence[int], out_sharding=None):
    """Broadcast ``operand`` to ``shape``, its dimension i becoming ``broadcast_dimensions[i]``."""
    shape, dims = as_int_tuple(shape), as_int_tuple(broadcast_dimensions)
    aval = get_aval(operand)
    if aval.shape == shape and dims == tuple(range(len(shape))) and not isinstance(operand, (int, float, complex)):
        return operand
    return broadcast_in_dim_p.bind(operand, shape=shape, broadcast_dimensions=dims, sharding=out_sharding)


def broadcast(operand, sizes: Sequence[int], out_sharding=None):
    """Add leading dimensions of the given ``sizes``."""
    aval = get_aval(operand)
    sizes = as_int_tuple(sizes)
    dims = tuple(range(len(sizes), len(sizes) + aval.ndim))
    return broadcast_in_dim(operand, sizes + aval.shape, dims, out_sharding)


# ---------------------------------------------------------------- reshape

reshape_p = Primitive("reshape")


@reshape_p.def_abstract_eval
def _reshape_aval(x, *, new_sizes, dimensions, sharding):
    if int(np.prod(new_sizes, dtype=np.int64)) != x.size:
        raise TypeError(f"reshape total size must be unchanged, got new_sizes {new_sizes} (of total size "
                        f"{int(np.prod(new_sizes, dtype=np.int64))}) for shape {x.shape} (of total size {x.size}).")
    return ShapedArray(new_sizes, x.dtype, x.weak_type)


@reshape_p.def_impl
def _reshape_impl(x, *, new_sizes, dimensions, sharding):
    if dimensions is not None:
        x = np.transpose(x, dimensions)
    return np.reshape(x, new_sizes)


def reshape(operand, new_sizes: Sequence[int], dimensions: Sequence[int] | None = None, out_sharding=None):
    """``operand`` with a new shape of the same size (after transposing by ``dimensions`` if given)."""
    new_sizes = as_int_tuple(new_sizes)
    aval = get_aval(operand)
    dims = None if dimensions is None or tuple(dimensions) == tuple(range(aval.ndim)) else as_int_tuple(dimensions)
    if aval.shape == new_sizes and dims is None and not isinstance(operand, (int, float, complex)):
        return operand
    return reshape_p.bind(operand, new_sizes=new_sizes, dimensions=dims, sharding=out_sharding)


# ---------------------------------------------------------------- squeeze

squeeze_p = Primitive("squeeze")


@squeeze_p.def_abstract_eval
def _squeeze_aval(x, *, dimensions):
    for d in dimensions:
        if x.shape[d] != 1:
            raise ValueError(f"cannot select an axis to squeeze out which has size not equal to one, got "
                             f"shape={x.shape} and dimensions={dimensions}")
    return ShapedArray([s for i, s in enumerate(x.shape) if i not in dimensions], x.dtype, x.weak_type)


@squeeze_p.def_impl
def _squeeze_impl(x, *, dimensions):
    return np.squeeze(x, axis=dimensions)


def squeeze(array, dimensions: Sequence[int]):
    """Remove the size-1 ``dimensions``."""
    ndim = get_aval(array).ndim
    dims = tuple(sorted(d % ndim if ndim else d for d in as_int_tuple(dimensions)))
    if not dims and not isinstance(array, (int, float, complex)):
        return array
    return squeeze_p.bind(array, dimensions=dims)


# ---------------------------------------------------------------- transpose

transpose_p = Primitive("transpose")


@transpose_p.def_abstract_eval
def _transpose_aval(x, *, permutation):
    if sorted(permutation) != list(range(x.ndim)):
        raise TypeError(f"transpose permutation isn't a permutation of operand dimensions, got permutation "
                        f"{permutation} for operand shape {x.shape}.")
    return ShapedArray([x.shape[p] for p in permutation], x.dtype, x.weak_type)


@transpose_p.def_impl
def _transpose_impl(x, *, permutation):
    return np.transpose(x, permutation)


def transpose(operand, permutation: Sequence[int]):
    """Permute the dimensions of ``operand``."""
    permutation = as_int_tuple(permutation)
    if permutation == tuple(range(len(permutation))) and not isinstance(operand, (int, float, complex)):
        return operand
    return transpose_p.bind(operand, permutation=permutation)
