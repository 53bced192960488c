"""``jax.experimental.sparse.util``: the layout record every sparse primitive carries, the sparse warnings and
errors, and vmap helpers that map a function over leading (batch) dimensions."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from jaxle import numpy as jnp
from jaxle_core.batching.api import vmap
from jaxle_tree import tree_map

__all__ = ["CuSparseEfficiencyWarning", "SparseEfficiencyError", "SparseEfficiencyWarning", "SparseInfo",
           "broadcasting_vmap", "nfold_vmap"]


class SparseEfficiencyError(ValueError):
    """An operation that would densify a sparse array, refused."""


class SparseEfficiencyWarning(UserWarning):
    """An operation that densifies a sparse array or otherwise loses sparsity's advantage."""


class CuSparseEfficiencyWarning(SparseEfficiencyWarning):
    """An operation that cuSPARSE cannot run, falling back to a generic implementation."""


class SparseInfo(NamedTuple):
    """The static part of a sparse array: its shape and what is known about its indices."""

    shape: tuple[int, ...]
    indices_sorted: bool = False
    unique_indices: bool = False


def nfold_vmap(fun: Callable[..., Any], N: int, *, broadcasted: bool = True, in_axes: Any = 0) -> Callable[..., Any]:
    """``fun`` mapped over the ``N`` leading dimensions of its arguments; with ``broadcasted``, a leading dimension
    of size 1 stands for every index (it is mapped with in_axes None)."""
    for _ in range(N):
        fun = broadcasting_vmap(fun, in_axes) if broadcasted else vmap(fun, in_axes=in_axes)
    return fun


def broadcasting_vmap(fun: Callable[..., Any], in_axes: Any = 0, out_axes: Any = 0) -> Callable[..., Any]:
    """``vmap(fun)`` over leading dimensions that broadcast: an argument whose mapped dimension has size 1 is passed
    whole (its dimension dropped) to every application."""

    def mapped(*args: Any) -> Any:
        axes = in_axes if isinstance(in_axes, Sequence) else (in_axes,) * len(args)
        sizes = {np.shape(x)[axis] for x, axis in zip(args, axes) if axis is not None} - {1}
        if len(sizes) > 1:
            raise ValueError(f"broadcasting_vmap: mismatched input shapes {[np.shape(x) for x in args]}")
        if not sizes:
            squeezed = [x if axis is None else jnp.squeeze(x, axis) for x, axis in zip(args, axes)]
            out = fun(*squeezed)
            return _expand(out, out_axes)
        size = sizes.pop()
        adjusted = [x if axis is None or np.shape(x)[axis] == size else jnp.squeeze(x, axis)
                    for x, axis in zip(args, axes)]
        adjusted_axes = [None if axis is None or np.shape(x)[axis] != size else axis for x, axis in zip(args, axes)]
        return vmap(fun, in_axes=tuple(adjusted_axes), out_axes=out_axes)(*adjusted)

    return mapped


def _expand(out: Any, out_axes: Any) -> Any:
    return tree_map(lambda x: jnp.expand_dims(x, out_axes), out)
