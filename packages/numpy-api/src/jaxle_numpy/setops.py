"""Set operations: unique and its array-API forms, isin, intersect1d, union1d, setdiff1d, setxor1d.

Results whose length depends on the values need concrete inputs unless a static ``size`` is given: then they are
padded (with ``fill_value``, or each function's default) or cut to ``size``, which works under jit and vmap. The
computations are JAX's, staged alike (``jit[name=_unique_sorted_mask]``, ``jit[name=_in1d]``, ...).
"""

from __future__ import annotations

import math
import operator
from typing import Any, NamedTuple

import numpy as np

from jaxle_core import dtypes, jit, lax
from jaxle_core.avals import get_aval
from jaxle_core.core import Tracer, concrete_or_error
from jaxle_core.errors import NonConcreteBooleanIndexError
from jaxle_core.lax import structural as lax_structural
from jaxle_numpy._index_helpers import (
    head,
    set_at,
    set_tail,
    tail,
    take,
)
from jaxle_numpy.conditional import where
from jaxle_numpy.cumulative import cumsum
from jaxle_numpy.manipulation import ravel
from jaxle_numpy.ranges import arange
from jaxle_numpy.reductions import sum as _count  # of a boolean mask: its number of True entries
from jaxle_numpy.selection import nonzero
from jaxle_numpy.sorting import lexsort, searchsorted, sort
from jaxle_numpy.statistics import diff
from jaxle_numpy.util import (
    canonicalize_axis,
    check_arraylike,
    check_scalar_arraylike,
    promote_dtypes,
    strip_weak_type,
    warn_complex_astype,
)

__all__ = ["intersect1d", "isin", "setdiff1d", "setxor1d", "union1d", "unique", "unique_all", "unique_counts",
           "unique_inverse", "unique_values"]

_UNIQUE_CONTEXT = ("The error arose for the first argument of jnp.unique(). To make jnp.unique() compatible with JIT "
                   "and other transforms, you can specify a concrete value for the size argument, which will "
                   "determine the output size.")
_ISIN_METHODS = ("auto", "compare_all", "binary_search", "sort")


class _UniqueAllResult(NamedTuple):
    values: Any
    indices: Any
    inverse_indices: Any
    counts: Any


class _UniqueCountsResult(NamedTuple):
    values: Any
    counts: Any


class _UniqueInverseResult(NamedTuple):
    values: Any
    inverse_indices: Any


def _move_axis(x: Any, source: int, destination: int) -> Any:
    ndim = get_aval(x).ndim
    if source == destination:
        return x
    perm = [d for d in range(ndim) if d != source]
    perm.insert(destination, source)
    return lax.transpose(x, perm)


def _index_constant(value: int) -> np.ndarray:
    return np.array(value, dtypes.default_int_dtype())


def _fill_constant(fill_value: Any, dtype: np.dtype) -> Any:
    """``fill_value`` as a strongly typed value of ``dtype`` (``jnp.asarray(fill_value, dtype)``)."""
    aval = get_aval(fill_value)
    if aval.dtype == dtype and not aval.weak_type:
        return fill_value
    if isinstance(fill_value, (bool, int, float, complex, np.generic, np.ndarray)):
        return np.asarray(fill_value, dtype)
    return lax.convert_element_type(fill_value, dtype)


def _unique_fill(fill_value: Any, dtype: np.dtype) -> Any:
    """``unique``'s ``fill_value`` as JAX's takes it: made an array (a string refused), then ``astype(dtype)`` (a
    complex one made real keeps its real part, with astype's DeprecationWarning)."""
    check_scalar_arraylike("asarray", fill_value)
    warn_complex_astype(dtypes.dtype(fill_value), dtype, stacklevel=3)
    if isinstance(fill_value, (complex, np.complexfloating)):
        return _fill_constant(np.real(fill_value), dtype)
    if not isinstance(fill_value, np.ndarray) and dtypes.issubdtype(get_aval(fill_value).dtype, np.complexfloating):
        return lax_structural.convert_unchecked(fill_value, dtype)
    return _fill_constant(fill_value, dtype)


# ---------------------------------------------------------------- unique


