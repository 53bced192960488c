"""``jax.scipy.interpolate``: linear and nearest-neighbour interpolation on a rectilinear grid."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core.avals import get_aval
from jaxle_numpy.util import check_arraylike, promote_dtypes_inexact
from jaxle_tree import register_pytree_node_class

__all__ = ["RegularGridInterpolator"]

_METHODS = ("linear", "nearest")


@register_pytree_node_class
class RegularGridInterpolator:
    """Interpolation of ``values`` given on the grid whose axes are the increasing coordinates ``points``; points
    outside it get ``fill_value`` (or are extrapolated when it is None). A pytree: it passes through ``jit``."""

    def __init__(self, points: Sequence[Any], values: Any, method: str = "linear", bounds_error: bool = False,
                 fill_value: Any = np.nan):
        if method not in _METHODS:
            raise ValueError(f"method {method!r} is not defined")
        if bounds_error:
            raise NotImplementedError("`bounds_error` takes no effect under JIT")
        self.method = method
        self.bounds_error = bounds_error
        check_arraylike("RegularGridInterpolator", values)
        values, = promote_dtypes_inexact(jnp.asarray(values))
        if len(points) > get_aval(values).ndim:
            raise ValueError(f"there are {len(points)} point arrays, but values has {get_aval(values).ndim} "
                             "dimensions")
        check_arraylike("RegularGridInterpolator", *points)
        self.grid = tuple(jnp.asarray(p) for p in promote_dtypes_inexact(*points))
        self.values = values
        self.fill_value = fill_value

    def __call__(self, xi: Any, method: str | None = None) -> Any:
        """The interpolated values at the points ``xi`` (``(..., ndim)``; a 1-d ``xi`` is one point)."""
        method = self.method if method is None else method
        if method not in _METHODS:
            raise ValueError(f"method {method!r} is not defined")
        ndim = len(self.grid)
        xi = jnp.asarray(xi)
        if get_aval(xi).ndim == 1:
            xi = xi.reshape(1, -1)
        if get_aval(xi).shape[-1] != ndim:
            raise ValueError(f"the requested sample points xi have dimension {get_aval(xi).shape[-1]}, but this "
                             f"RegularGridInterpolator has dimension {ndim}")
        batch_shape = get_aval(xi).shape[:-1]
        xi = xi.reshape(-1, ndim)
        coordinates = [xi[:, axis] for axis in range(ndim)]
        cells, offsets, outside = self._find_indices(coordinates)
        if method == "linear":
            result = self._evaluate_linear(cells, offsets)
        else:
            result = self._evaluate_nearest(cells, offsets)
        if self.fill_value is not None:
            mask = outside.reshape(outside.shape + (1,) * (get_aval(result).ndim - 1))
            result = jnp.where(mask, self.fill_value, result)
        return result.reshape(batch_shape + get_aval(self.values).shape[ndim:])

    def _find_indices(self, coordinates: list[Any]) -> tuple[list[Any], list[Any], Any]:
        """Per axis, each point's cell (the grid interval holding it, the outermost ones when outside) and its
        relative position within the cell; and which points lie outside the grid."""
        cells, offsets = [], []
        outside = jnp.zeros(get_aval(coordinates[0]).shape, bool)
        for grid, x in zip(self.grid, coordinates):
            size = get_aval(grid).shape[0]
            cell = jnp.clip(jnp.searchsorted(grid, x) - 1, 0, max(size - 2, 0))
            low, high = grid[cell], grid[jnp.minimum(cell + 1, size - 1)]
            width = jnp.where(high == low, 1, high - low)
            cells.append(cell)
            offsets.append((x - low) / width)
            outside = outside | (x < grid[0]) | (x > grid[-1])
        return cells, offsets, outside

    def _evaluate_linear(self, cells: list[Any], offsets: list[Any]) -> Any:
        trailing = get_aval(self.values).ndim - len(cells)
        total = None
        for corner in itertools.product((0, 1), repeat=len(cells)):
            index = tuple(jnp.minimum(cell + step, get_aval(grid).shape[0] - 1)
                          for cell, step, grid in zip(cells, corner, self.grid))
            weight = 1
            for step, offset in zip(corner, offsets):
                weight = weight * (offset if step else 1 - offset)
            term = self.values[index] * weight.reshape(weight.shape + (1,) * trailing)
            total = term if total is None else total + term
        return total

    def _evaluate_nearest(self, cells: list[Any], offsets: list[Any]) -> Any:
        index = tuple(jnp.where(offset <= 0.5, cell, jnp.minimum(cell + 1, get_aval(grid).shape[0] - 1))
                      for cell, offset, grid in zip(cells, offsets, self.grid))
        return self.values[index]

    def tree_flatten(self) -> tuple[tuple, tuple]:
        return (self.grid, self.values, self.fill_value), (self.method, self.bounds_error)

    @classmethod
    def tree_unflatten(cls, aux: tuple, children: tuple) -> RegularGridInterpolator:
        interpolator = object.__new__(cls)
        interpolator.grid, interpolator.values, interpolator.fill_value = children
        interpolator.method, interpolator.bounds_error = aux
        return interpolator
