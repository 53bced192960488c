"""Sorting and searching: sort, argsort, lexsort, partition, argpartition, searchsorted, sort_complex.

Every function is staged as JAX stages it (``jit[name=sort]``, ``jit[name=_searchsorted_scan_impl]``, ...), so
that jaxprs print alike. The order is lax.sort's: NaNs last, -0.0 equal to +0.0, complex numbers by real part then
imaginary part.
"""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxle_core import dtypes, jit, lax, vmap
from jaxle_core.avals import get_aval
from jaxle_core.lax import elementwise as lax_elementwise
from jaxle_core.sharding_types import check_type_mesh
from jaxle_numpy._index_helpers import set_at, take
from jaxle_numpy.ufuncs import floor_divide
from jaxle_numpy.util import canonicalize_axis, check_arraylike, promote_dtypes

__all__ = ["argpartition", "argsort", "lexsort", "partition", "searchsorted", "sort", "sort_complex"]

_SEARCHSORTED_METHODS = ("compare_all", "scan", "scan_unrolled", "sort")


# ---------------------------------------------------------------- helpers


def _index_dtype() -> np.dtype:
    """The dtype of the indices jnp returns: the default integer (int64 with x64)."""
    return dtypes.default_int_dtype()


def _axis_of(axis: Any, ndim: int) -> int:
    return canonicalize_axis(operator.index(axis), ndim)


def _swap_axis_last(a: Any, axis: int) -> tuple[Any, tuple[int, ...] | None]:
    """``a`` with ``axis`` swapped with the last one, and that permutation (its own inverse; None when nothing
    moved)."""
    ndim = get_aval(a).ndim
    if axis == ndim - 1:
        return a, None
    perm = list(range(ndim))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    return lax.transpose(a, perm), tuple(perm)


# ---------------------------------------------------------------- sort, argsort


def _check_sort_options(name: str, kind: Any, order: Any) -> None:
    if kind is not None:
        raise TypeError(f"'kind' argument to {name} is not supported. Use stable=True or stable=False to specify "
                        "sort stability.")
    if order is not None:
        raise TypeError(f"'order' argument to {name} is not supported.")


def _sort_body(a, axis: int | None = -1, *, kind: None = None, order: None = None, stable: bool = True,
               descending: bool = False):
    check_arraylike("sort", a)
    _check_sort_options("sort", kind, order)
    if axis is None:
        a = lax.reshape(a, (math.prod(get_aval(a).shape),))
        axis = 0
    axis = _axis_of(axis, get_aval(a).ndim)
    result = lax.sort(a, dimension=axis, is_stable=stable)
    return lax.rev(result, (axis,)) if descending else result


_sort_body.__name__ = _sort_body.__qualname__ = "sort"
_sorted = jit(_sort_body, static_argnames=("axis", "kind", "order", "stable", "descending"))


def sort(a: Any, axis: int | None = -1, *, kind: None = None, order: None = None, stable: bool = True,
         descending: bool = False) -> Any:
    """``a`` sorted along ``axis`` (flattened first when None); NaNs last, ``descending`` reverses the order."""
    check_arraylike("sort", a)
    return _sorted(a, axis, kind=kind, order=order, stable=stable, descending=descending)


def _argsort_body(a, axis: int | None = -1, *, kind: None = None, order: None = None, stable: bool = True,
                  descending: bool = False, dtype: Any = None):
    _check_sort_options("argsort", kind, order)
    if axis is None:
        a = lax.reshape(a, (math.prod(get_aval(a).shape),))
        axis = 0
    shape = get_aval(a).shape
    axis = _axis_of(axis, len(shape))
    index_type = _index_dtype() if dtype is None else dtypes.dtype(dtype, requested_in="argsort")
    # laid out as ``a`` (over Explicit mesh axes), as the sort that pairs them needs; as JAX's, typed over the mesh
    # of Auto axes ``a`` lies over, which another mesh set refuses
    check_type_mesh(get_aval(a), "broadcasted_iota", located=False)
    iota = lax.broadcasted_iota(index_type, shape, axis, out_sharding=get_aval(a).explicit_sharding)
    if descending and stable:
        # reversing first keeps equal elements in their original order once the result is reversed back
        _, indices = lax.sort((lax.rev(a, (axis,)), lax.rev(iota, (axis,))), dimension=axis, is_stable=True)
        return lax.rev(indices, (axis,))
    _, indices = lax.sort((a, iota), dimension=axis, is_stable=stable)
    return lax.rev(indices, (axis,)) if descending else indices


_argsort_body.__name__ = _argsort_body.__qualname__ = "argsort"
_argsorted = jit(_argsort_body, static_argnames=("axis", "kind", "order", "stable", "descending", "dtype"))