def _unique_sorted_mask_body(ar, axis: int, equal_nan: bool):
    """``ar`` sorted along ``axis`` (moved first), the mask of the first entry of each run of equal entries, and
    the permutation that sorted it."""
    dtype = get_aval(ar).dtype
    if equal_nan and dtypes.issubdtype(dtype, np.complexfloating):
        # one NaN for all: complex NaNs differing in their other part would not sort together
        ar = where(lax.ne(ar, ar), np.array(complex(np.nan, 0), dtype), ar)
    aux = _move_axis(ar, axis, 0)
    shape = get_aval(aux).shape
    keys = aux if len(shape) == 2 else lax.reshape(aux, (shape[0], math.prod(shape[1:])))
    perm = lexsort(lax.rev(lax.transpose(keys, (1, 0)), (0,)))
    aux = take(aux, perm)
    if shape[0] == 0:
        return aux, lax.full((0,), False, np.bool_), perm
    first = lax.full((shape[0],), True, np.bool_)
    later, earlier = tail(aux), head(aux)
    differs = lax.ne(later, earlier)
    if equal_nan and dtypes.issubdtype(get_aval(aux).dtype, np.inexact):
        both_nan = lax.bitwise_and(lax.ne(later, later), lax.ne(earlier, earlier))
        differs = lax.bitwise_and(differs, lax.bitwise_not(both_nan))
    return aux, set_tail(first, lax.reduce_or(differs, tuple(range(1, len(shape))))), perm


_unique_sorted_mask_body.__name__ = _unique_sorted_mask_body.__qualname__ = "_unique_sorted_mask"
_unique_sorted_mask = jit(_unique_sorted_mask_body, static_argnames=("axis", "equal_nan"))


def _unique(ar: Any, axis: int | None, return_index: bool, return_inverse: bool, return_counts: bool,
            equal_nan: bool, size: int | None, fill_value: Any, return_true_size: bool = False) -> list[Any]:
    """unique's results as a list (the number of distinct entries last with ``return_true_size``)."""
    input_shape = get_aval(ar).shape
    if axis is None:
        ar, axis, inverse_shape = ravel(ar), 0, input_shape
    else:
        axis = canonicalize_axis(operator.index(axis), len(input_shape))
        inverse_shape = (input_shape[axis],)
    length = get_aval(ar).shape[axis]
    if length == 0 and size and fill_value is None:
        raise ValueError("jnp.unique: for zero-sized input with nonzero size argument, fill_value must be specified")
    aux, mask, perm = _unique_sorted_mask(ar, axis, equal_nan)
    if size is None:
        size = int(np.count_nonzero(np.asarray(concrete_or_error(mask, _UNIQUE_CONTEXT))))
    positions = nonzero(mask, size=size)[0]
    if length == 0:  # JAX's results: fill_value rows when a size is asked for, the indices empty
        return _empty_unique(aux, perm, size, fill_value, (return_index, return_inverse, return_counts),
                             return_true_size)
    result = take(aux, positions)
    if fill_value is not None:
        fill = _unique_fill(fill_value, get_aval(result).dtype)
        valid = lax.lt(arange(size), _count(mask))
        if get_aval(result).ndim > 1:
            valid = lax.broadcast_in_dim(valid, (size,) + (1,) * (get_aval(result).ndim - 1), (0,))
        result = where(valid, result, fill)
    outs = [_move_axis(result, 0, axis)]
    if return_index:
        outs.append(take(perm, positions))
    if return_inverse:
        group = lax.sub(cumsum(mask), _index_constant(1))
        outs.append(set_at(lax.full((length,), 0, dtypes.default_int_dtype()), perm, group))
    if return_counts:
        # the start of each run of equal entries, then the end of the last: their differences are the counts
        bounds = nonzero(mask, size=size + 1)[0]
        bounds = set_tail(bounds, where(tail(bounds), tail(bounds), length))
        outs.append(diff(bounds))
    if return_inverse and inverse_shape != (length,):
        inverse_at = 1 + return_index
        outs[inverse_at] = lax.reshape(outs[inverse_at], inverse_shape)
    if return_true_size:
        outs.append(_count(mask))
    return outs


def _empty_unique(aux: Any, perm: Any, size: int, fill_value: Any, flags: tuple[bool, ...],
                  return_true_size: bool) -> list[Any]:
    rest = get_aval(aux).shape[1:]
    outs = [lax.full((size, *rest), _unique_fill(fill_value, get_aval(aux).dtype)) if size else aux]
    return_index, return_inverse, return_counts = flags
    outs += [perm] if return_index else []
    outs += [lax.full((0,), 0, dtypes.default_int_dtype()) for flag in (return_inverse, return_counts) if flag]
    return outs + [_index_constant(0)] if return_true_size else outs


