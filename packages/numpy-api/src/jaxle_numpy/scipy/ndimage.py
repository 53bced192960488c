"""``jax.scipy.ndimage``: interpolating an array at arbitrary coordinates (nearest-neighbour or linear)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import jaxle_numpy as jnp
from jaxle_core.avals import get_aval
from jaxle_numpy.util import check_arraylike

__all__ = ["map_coordinates"]

_MODES = {"nearest", "reflect", "wrap", "constant", "mirror"}


def _fold_index(index: Any, size: int, mode: str) -> Any:
    """An integer index anywhere mapped into ``[0, size)`` by the boundary ``mode`` (constant keeps it)."""
    if mode == "nearest":
        return jnp.clip(index, 0, size - 1)
    if mode == "wrap":
        return jnp.mod(index, size)
    if mode == "reflect":  # ... 1 0 | 0 1 2 ... n-1 | n-1 n-2 ...
        folded = jnp.mod(index, 2 * size)
        return jnp.where(folded < size, folded, 2 * size - 1 - folded)
    if mode == "mirror":  # ... 2 1 | 0 1 2 ... n-1 | n-2 ...
        period = max(2 * size - 2, 1)
        folded = jnp.mod(index, period)
        return jnp.where(folded < size, folded, period - folded)
    return index


def _corners(coordinate: Any, order: int) -> list[tuple[Any, Any]]:
    """``(index, weight)`` pairs interpolating along one axis at ``coordinate``."""
    if order == 0:
        return [(jnp.floor(coordinate + 0.5).astype(jnp.int32), None)]
    lower = jnp.floor(coordinate)
    upper_weight = coordinate - lower
    lower = lower.astype(jnp.int32)
    return [(lower, 1 - upper_weight), (lower + 1, upper_weight)]


def map_coordinates(input: Any, coordinates: Sequence[Any], order: int, mode: str = "constant",  # noqa: A002
                    cval: Any = 0.0) -> Any:
    """``input`` interpolated (``order`` 0: nearest, 1: linear) at the points whose per-axis coordinates are the
    arrays in ``coordinates``; points outside take the boundary ``mode`` ('constant' fills with ``cval``)."""
    check_arraylike("map_coordinates", input, *coordinates)
    input = jnp.asarray(input)  # noqa: A001
    shape = get_aval(input).shape
    if len(coordinates) != len(shape):
        raise ValueError("coordinates must be a sequence of length input.ndim, but "
                         f"{len(coordinates)} != {len(shape)}")
    if order > 1:
        raise NotImplementedError("jax.scipy.ndimage.map_coordinates currently requires order<=1")
    if mode not in _MODES:
        raise NotImplementedError(f"jax.scipy.ndimage.map_coordinates does not yet support mode {mode}. "
                                  f"Currently supported modes are {_MODES}.")
    coordinates = [jnp.asarray(c) for c in coordinates]
    weight_dtype = jnp.result_type(input.dtype, *coordinates, 1.0) if jnp.issubdtype(
        input.dtype, jnp.inexact) else jnp.result_type(*coordinates, 1.0)
    coordinates = [c.astype(jnp.finfo(weight_dtype).dtype) for c in coordinates]
    per_axis = [_corners(c, order) for c in coordinates]
    total = None
    for corner in itertools.product(*per_axis):
        indices = [_fold_index(index, size, mode) for (index, _), size in zip(corner, shape)]
        values = input[tuple(jnp.clip(i, 0, size - 1) for i, size in zip(indices, shape))]
        if mode == "constant":
            inside = jnp.all(jnp.stack([(i >= 0) & (i < size) for i, size in zip(indices, shape)]), axis=0)
            values = jnp.where(inside, values, cval)
        for _, weight in corner:
            if weight is not None:
                values = values * weight
        total = values if total is None else total + values
    if jnp.issubdtype(input.dtype, jnp.integer):
        return jnp.round(total).astype(input.dtype)
    return total.astype(input.dtype)
