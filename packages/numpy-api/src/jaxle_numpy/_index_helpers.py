"""Short names for the jnp indexing forms sorting and the set operations use along the first axis (``x[idx]``,
``x.at[idx].get(mode='fill')``, ``x.at[idx].set``, ``x.at[1:].set``, ``x[1:]``, ``x[:-1]``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_core.avals import get_aval
from jaxle_numpy.indexing import at, getitem

__all__: list[str] = []


# ---------------------------------------------------------------- indexing along the first axis


def take(operand: Any, indices: Any, fill_value: Any = None) -> Any:
    """``operand[indices]``; with a ``fill_value``, out-of-range indices read it instead."""
    if fill_value is None:
        return getitem(operand, indices)
    return at(operand)[indices].get(mode="fill", fill_value=fill_value)


def set_at(operand: Any, indices: Any, updates: Any) -> Any:
    return at(operand)[indices].set(updates)


def set_tail(operand: Any, updates: Any) -> Any:
    """``operand.at[1:].set(updates)``; like JAX's, an empty slice stages no scatter and the start is an int32
    index whatever the default integer type."""
    start = lax.full((1,), 1, np.int32)
    if get_aval(updates).shape[0] == 0:
        return operand
    dn = lax.ScatterDimensionNumbers(update_window_dims=tuple(range(get_aval(updates).ndim)),
                                     inserted_window_dims=(), scatter_dims_to_operand_dims=(0,))
    return lax.scatter(operand, start, updates, dn, indices_are_sorted=True, unique_indices=True,
                       mode=lax.GatherScatterMode.FILL_OR_DROP)


def tail(x: Any) -> Any:
    return getitem(x, slice(1, None))


def head(x: Any) -> Any:
    return getitem(x, slice(None, -1))