def _static_size(size: Any) -> int | None:
    return None if size is None else operator.index(size)


def unique(ar: Any, return_index: bool = False, return_inverse: bool = False, return_counts: bool = False,
           axis: int | None = None, *, equal_nan: bool = True, size: int | None = None, fill_value: Any = None,
           sorted: bool = True) -> Any:  # noqa: A002 - NumPy's argument name
    """The sorted distinct entries of ``ar`` (flattened, or the distinct slices along ``axis``), with the index of
    each one's first occurrence, the inverse mapping and the counts when asked for. NaNs count as equal unless
    ``equal_nan`` is False. ``size`` pads the results to a static length (``fill_value``, else the smallest entry;
    indices pad with the first one's, counts with 0) so unique works under jit."""
    check_scalar_arraylike("unique", ar)
    size = _static_size(size)
    if size is None:
        ar = concrete_or_error(ar, _UNIQUE_CONTEXT)
    del sorted  # the results are always sorted, as JAX's are
    outs = _unique(ar, axis, return_index, return_inverse, return_counts, equal_nan, size, fill_value)
    return outs[0] if len(outs) == 1 else tuple(outs)


def unique_all(x: Any, /, *, size: int | None = None, fill_value: Any = None) -> _UniqueAllResult:
    """The array API's ``unique_all``: values, first indices, inverse indices and counts (NaNs all distinct)."""
    check_arraylike("unique_all", x)
    values, indices, inverse_indices, counts = unique(x, True, True, True, equal_nan=False, size=size,
                                                      fill_value=fill_value)
    return _UniqueAllResult(values=values, indices=indices, inverse_indices=inverse_indices, counts=counts)


def unique_counts(x: Any, /, *, size: int | None = None, fill_value: Any = None) -> _UniqueCountsResult:
    """The array API's ``unique_counts``: the distinct values and how often each occurs (NaNs all distinct)."""
    check_arraylike("unique_counts", x)
    values, counts = unique(x, return_counts=True, equal_nan=False, size=size, fill_value=fill_value)
    return _UniqueCountsResult(values=values, counts=counts)


def unique_inverse(x: Any, /, *, size: int | None = None, fill_value: Any = None) -> _UniqueInverseResult:
    """The array API's ``unique_inverse``: the distinct values and, for each entry of ``x``, its value's index."""
    check_arraylike("unique_inverse", x)
    values, inverse_indices = unique(x, return_inverse=True, equal_nan=False, size=size, fill_value=fill_value)
    return _UniqueInverseResult(values=values, inverse_indices=inverse_indices)


def unique_values(x: Any, /, *, size: int | None = None, fill_value: Any = None) -> Any:
    """The array API's ``unique_values``: the sorted distinct values of ``x`` (NaNs all distinct)."""
    check_arraylike("unique_values", x)
    return unique(x, equal_nan=False, size=size, fill_value=fill_value)


# ---------------------------------------------------------------- isin


def _in1d_body(ar1, ar2, invert: bool, method: str, assume_unique: bool):
    ar1, ar2 = promote_dtypes(ar1, ar2)
    ar1, ar2 = ravel(ar1), ravel(ar2)
    n1, n2 = get_aval(ar1).shape[0], get_aval(ar2).shape[0]
    if method in ("auto", "compare_all"):
        pairs = (lax.ne if invert else lax.eq)(lax.broadcast_in_dim(ar1, (n1, 1), (0,)),
                                               lax.broadcast_in_dim(ar2, (1, n2), (1,)))
        return (lax.reduce_and if invert else lax.reduce_or)(strip_weak_type(pairs), (1,))
    if method == "binary_search":
        ar2 = lax.sort(ar2, dimension=0)
        nearest = take(ar2, searchsorted(ar2, ar1))
        return (lax.ne if invert else lax.eq)(ar1, nearest)
    # method == "sort": neighbours in the joint sort are equal exactly where an element of ar1 is in ar2
    if not assume_unique:
        ar1, inverse = _unique(ar1, None, False, True, False, True, n1, lax.reduce_max(ar2, (0,)))
    joint = lax.concatenate([ar1, ar2], 0)
    joint, order = lax.sort((joint, lax.iota(dtypes.default_int_dtype(), n1 + n2)), dimension=0, is_stable=True)
    found = lax.full((n1,), bool(invert), np.bool_)
    positions = head(order)
    flags = (lax.ne if invert else lax.eq)(tail(joint), head(joint))
    found = set_at(found, positions, flags)
    return found if assume_unique else take(found, inverse)


