"""Grids and index helpers: meshgrid, mgrid/ogrid, indices, ix_, the r_/c_ concatenators, s_/index_exp and
fromfunction."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from jaxle_core import dtypes, lax
from jaxle_core.array import Array
from jaxle_core.avals import canonicalize_shape, get_aval
from jaxle_core.batching import vmap
from jaxle_core.lax.structural import convert_keeping_weak_type
from jaxle_numpy.creation import array, asarray
from jaxle_numpy.ranges import arange, linspace
from jaxle_numpy.util import check_scalar_arraylike, concrete_index, requested_dtype

__all__ = ["meshgrid", "mgrid", "ogrid", "indices", "ix_", "r_", "c_", "s_", "index_exp", "fromfunction"]

s_ = np.s_
index_exp = np.index_exp


def _grid(arrays: list, sparse: bool) -> list:
    """Each 1-D array broadcast along its own axis of the grid they span (``indexing='ij'``)."""
    shape = tuple(get_aval(a).shape[0] for a in arrays)
    outs = []
    for axis, a in enumerate(arrays):
        out_shape = tuple(size if d == axis else 1 for d, size in enumerate(shape)) if sparse else shape
        outs.append(lax.broadcast_in_dim(a, out_shape, (axis,)))
    return outs


def meshgrid(*xi: Any, copy: bool = True, sparse: bool = False, indexing: str = "xy") -> list[Array]:
    """Coordinate arrays of the grid spanned by the 1-D ``xi`` (``indexing='xy'`` swaps the first two axes)."""
    check_scalar_arraylike("meshgrid", *xi)
    if not copy:
        raise ValueError("jax.numpy.meshgrid only supports copy=True")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Valid values for indexing are 'xy' and 'ij', got {indexing}")
    arrays = [asarray(x) for x in xi]
    shapes = [get_aval(a).shape for a in arrays]
    if any(len(s) != 1 for s in shapes):
        raise ValueError(f"Arguments to jax.numpy.meshgrid must be 1D, got shapes {shapes}")
    swap = indexing == "xy" and len(arrays) >= 2
    if swap:
        arrays[0], arrays[1] = arrays[1], arrays[0]
    outs = _grid(arrays, sparse)
    if swap:
        outs[0], outs[1] = outs[1], outs[0]
    return outs


def _range_of_slice(s: slice) -> Array:
    """A slice of an index trick: ``start:stop:step`` as ``arange``, or with an imaginary step ``nj`` as ``n``
    points of ``linspace`` including the stop."""
    start = 0 if s.start is None else s.start
    step = 1 if s.step is None else s.step
    if isinstance(step, complex) or np.iscomplexobj(step):
        return linspace(start, s.stop, int(abs(step)))
    return arange(start, s.stop, step)


def _promoted(arrays: list) -> list:
    """``arrays`` converted to their common dtype (weakly typed only if all of them are)."""
    dtype, weak = dtypes.result_type(*arrays, return_weak_type_flag=True)
    return [convert_keeping_weak_type(a, dtype, weak) for a in arrays]


class _Mgrid:
    """``jnp.mgrid[slices]``: the dense grid of the ranges the slices describe, stacked on a leading axis."""

    def __getitem__(self, key: slice | tuple) -> Array:
        if isinstance(key, slice):
            return _range_of_slice(key)
        if not key:
            return arange(0)
        return lax.stack(_grid(_promoted([_range_of_slice(k) for k in key]), sparse=False), 0)


class _Ogrid:
    """``jnp.ogrid[slices]``: the open (sparse) grid of the ranges the slices describe, as a list."""

    def __getitem__(self, key: slice | tuple) -> Array | list[Array]:
        if isinstance(key, slice):
            return _range_of_slice(key)
        return _grid(_promoted([_range_of_slice(k) for k in key]), sparse=True)


mgrid = _Mgrid()
ogrid = _Ogrid()


def indices(dimensions: Any, dtype: Any = None, sparse: bool = False) -> Array | tuple[Array, ...]:
    """The index grid of an array of shape ``dimensions``: one coordinate array per axis, stacked unless
    ``sparse``."""
    dtype = requested_dtype(dtype, "indices")
    dtype = dtypes.default_int_dtype() if dtype is None else dtype
    dimensions = tuple(concrete_index(d, "dimensions argument of jnp.indices") for d in dimensions)
    outs = []
    for axis, size in enumerate(dimensions):
        out_shape = tuple(n if d == axis else 1 for d, n in enumerate(dimensions)) if sparse else dimensions
        outs.append(lax.broadcast_in_dim(lax.iota(dtype, size), out_shape, (axis,)))
    if sparse:
        return tuple(outs)
    return lax.stack(outs, 0) if outs else asarray(np.zeros((0,), dtype))


def ix_(*args: Any) -> tuple[Array, ...]:
    """Open-mesh index arrays: the i-th of the 1-D ``args`` shaped to span axis i of the mesh."""
    check_scalar_arraylike("ix", *args)
    n = len(args)
    outs = []
    for axis, a in enumerate(args):
        a = asarray(a)
        aval = get_aval(a)
        if aval.ndim != 1:
            raise ValueError(f"Arguments to jax.numpy.ix_ must be 1-dimensional, got shape {aval.shape}")
        if aval.dtype == np.bool_:
            raise NotImplementedError("Boolean arguments to jax.numpy.ix_ are not implemented")
        shape = tuple(aval.shape[0] if d == axis else 1 for d in range(n))
        outs.append(lax.broadcast_in_dim(a, shape, (axis,)))
    return tuple(outs)


class _AxisConcatenator:
    """NumPy's ``r_``/``c_`` language: items (arrays, scalars, ``start:stop:step`` ranges) concatenated along an
    axis, after a leading directive string ``'axis[,ndmin[,trans1d]]'`` or ``'r'``/``'c'`` (a row or column)."""

    def __init__(self, axis: int, ndmin: int, trans1d: int):
        self.axis, self.ndmin, self.trans1d = axis, ndmin, trans1d

    def __getitem__(self, key: Any) -> Array:
        key = key if isinstance(key, tuple) else (key,)
        axis, ndmin, trans1d, matrix = self.axis, self.ndmin, self.trans1d, None
        if isinstance(key[0], str):
            axis, ndmin, trans1d, matrix = self._directive(key[0], axis, ndmin, trans1d)
            key = key[1:]
        pieces = [self._piece(item, ndmin, trans1d) for item in key]
        if not pieces:
            raise ValueError("Need at least one array to concatenate.")
        pieces = _promoted(pieces)
        out = lax.concatenate(pieces, axis % get_aval(pieces[0]).ndim)
        if matrix == "c" and get_aval(out).ndim == 1:
            return lax.expand_dims(out, (1,))
        return out if matrix is None else array(out, copy=False, ndmin=2)

    @staticmethod
    def _directive(text: str, axis: int, ndmin: int, trans1d: int) -> tuple[int, int, int, str | None]:
        if text in ("r", "c"):
            return axis, ndmin, trans1d, text
        try:
            values = [int(part) for part in text.split(",")]
        except ValueError:
            raise ValueError(f"could not understand directive {text!r}") from None
        axis = values[0]
        ndmin = values[1] if len(values) > 1 else ndmin
        trans1d = values[2] if len(values) > 2 else trans1d
        return axis, ndmin, trans1d, None

    @staticmethod
    def _piece(item: Any, ndmin: int, trans1d: int) -> Array:
        if isinstance(item, str):
            raise ValueError("string directive must be placed at the beginning")
        piece = _range_of_slice(item) if isinstance(item, slice) else array(item, copy=False)
        item_ndim = get_aval(piece).ndim
        piece = array(piece, copy=False, ndmin=ndmin)
        if trans1d != -1 and item_ndim < ndmin:
            # JAX rotates the axes right by trans1d + 1: the item's last axis lands at position trans1d.
            shift = trans1d % ndmin + 1
            order = [(d - shift) % ndmin for d in range(ndmin)]
            if order != sorted(order):
                piece = lax.transpose(piece, order)
        return piece


class RClass(_AxisConcatenator):
    """``jnp.r_[...]``: concatenation along the first axis."""

    def __init__(self):
        super().__init__(axis=0, ndmin=1, trans1d=-1)


class CClass(_AxisConcatenator):
    """``jnp.c_[...]``: concatenation along the last axis, 1-D items becoming columns."""

    def __init__(self):
        super().__init__(axis=-1, ndmin=2, trans1d=0)


r_ = RClass()
c_ = CClass()


def fromfunction(function: Callable[..., Any], shape: Any, *, dtype: Any = float, **kwargs: Any) -> Any:
    """``function`` applied to the index grid of ``shape`` (its coordinates as ``dtype``), vectorised with vmap
    over one axis per argument."""
    try:
        shape = canonicalize_shape(shape if isinstance(shape, (tuple, list)) else (shape,))
    except TypeError as error:
        raise TypeError(f"{error} shape argument of jnp.fromfunction().") from None
    for axis in reversed(range(len(shape))):
        function = vmap(function, in_axes=tuple(0 if k == axis else None for k in range(len(shape))))
    return function(*(arange(size, dtype=dtype) for size in shape), **kwargs)
