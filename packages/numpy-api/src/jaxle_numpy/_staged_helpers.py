"""jnp building blocks that sorting and the set operations stage under JAX's jit names, so that their jaxprs print
as JAX's: ``where``, ``floor_divide``, ``remainder``, ``clip`` (lower bound), ``diff``, jnp's indexing forms
(``x[idx]``, ``x.at[idx].set``, ``x.at[1:].set``) and ``nonzero`` with a static size, JAX's program for it (a
bincount of the running count).

Only the forms these modules use are here (integer indices along the first axis, integer arithmetic); the public
jnp functions of the same names live in their own modules.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import dtypes, jit, lax
from jaxle_core.avals import get_aval
from jaxle_numpy.cumulative import cumsum
from jaxle_numpy.util import promote_dtypes

__all__: list[str] = []


def _staged(body, name: str, static_argnames: tuple[str, ...] = ()):
    body.__name__ = name
    return jit(body, static_argnames=static_argnames)


def _broadcast_to(x: Any, shape: tuple[int, ...]) -> Any:
    """``x`` broadcast to ``shape`` in one ``broadcast_in_dim`` (its dimensions aligned to the end)."""
    x_shape = get_aval(x).shape
    if x_shape == shape:
        return x
    lead = len(shape) - len(x_shape)
    return lax.broadcast_in_dim(x, shape, tuple(range(lead, len(shape))))


def _where_body(condition, x, y):
    if get_aval(condition).dtype != np.bool_:
        condition = lax.ne(condition, np.array(0, get_aval(condition).dtype))
    x, y = promote_dtypes(x, y)
    shape = np.broadcast_shapes(*(get_aval(v).shape for v in (condition, x, y)))
    condition, x, y = (_broadcast_to(v, shape) for v in (condition, x, y))
    return lax.select_n(condition, y, x)


where = _staged(_where_body, "_where")


def _floor_divide_body(x, y):
    """``x // y`` for integers (the unsigned case is a plain division)."""
    dtype = get_aval(x).dtype
    if get_aval(y).dtype != dtype:
        y = lax.convert_element_type(y, dtype)
    quotient = lax.div(x, y)
    if dtypes.issubdtype(dtype, np.unsignedinteger):
        return quotient
    signs_differ = lax.ne(lax.sign(x), lax.sign(y))
    inexact = lax.ne(lax.rem(x, y), np.array(0, dtype))
    return where(lax.bitwise_and(signs_differ, inexact), lax.sub(quotient, np.array(1, dtype)), quotient)


floor_divide = _staged(_floor_divide_body, "floor_divide")


def _remainder_body(x, y):
    """``x % y`` for integers with the sign of ``y``; a zero divisor is read as one."""
    x, y = promote_dtypes(x, y)
    dtype = get_aval(y).dtype
    zero = np.array(0, dtype)
    y = where(lax.eq(y, zero), np.array(1, dtype), y)
    remainder = lax.rem(x, y)
    nonzero = lax.ne(remainder, zero)
    wrong_sign = lax.bitwise_and(lax.ne(lax.lt(remainder, zero), lax.lt(y, zero)), nonzero)
    return lax.select_n(wrong_sign, remainder, lax.add(remainder, y))


remainder = _staged(_remainder_body, "remainder")


def _clip_body(x, lower):
    return lax.max(promote_dtypes(lower, x)[0], x)


clip_below = _staged(_clip_body, "clip")


def _diff_body(x):
    n = get_aval(x).shape[0]
    return lax.sub(lax.slice(x, (1,), (n,)), lax.slice(x, (0,), (n - 1,)))


diff = _staged(_diff_body, "diff")


def count_true(mask: Any) -> Any:
    """``mask.sum()`` of a boolean array: the number of True entries, of the default integer dtype."""
    mask = lax.convert_element_type(mask, dtypes.default_int_dtype())
    return lax.reduce_sum(mask, tuple(range(get_aval(mask).ndim)))


def arange(size: int) -> Any:
    return lax.iota(dtypes.default_int_dtype(), size)


# ---------------------------------------------------------------- indexing along the first axis


def _nonnegative(indices: Any, size: int) -> Any:
    """``indices`` with negative entries counted from the end, as jnp's indexing stages it."""
    dtype = get_aval(indices).dtype
    return lax.select_n(lax.lt(indices, np.array(0, dtype)), indices, lax.add(indices, np.array(size, dtype)))