_in1d_body.__name__ = _in1d_body.__qualname__ = "_in1d"
_in1d = jit(_in1d_body, static_argnames=("invert", "method", "assume_unique"))


def isin(element: Any, test_elements: Any, assume_unique: bool = False, invert: bool = False, *,
         method: str = "auto") -> Any:
    """Whether each entry of ``element`` occurs in ``test_elements`` (or not, with ``invert``), in ``element``'s
    shape. ``method`` picks the algorithm: comparing every pair ('compare_all', and 'auto'), a binary search in the
    sorted test elements ('binary_search') or a joint sort ('sort')."""
    check_scalar_arraylike("isin", element, test_elements)
    if method not in _ISIN_METHODS:
        raise ValueError(f"method={method!r} is not implemented; options are 'compare_all', 'binary_search', "
                         "'sort', and 'auto'")
    result = _in1d(element, test_elements, bool(invert), method, bool(assume_unique))
    shape = get_aval(element).shape
    return result if get_aval(result).shape == shape else lax.reshape(result, shape)


# ---------------------------------------------------------------- intersect1d, union1d, setdiff1d, setxor1d


def _pad_with_extremes(values: Any, count: Any) -> Any:
    """``values`` past the first ``count`` replaced by the smallest of the rest (by way of the largest, as JAX)."""
    size = get_aval(values).shape[0]
    values = where(lax.lt(arange(size), count), values, lax.reduce_max(values, (0,)))
    return where(lax.lt(arange(size), count), values, lax.reduce_min(values, (0,)))


def _distinct_padded(ar: Any, return_index: bool, fill_value: Any = None) -> list[Any]:
    """``[values, (first indices,) count]``: ``ar``'s distinct values padded to its length, and how many."""
    return _unique(ar, None, return_index, False, False, True, get_aval(ar).shape[0], fill_value,
                   return_true_size=True)


def _merged(first: Any, first_count: Any, second: Any, total: int) -> Any:
    """``first[:first_count]`` followed by ``second`` in a zero array of length ``total``."""
    merged = lax.full((total,), 0, get_aval(first).dtype)
    merged = lax.dynamic_update_slice(merged, first, (0,))
    return lax.dynamic_update_slice(merged, second, (first_count,))


def _intersect1d_size_body(ar1, ar2, *, assume_unique: bool, return_indices: bool, size: int, fill_value: Any,
                           with_count: bool):
    n1, n2 = get_aval(ar1).shape[0], get_aval(ar2).shape[0]
    if assume_unique:
        (values1, index1, count1), (values2, index2, count2) = ((ar, arange(n), _index_constant(n))
                                                                for ar, n in ((ar1, n1), (ar2, n2)))
    else:
        (values1, index1, count1), (values2, index2, count2) = (_distinct_padded(ar, True, 0) for ar in (ar1, ar2))
    total = n1 + n2
    if assume_unique:
        merged, origin = lax.sort((lax.concatenate([ar1, ar2], 0), arange(total)), dimension=0, is_stable=True)
        valid = lax.full((total,), True, np.bool_)
    else:
        # the distinct values of each input, the padding after them sorted last
        merged = _merged(values1, count1, values2, total)
        valid = lax.lt(arange(total), lax.add(count1, count2))
        _, merged, origin = lax.sort((lax.bitwise_not(valid), merged, arange(total)), dimension=0,
                                     is_stable=True, num_keys=2)
    repeated = lax.bitwise_and(lax.eq(tail(merged), head(merged)), tail(valid))
    count = _count(repeated)
    positions = nonzero(repeated, size=size, fill_value=total)[0]
    values = take(merged, positions, fill_value=0)
    if fill_value is None:
        values = _pad_with_extremes(values, count)
    else:
        values = where(lax.lt(arange(size), count), values, fill_value)
    if not return_indices:
        return (values, count) if with_count else values
    in_first = take(origin, positions, fill_value=n1)
    in_first = where(lax.lt(arange(size), count), in_first, n1)
    following = lax.add(positions, _index_constant(1))
    in_second = lax.sub(take(origin, following, fill_value=n2), count1)
    in_second = where(lax.lt(arange(size), count), in_second, n2)
    if not assume_unique:
        in_first, in_second = take(index1, in_first, fill_value=n1), take(index2, in_second, fill_value=n2)
    return (values, in_first, in_second, count) if with_count else (values, in_first, in_second)