def argsort(a: Any, axis: int | None = -1, *, kind: None = None, order: None = None, stable: bool = True,
            descending: bool = False, dtype: Any = None) -> Any:
    """The indices that sort ``a`` along ``axis``, of the default integer dtype unless ``dtype`` is given."""
    check_arraylike("argsort", a)
    return _argsorted(a, axis, kind=kind, order=order, stable=stable, descending=descending, dtype=dtype)


def _lexsort_body(keys, axis: int = -1):
    if not isinstance(keys, (tuple, list)):
        keys = _unstack(keys)
    keys = tuple(keys)
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    shapes = {get_aval(k).shape for k in keys}
    if len(shapes) > 1:
        raise ValueError("all keys need to be the same shape")
    shape = get_aval(keys[0]).shape
    if not shape:
        return np.array(0, _index_dtype())
    axis = _axis_of(axis, len(shape))
    iota = lax.broadcasted_iota(_index_dtype(), shape, axis)
    # the last key is the primary one
    return lax.sort((*keys[::-1], iota), dimension=axis, is_stable=True, num_keys=len(keys))[-1]


def _unstack(keys: Any) -> list[Any]:
    """The rows of ``keys`` along its first axis, as iterating a jnp array yields them."""
    shape = get_aval(keys).shape
    if not shape:
        raise TypeError("iteration over a 0-d array")
    rows = []
    for i in range(shape[0]):
        row = lax.slice(keys, (i,) + (0,) * (len(shape) - 1), (i + 1, *shape[1:]), (1,) * len(shape))
        rows.append(lax.squeeze(row, (0,)))
    return rows


_lexsort_body.__name__ = _lexsort_body.__qualname__ = "lexsort"
_lexsorted = jit(_lexsort_body, static_argnames=("axis",))


def lexsort(keys: Any | Sequence[Any], axis: int = -1) -> Any:
    """The indices that sort by several keys along ``axis``, the last key primary (NumPy's ``lexsort``)."""
    if isinstance(keys, (tuple, list)):
        check_arraylike("lexsort", *keys)
    else:
        check_arraylike("lexsort", keys)
    return _lexsorted(keys, axis)


def _sort_complex_body(a):
    result = lax.sort(a, dimension=_axis_of(-1, get_aval(a).ndim), is_stable=True)
    complex_dtype = dtypes.to_complex_dtype(dtypes.result_type(result))
    return lax.convert_element_type(result, complex_dtype)


_sort_complex_body.__name__ = _sort_complex_body.__qualname__ = "sort_complex"
_sorted_complex = jit(_sort_complex_body)


def sort_complex(a: Any) -> Any:
    """``a`` sorted along its last axis, as complex numbers (real part first, then imaginary part)."""
    check_arraylike("sort_complex", a)
    return _sorted_complex(a)


# ---------------------------------------------------------------- partition, argpartition


def _partition_order(a: Any) -> Any:
    """A value whose largest entries are ``a``'s smallest: ``-a``, or ``-(a + 1)`` for unsigned integers."""
    dtype = get_aval(a).dtype
    if dtypes.issubdtype(dtype, np.unsignedinteger):
        return lax.neg(lax.add(a, np.array(1, dtype)))
    return lax.neg(a)


def _partition_setup(name: str, a: Any, kth: Any, axis: Any) -> tuple[Any, int, int, tuple[int, ...] | None]:
    check_arraylike(name, a)
    if dtypes.issubdtype(get_aval(a).dtype, np.complexfloating):
        raise NotImplementedError(f"jnp.{name} for complex dtype is not implemented.")
    shape = get_aval(a).shape
    axis = _axis_of(axis, len(shape))
    kth = _axis_of(kth, shape[axis])
    a, undo = _swap_axis_last(a, axis)
    return a, kth, shape[axis], undo


def _partition_body(a, kth: int, axis: int = -1):
    a, kth, n, undo = _partition_setup("partition", a, kth, axis)
    dtype = get_aval(a).dtype
    bottom = lax.neg(lax.top_k(_partition_order(a), kth + 1)[0])
    if dtypes.issubdtype(dtype, np.unsignedinteger):
        bottom = lax.sub(bottom, np.array(1, dtype))
    top = lax.top_k(a, n - kth - 1)[0]
    result = lax.concatenate([bottom, top], get_aval(a).ndim - 1)
    return result if undo is None else lax.transpose(result, undo)


_partition_body.__name__ = _partition_body.__qualname__ = "partition"
_partitioned = jit(_partition_body, static_argnames=("kth", "axis"))


