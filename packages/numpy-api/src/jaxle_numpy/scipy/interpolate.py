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


def _points_array(xi: Any, ndim: int) -> Any:
    """The sample points as one array: a tuple of per-axis arrays broadcast and written along a last axis, a 1-d
    array read as whole points."""
    if isinstance(xi, tuple) and len(xi) == 1:
        xi = xi[0]
    if isinstance(xi, tuple):
        check_arraylike("_ndim_coords_from_arrays", *xi)
        arrays = jnp.broadcast_arrays(*xi)
        stacked = jnp.empty(get_aval(arrays[0]).shape + (len(arrays),), dtype=jnp.result_type(*arrays))
        for axis, array in enumerate(arrays):
            stacked = stacked.at[..., axis].set(array)
        return stacked
    check_arraylike("_ndim_coords_from_arrays", xi)
    xi = jnp.asarray(xi)
    return xi.reshape(-1, ndim) if get_aval(xi).ndim == 1 else xi


@register_pytree_node_class
class RegularGridInterpolator:
    """Interpolation of ``values`` given on the grid whose axes are the increasing coordinates ``points``; points
    outside it get ``fill_value`` (or are extrapolated when it is None). A pytree: it passes through ``jit``."""

    def __init__(self, points: Sequence[Any], values: Any, method: str = "linear", bounds_error: bool = False,
                 fill_value: Any = np.nan):
        if method not in _METHODS:
            raise ValueError(f"method {method!r} is not defined")
        self.method = method
        self.bounds_error = bounds_error
        if bounds_error:
            raise NotImplementedError("`bounds_error` takes no effect under JIT")
        check_arraylike("RegularGridInterpolator", values)
        if len(points) > get_aval(values).ndim:
            raise ValueError(f"there are {len(points)} point arrays, but values has {get_aval(values).ndim} "
                             "dimensions")
        values, = promote_dtypes_inexact(values)
        if fill_value is not None:
            check_arraylike("RegularGridInterpolator", fill_value)
            fill_value = jnp.asarray(fill_value)
            if not jnp.can_cast(fill_value.dtype, values.dtype, casting="same_kind"):
                raise ValueError("fill_value must be either 'None' or of a type compatible with values")
        self.fill_value = fill_value
        check_arraylike("RegularGridInterpolator", *points)
        self.grid = tuple(jnp.asarray(p) for p in points)
        self.values = values

    def __call__(self, xi: Any, method: str | None = None) -> Any:
        """The interpolated values at the points ``xi`` (``(..., ndim)``; a 1-d ``xi`` holds whole points)."""
        method = self.method if method is None else method
        if method not in _METHODS:
            raise ValueError(f"method {method!r} is not defined")
        ndim = len(self.grid)
        xi = _points_array(xi, ndim)
        if get_aval(xi).shape[-1] != ndim:
            raise ValueError(f"the requested sample points xi have dimension {get_aval(xi).shape[-1]}, but this "
                             f"RegularGridInterpolator has dimension {ndim}")
        xi_shape = get_aval(xi).shape
        xi = xi.reshape(-1, xi_shape[-1])
        cells, offsets, outside = self._find_indices(xi.T)
        if method == "linear":
            result = self._evaluate_linear(cells, offsets)
        else:
            result = self._evaluate_nearest(cells, offsets)
        if self.fill_value is not None:
            result_shape = get_aval(result).shape
            result = jnp.where(outside.reshape(result_shape[:1] + (1,) * (len(result_shape) - 1)),
                               self.fill_value, result)
        return result.reshape(xi_shape[:-1] + get_aval(self.values).shape[ndim:])

    def _find_indices(self, coordinates: Any) -> tuple[list[Any], list[Any], Any]:
        """Per axis (a row of ``coordinates``), each point's cell (the grid interval holding it, the outermost
        ones when outside) and its relative position within the cell; and which points lie outside the grid."""
        cells, offsets = [], []
        outside = jnp.zeros(get_aval(coordinates).shape[1], dtype=bool)
        for x, grid in zip(coordinates, self.grid):
            cell = jnp.searchsorted(grid, x) - 1
            cell = jnp.where(cell < 0, 0, cell)
            last = get_aval(grid).shape[0] - 2
            cell = jnp.where(cell > last, last, cell)
            cells.append(cell)
            offsets.append((x - grid[cell]) / (grid[cell + 1] - grid[cell]))
            outside += x < grid[0]
            outside += x > grid[-1]
        return cells, offsets, outside

    def _evaluate_linear(self, cells: list[Any], offsets: list[Any]) -> Any:
        """The sum over the cell's corners of the value there times its weight, the product over axes of the
        offset (the far corner) or one less it (the near one)."""
        trailing = (slice(None),) + (None,) * (get_aval(self.values).ndim - len(cells))
        total = 0.0
        for corner in itertools.product(*[[cell, cell + 1] for cell in cells]):
            weight = 1.0
            for index, cell, offset in zip(corner, cells, offsets):
                weight *= jnp.where(index == cell, 1 - offset, offset)
            total += self.values[corner] * weight[trailing]
        return total

    def _evaluate_nearest(self, cells: list[Any], offsets: list[Any]) -> Any:
        """The value at each point's nearest grid node (the near one on ties)."""
        return self.values[tuple(jnp.where(offset <= 0.5, cell, cell + 1) for cell, offset in zip(cells, offsets))]

    def tree_flatten(self) -> tuple[tuple, tuple]:
        return (self.grid, self.values, self.fill_value), (self.method, self.bounds_error)

    @classmethod
    def tree_unflatten(cls, aux: tuple, children: tuple) -> RegularGridInterpolator:
        interpolator = object.__new__(cls)
        interpolator.grid, interpolator.values, interpolator.fill_value = children
        interpolator.method, interpolator.bounds_error = aux
        return interpolator