_intersect1d_size_body.__name__ = _intersect1d_size_body.__qualname__ = "_intersect1d_size"
_intersect1d_size = jit(_intersect1d_size_body,
                        static_argnames=("assume_unique", "return_indices", "size", "fill_value", "with_count"))


def _concrete_inputs(ar1: Any, ar2: Any, context: str, mask_size: int | None = None) -> tuple[Any, Any]:
    """The inputs of an unsized set operation, which must be concrete. With ``mask_size`` (operations on inputs
    assumed unique), JAX's error is that of indexing with the traced boolean mask of that length."""
    if mask_size is not None and any(isinstance(x, Tracer) for x in (ar1, ar2)):
        raise NonConcreteBooleanIndexError(f"Array boolean indices must be concrete; got bool[{mask_size}]")
    return concrete_or_error(ar1, context), concrete_or_error(ar2, context)


def _cut(results: tuple[Any, ...]) -> Any:
    """Sized results cut to their true length (the count, last): the eager form of a set operation."""
    count = int(np.asarray(concrete_or_error(results[-1], _UNIQUE_CONTEXT)))
    cut = tuple(lax.slice(r, (0,), (count,)) for r in results[:-1])
    return cut[0] if len(cut) == 1 else cut


def _flat_operands(name: str, ar1: Any, ar2: Any, promoted_first: bool = False) -> tuple[Any, Any]:
    """``ar1`` and ``ar2`` flattened (by ``jnp.ravel``, whose parameter names an operand on other devices, as in
    JAX) and promoted to a common dtype, in JAX's order for ``name`` (promoted first: ``promoted_first``)."""
    check_scalar_arraylike(name, ar1, ar2)
    if promoted_first:
        return tuple(map(ravel, promote_dtypes(ar1, ar2)))
    return promote_dtypes(ravel(ar1), ravel(ar2))


def intersect1d(ar1: Any, ar2: Any, assume_unique: bool = False, return_indices: bool = False, *,
                size: int | None = None, fill_value: Any = None) -> Any:
    """The sorted values in both ``ar1`` and ``ar2`` (flattened), with the indices of their first occurrences in
    each when ``return_indices``. ``size`` pads to a static length (``fill_value``, else the smallest value; the
    indices pad with each input's length)."""
    ar1, ar2 = _flat_operands("intersect1d", ar1, ar2, promoted_first=True)
    size = _static_size(size)
    if size is not None:
        return _intersect1d_size(ar1, ar2, assume_unique=bool(assume_unique), return_indices=bool(return_indices),
                                 size=size, fill_value=fill_value, with_count=False)
    total = get_aval(ar1).shape[0] + get_aval(ar2).shape[0]
    ar1, ar2 = _concrete_inputs(ar1, ar2, _UNIQUE_CONTEXT, total - 1 if assume_unique else None)
    most = min(get_aval(ar1).shape[0], get_aval(ar2).shape[0])
    return _cut(_intersect1d_size(ar1, ar2, assume_unique=bool(assume_unique), return_indices=bool(return_indices),
                                  size=most, fill_value=None, with_count=True))


def union1d(ar1: Any, ar2: Any, *, size: int | None = None, fill_value: Any = None) -> Any:
    """The sorted values in ``ar1`` or ``ar2`` (flattened). ``size`` pads to a static length (``fill_value``,
    else the smallest value)."""
    ar1, ar2 = _flat_operands("union1d", ar1, ar2)
    size = _static_size(size)
    if size is None:
        ar1, ar2 = _concrete_inputs(ar1, ar2, "The error arose in union1d()")
    return unique(lax.concatenate([ar1, ar2], 0), size=size, fill_value=fill_value)