def partition(a: Any, kth: int, axis: int = -1) -> Any:
    """``a`` rearranged along ``axis`` so that entry ``kth`` is where sorting puts it, smaller entries before it
    and larger ones after (each side in an unspecified order)."""
    check_arraylike("partition", a)
    return _partitioned(a, kth, axis)


def _zero_at(mask: Any, indices: Any) -> Any:
    return set_at(mask, indices, np.array(0, get_aval(mask).dtype))


def _argpartition_body(a, kth: int, axis: int = -1):
    a, kth, n, undo = _partition_setup("argpartition", a, kth, axis)
    shape = get_aval(a).shape
    bottom = lax.top_k(_partition_order(a), kth + 1)[1]
    # the entries not among the bottom kth + 1 are the ones of a mask left at one after zeroing the bottom ones
    mask = lax.full(shape, 1.0, dtypes.default_float_dtype())
    zero_at = _zero_at
    for _ in range(len(shape) - 1):
        zero_at = vmap(zero_at)
    top = lax.top_k(zero_at(mask, bottom), n - kth - 1)[1]
    result = lax.concatenate([bottom, top], len(shape) - 1)
    return result if undo is None else lax.transpose(result, undo)


_argpartition_body.__name__ = _argpartition_body.__qualname__ = "argpartition"
_argpartitioned = jit(_argpartition_body, static_argnames=("kth", "axis"))


def argpartition(a: Any, kth: int, axis: int = -1) -> Any:
    """The indices that ``partition`` would arrange ``a`` by (int32, as ``lax.top_k`` gives them)."""
    check_arraylike("argpartition", a)
    return _argpartitioned(a, kth, axis)


# ---------------------------------------------------------------- searchsorted


def _canonical_parts(x: Any) -> list[Any]:
    """The keys sort orders ``x`` by (real and imaginary parts of a complex ``x``), with -0.0 made +0.0 and every
    NaN the same NaN, so that total-order comparisons follow sort's order."""
    dtype = get_aval(x).dtype
    if dtypes.issubdtype(dtype, np.complexfloating):
        return [*_canonical_parts(lax.real(x)), *_canonical_parts(lax.imag(x))]
    if not dtypes.issubdtype(dtype, np.floating):
        return [x]
    # the fills laid out as ``x`` (over Explicit mesh axes the select needs its cases alike)
    zeroed = lax.select_n(lax.eq(x, np.array(0, dtype)), x, lax.full_like(x, 0, dtype))
    return [lax.select_n(lax.ne(x, x), zeroed, lax.full_like(x, np.nan, dtype))]


def _lexicographic(last: Any, xs: list[Any], ys: list[Any], compare: Any) -> Any:
    """``xs < ys`` lexicographically over the keys, ending with ``last`` (``le_to``/``lt_to``) on the last key;
    ``compare(primitive, x, y)`` compares one key."""
    result = compare(last, xs[-1], ys[-1])
    for x, y in zip(reversed(xs[:-1]), reversed(ys[:-1])):
        less = compare(lax_elementwise.lt_to_p, x, y)
        result = lax.bitwise_or(less, lax.bitwise_and(compare(lax_elementwise.eq_to_p, x, y), result))
    return result


def _bind_compare(primitive: Any, x: Any, y: Any) -> Any:
    return primitive.bind(x, y)


def _goes_left(side: str, query: Any, entry: Any) -> Any:
    """``query <= entry`` (left) or ``query < entry`` (right) in sort's order."""
    last = lax_elementwise.le_to_p if side == "left" else lax_elementwise.lt_to_p
    return _lexicographic(last, _canonical_parts(query), _canonical_parts(entry), _bind_compare)


def _searchsorted_scan_body(sorted_arr, query, *, side: str, unrolled: bool):
    n = get_aval(sorted_arr).shape[0]
    query_shape = get_aval(query).shape
    if n == 0:
        return lax.full(query_shape, 0, np.int32)
    if query_shape:
        batched = vmap(functools.partial(_searchsorted_scan, side=side, unrolled=unrolled), in_axes=(None, 0))
        return batched(sorted_arr, query)
    position_dtype = np.dtype(np.uint32) if n < 2 ** 31 else np.dtype(np.uint64)
    steps = int(np.ceil(np.log2(n + 1)))

    def step(carry, _):
        low, high = carry
        mid = lax.add(low, floor_divide(lax.sub(high, low), 2))
        go_left = _goes_left(side, query, lax.squeeze(lax.dynamic_slice(sorted_arr, (mid,), (1,)), (0,)))
        return (lax.select_n(go_left, mid, low), lax.select_n(go_left, high, mid)), None

    init = (np.array(0, position_dtype), np.array(n, position_dtype))
    (_, position), _ = lax.scan(step, init, None, length=steps, unroll=steps if unrolled else 1)
    return lax.convert_element_type(position, np.int32)


