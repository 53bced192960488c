"""``jax.scipy.ndimage``: interpolating an array at arbitrary coordinates (nearest-neighbour or linear)."""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core.avals import get_aval
from jaxle_core.lax import elementwise as lax_elementwise
from jaxle_numpy.util import named_jit

__all__ = ["map_coordinates"]


def _mirrored(index: Any, size: int) -> Any:
    """``index`` folded into ``[0, size)`` by a triangular wave of half-period ``size - 1`` (... 2 1 | 0 1 2 ...)."""
    half = size - 1
    return jnp.abs((index + half) % (2 * half) - half)


def _reflected(index: Any, size: int) -> Any:
    """``index`` folded into ``[0, size)`` repeating the edge entries (... 1 0 | 0 1 2 ...): the mirror fold of the
    doubled grid."""
    return jnp.floor_divide(_mirrored(2 * index + 1, 2 * size + 1) - 1, 2)


# Each boundary mode maps an integer index anywhere to the index read ('constant' keeps it: out-of-range points
# are masked instead).
_INDEX_FOLDS: dict[str, Callable[[Any, int], Any]] = {
    "constant": lambda index, size: index,
    "nearest": lambda index, size: jnp.clip(index, 0, size - 1),
    "wrap": lambda index, size: index % size,
    "mirror": _mirrored,
    "reflect": _reflected,
}


def _rounded(x: Any) -> Any:
    """``x`` rounded half away from zero (integers kept)."""
    return x if jnp.issubdtype(get_aval(x).dtype, np.integer) else lax_elementwise.round(x)


def _nearest(coordinate: Any) -> list[tuple[Any, Any]]:
    return [(_rounded(coordinate).astype(jnp.int32), get_aval(coordinate).dtype.type(1))]


def _linear(coordinate: Any) -> list[tuple[Any, Any]]:
    lower = jnp.floor(coordinate)
    upper_weight = coordinate - lower
    lower_weight = 1 - upper_weight
    index = lower.astype(jnp.int32)
    return [(index, lower_weight), (index + 1, upper_weight)]


@named_jit("_map_coordinates", ("order", "mode", "cval"))
def _map_coordinates(input: Any, coordinates: Sequence[Any], order: int, mode: str, cval: Any) -> Any:  # noqa: A002
    input = jnp.asarray(input)  # noqa: A001
    coordinates = [jnp.asarray(c) for c in coordinates]
    cval = jnp.asarray(cval, get_aval(input).dtype)
    shape = get_aval(input).shape
    if len(coordinates) != len(shape):
        raise ValueError("coordinates must be a sequence of length input.ndim, but "
                         f"{len(coordinates)} != {len(shape)}")
    fold = _INDEX_FOLDS.get(mode)
    if fold is None:
        raise NotImplementedError(f"jax.scipy.ndimage.map_coordinates does not yet support mode {mode}. "
                                  f"Currently supported modes are {set(_INDEX_FOLDS)}.")
    if order == 0:
        nodes = _nearest
    elif order == 1:
        nodes = _linear
    else:
        raise NotImplementedError("jax.scipy.ndimage.map_coordinates currently requires order<=1")
    # Per axis: (index read, whether the point is inside (True when the mode folds every index), weight).
    per_axis = []
    for coordinate, size in zip(coordinates, shape):
        per_axis.append([(fold(index, size), True if mode != "constant" else (0 <= index) & (index < size), weight)
                         for index, weight in nodes(coordinate)])
    terms = []
    for corner in itertools.product(*per_axis):
        indices, inside, weights = zip(*corner)
        if all(flag is True for flag in inside):
            contribution = input[indices]
        else:
            contribution = jnp.where(functools.reduce(operator.and_, inside), input[indices], cval)
        terms.append(functools.reduce(operator.mul, weights) * contribution)
    result = functools.reduce(operator.add, terms)
    if jnp.issubdtype(get_aval(input).dtype, np.integer):
        result = _rounded(result)
    return result.astype(get_aval(input).dtype)


def map_coordinates(input: Any, coordinates: Sequence[Any], order: int, mode: str = "constant",  # noqa: A002
                    cval: Any = 0.0) -> Any:
    """``input`` interpolated (``order`` 0: nearest, 1: linear) at the points whose per-axis coordinates are the
    arrays in ``coordinates``; points outside take the boundary ``mode`` ('constant' fills with ``cval``)."""
    return _map_coordinates(input, coordinates, order, mode, cval)