def _setdiff1d_sized(ar1: Any, ar2: Any, assume_unique: bool, size: int, fill_value: Any,
                     with_count: bool) -> tuple[Any, ...]:
    """setdiff1d's values padded to ``size`` (and their true number ``with_count``)."""
    n1 = get_aval(ar1).shape[0]
    fill = _fill_constant(0 if fill_value is None else fill_value, get_aval(ar1).dtype)
    if n1 == 0:
        return (lax.full((size,), fill), _index_constant(0))[:1 + with_count]
    if not assume_unique:
        ar1 = _unique(ar1, None, False, False, False, True, n1, None)[0]
    keep = _in1d(ar1, ar2, True, "auto", False)
    if not assume_unique:
        # unique pads with copies of its first value: only the first n1 + 1 - (copies of it) entries are distinct
        first = lax.squeeze(lax.slice(ar1, (0,), (1,)), (0,))
        distinct = lax.sub(_index_constant(n1 + 1), _count(lax.eq(ar1, first)))
        keep = where(lax.lt(arange(n1), distinct), keep, False)
    valid = lax.lt(arange(size), _count(keep))
    result = where(valid, take(ar1, nonzero(keep, size=size)[0]), fill)
    return (result, _count(keep)) if with_count else (result,)


def setdiff1d(ar1: Any, ar2: Any, assume_unique: bool = False, *, size: int | None = None,
              fill_value: Any = None) -> Any:
    """The sorted distinct values of ``ar1`` that are not in ``ar2`` (flattened). ``size`` pads to a static length
    (``fill_value``, else 0)."""
    ar1, ar2 = _flat_operands("setdiff1d", ar1, ar2)
    size = _static_size(size)
    if size is not None:
        return _setdiff1d_sized(ar1, ar2, bool(assume_unique), size, fill_value, False)[0]
    ar1, ar2 = _concrete_inputs(ar1, ar2, "The error arose in setdiff1d()")
    return _cut(_setdiff1d_sized(ar1, ar2, bool(assume_unique), get_aval(ar1).shape[0], None, True))


def _setxor1d_size_body(ar1, ar2, fill_value, *, assume_unique: bool, size: int, with_count: bool):
    n1, n2 = get_aval(ar1).shape[0], get_aval(ar2).shape[0]
    total = n1 + n2
    # the starts of the runs of equal values, and the end of the last run: a value is in exactly one input where
    # its run starts and the next one starts right after it
    if assume_unique:
        lax.concatenate([ar1, ar2], 0)  # staged twice by JAX too (its jaxprs keep the unused one)
        merged = sort(lax.concatenate([ar1, ar2], 0))
        differs = lax.ne(tail(merged), head(merged))
        starts = lax.concatenate([lax.reshape(np.True_, (1,)), differs, lax.reshape(np.True_, (1,))], 0)
    else:
        values1, count1 = _distinct_padded(ar1, False)
        values2, count2 = _distinct_padded(ar2, False)
        merged = _merged(values1, count1, values2, total)
        count = lax.add(count1, count2)
        valid = lax.lt(arange(total + 1), lax.add(count, _index_constant(1)))
        _, merged = lax.sort((lax.bitwise_not(tail(valid)), merged), dimension=0, is_stable=True, num_keys=2)
        differs = lax.ne(tail(merged), head(merged))
        starts = lax.concatenate([lax.reshape(np.True_, (1,)), differs, lax.reshape(np.False_, (1,))], 0)
        starts = lax.bitwise_and(valid, set_at(starts, count, np.True_))
    alone = lax.bitwise_and(tail(starts), head(starts))
    count = _count(alone)
    values = take(merged, nonzero(alone, size=size, fill_value=total)[0], fill_value=0)
    if fill_value is None:
        values = _pad_with_extremes(values, count)
    else:
        values = where(lax.lt(arange(size), count), values, fill_value)
    return (values, count) if with_count else values


_setxor1d_size_body.__name__ = _setxor1d_size_body.__qualname__ = "_setxor1d_size"
_setxor1d_size = jit(_setxor1d_size_body, static_argnames=("assume_unique", "size", "with_count"))


def setxor1d(ar1: Any, ar2: Any, assume_unique: bool = False, *, size: int | None = None,
             fill_value: Any = None) -> Any:
    """The sorted values in exactly one of ``ar1`` and ``ar2`` (flattened). ``size`` pads to a static length
    (``fill_value``, else the smallest value)."""
    ar1, ar2 = _flat_operands("setxor1d", ar1, ar2)
    size = _static_size(size)
    if size is not None:
        return _setxor1d_size(ar1, ar2, fill_value, assume_unique=bool(assume_unique), size=size, with_count=False)
    total = get_aval(ar1).shape[0] + get_aval(ar2).shape[0]
    ar1, ar2 = _concrete_inputs(ar1, ar2, _UNIQUE_CONTEXT, total if assume_unique else None)
    return _cut(_setxor1d_size(ar1, ar2, None, assume_unique=bool(assume_unique), size=total, with_count=True))