_searchsorted_scan_body.__name__ = _searchsorted_scan_body.__qualname__ = "_searchsorted_scan_impl"
_searchsorted_scan = jit(_searchsorted_scan_body, static_argnames=("side", "unrolled"))


def _searchsorted_sort_body(sorted_arr, query, *, side: str):
    n = get_aval(sorted_arr).shape[0]
    size = math.prod(get_aval(query).shape)
    flat = lax.reshape(query, (size,))
    # a stable sort puts queries before equal entries of the array (left) or after them (right)
    combined = lax.concatenate([flat, sorted_arr] if side == "left" else [sorted_arr, flat], 0)
    positions = _sorted_positions(combined)
    start = 0 if side == "left" else n
    if (start, size) != (0, n + size):  # jnp's slicing stages nothing for a slice of everything
        positions = lax.slice(positions, (start,), (start + size,))
    ranks = _sorted_positions(lax.reshape(query, (size,)))
    return lax.reshape(lax.sub(positions, ranks), get_aval(query).shape)


def _sorted_positions(x: Any) -> Any:
    """Where each entry of the 1-D ``x`` lands when ``x`` is stably sorted."""
    size = get_aval(x).shape[0]
    iota = lax.iota(np.int32, size)
    zeros = lax.full((size,), 0, np.int32)
    _, perm = lax.sort((x, iota), dimension=0, is_stable=True)
    return set_at(zeros, perm, iota)


_searchsorted_sort_body.__name__ = _searchsorted_sort_body.__qualname__ = "_searchsorted_sort_impl"
_searchsorted_sort = jit(_searchsorted_sort_body, static_argnames=("side",))


def _searchsorted_compare_all_body(sorted_arr, query, *, side: str):
    a_parts, q_parts = _canonical_parts(sorted_arr), _canonical_parts(query)
    q_shape = get_aval(query).shape
    n = get_aval(sorted_arr).shape[0]

    def compare_all(primitive: Any, a: Any, q: Any) -> Any:
        if q_shape:  # bound directly: JAX's dimensions here are NumPy integers, which its jaxprs print as such
            q = lax.broadcast_in_dim_p.bind(q, shape=(1, *q_shape), sharding=None,
                                            broadcast_dimensions=tuple(np.int64(d + 1) for d in range(len(q_shape))))
        return primitive.bind(lax.broadcast_in_dim(a, (n, *(1,) * len(q_shape)), (0,)), q)

    # the position is the count of entries before the query: a_i < q (left) or a_i <= q (right)
    last = lax_elementwise.lt_to_p if side == "left" else lax_elementwise.le_to_p
    below = _lexicographic(last, a_parts, q_parts, compare_all)
    return lax.reduce_sum(lax.convert_element_type(below, np.int32), (0,))


_searchsorted_compare_all_body.__name__ = _searchsorted_compare_all_body.__qualname__ = "_searchsorted_compare_all_impl"
_searchsorted_compare_all = jit(_searchsorted_compare_all_body, static_argnames=("side",))


def _searchsorted_body(a, v, side: str = "left", sorter=None, *, method: str = "scan"):
    if side not in ("left", "right"):
        raise ValueError(f"invalid argument side={side!r}, expected 'left' or 'right'")
    if method not in _SEARCHSORTED_METHODS:
        raise ValueError(f"invalid argument method={method!r}, expected one of {list(_SEARCHSORTED_METHODS)}")
    if get_aval(a).ndim != 1:
        raise ValueError("a should be 1-dimensional")
    if sorter is not None:
        a = take(a, sorter)
    a, v = promote_dtypes(a, v)
    if method in ("scan", "scan_unrolled"):
        return _searchsorted_scan(a, v, side=side, unrolled=method == "scan_unrolled")
    if method == "sort":
        return _searchsorted_sort(a, v, side=side)
    return _searchsorted_compare_all(a, v, side=side)


_searchsorted_body.__name__ = _searchsorted_body.__qualname__ = "searchsorted"
_searchsorted = jit(_searchsorted_body, static_argnames=("side", "method"))


def searchsorted(a: Any, v: Any, side: str = "left", sorter: Any = None, *, method: str = "scan") -> Any:
    """Where each of ``v`` would be inserted into the sorted 1-D ``a`` to keep it sorted (int32 indices);
    ``sorter`` sorts ``a`` first. ``method`` picks the algorithm: a binary search ('scan', 'scan_unrolled'), a
    joint sort ('sort') or comparing every pair ('compare_all')."""
    if sorter is None:
        check_arraylike("searchsorted", a, v)
    else:
        check_arraylike("searchsorted", a, v, sorter)
    return _searchsorted(a, v, side, sorter, method=method)