def _index_column(indices: Any, size: int) -> Any:
    shape = get_aval(indices).shape
    return lax.broadcast_in_dim(_nonnegative(indices, size), (*shape, 1), tuple(range(len(shape))))


def take(operand: Any, indices: Any, fill_value: Any = None) -> Any:
    """``operand[indices]`` for an integer index array: whole slices of ``operand`` along its first axis.
    With a ``fill_value``, ``operand.at[indices].get(mode='fill', fill_value=...)``: out-of-range indices read it."""
    shape = get_aval(operand).shape
    index_ndim = get_aval(indices).ndim
    dn = lax.GatherDimensionNumbers(offset_dims=tuple(range(index_ndim, index_ndim + len(shape) - 1)),
                                    collapsed_slice_dims=(0,), start_index_map=(0,))
    mode = lax.GatherScatterMode.PROMISE_IN_BOUNDS if fill_value is None else lax.GatherScatterMode.FILL_OR_DROP
    column = _index_column(indices, shape[0])
    if shape[0] == 0:  # nothing to read: jnp's indexing gives zeros
        return lax.full(get_aval(indices).shape + shape[1:], 0, get_aval(operand).dtype)
    return lax.gather(operand, column, dn, (1, *shape[1:]), mode=mode, fill_value=fill_value)


_ELEMENT_SCATTER = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                               scatter_dims_to_operand_dims=(0,))


def _scattered(scatter, operand: Any, indices: Any, updates: Any) -> Any:
    size = get_aval(operand).shape[0]
    index_shape = get_aval(indices).shape
    indices = _index_column(indices, size)
    if get_aval(updates).shape != index_shape:
        updates = lax.broadcast_in_dim(updates, index_shape, ())
    return scatter(operand, indices, updates, _ELEMENT_SCATTER, mode=lax.GatherScatterMode.FILL_OR_DROP)


def set_at(operand: Any, indices: Any, updates: Any) -> Any:
    """``operand.at[indices].set(updates)`` for a 1-D ``operand`` and an integer index array."""
    return _scattered(lax.scatter, operand, indices, updates)


def add_at(operand: Any, indices: Any, updates: Any) -> Any:
    """``operand.at[indices].add(updates)`` for a 1-D ``operand`` and an integer index array."""
    return _scattered(lax.scatter_add, operand, indices, updates)


def set_tail(operand: Any, updates: Any) -> Any:
    """``operand.at[1:].set(updates)``: a static slice written by one scatter, as jnp stages it."""
    dn = lax.ScatterDimensionNumbers(update_window_dims=(0,), inserted_window_dims=(),
                                     scatter_dims_to_operand_dims=(0,))
    start = lax.full((1,), 1, dtypes.default_int_dtype())
    if get_aval(updates).shape[0] == 0:  # an empty slice: jnp writes nothing
        return operand
    return lax.scatter(operand, start, updates, dn, indices_are_sorted=True, unique_indices=True,
                       mode=lax.GatherScatterMode.FILL_OR_DROP)


def tail(x: Any) -> Any:
    """``x[1:]`` along the first axis."""
    shape = get_aval(x).shape
    return lax.slice(x, (1,) + (0,) * (len(shape) - 1), shape)


def head(x: Any) -> Any:
    """``x[:-1]`` along the first axis."""
    shape = get_aval(x).shape
    return lax.slice(x, (0,) * len(shape), (shape[0] - 1, *shape[1:]))


def nonzero_sized(mask: Any, size: int, fill_value: Any = None) -> Any:
    """``jnp.nonzero(mask, size=size, fill_value=fill_value)[0]`` for a 1-D boolean ``mask``: the positions of its
    True entries, padded with ``fill_value`` (zeros by default) or cut to ``size``."""
    n = get_aval(mask).shape[0]
    index_dtype = dtypes.default_int_dtype()
    if n == 0:
        return lax.full((size,), 0, index_dtype)
    # how many True entries come before each position of the result: a bincount of the running count
    running = cumsum(mask)
    counts = lax.full((size,), 0, index_dtype)
    counts = add_at(counts, clip_below(running, 0), np.array(1, index_dtype))
    flat = cumsum(counts)
    # jnp.unravel_index of one dimension: (flat // stride) % size
    positions = remainder(floor_divide(flat, np.array(1, index_dtype)), n)
    if fill_value is None:
        return positions
    return where(lax.ge(arange(size), count_true(mask)), fill_value, positions)
