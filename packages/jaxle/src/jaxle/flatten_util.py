"""``jax.flatten_util``: ``ravel_pytree``, a pytree of arrays as one flat vector and back."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import jaxle_numpy as jnp
import jaxle_tree as tree
from jaxle_core import dtypes, lax

__all__ = ["ravel_pytree"]


def ravel_pytree(pytree: Any) -> tuple[Any, Callable[[Any], Any]]:
    """``(flat, unravel)``: the leaves of ``pytree`` raveled and concatenated into one 1-D array of their common
    dtype, and the function that maps such a vector back to a pytree of the original structure, shapes and dtypes."""
    leaves, treedef = tree.tree_flatten(pytree)
    if not leaves:
        return jnp.array([], np.float32), tree.Partial(_unravel_nothing, treedef)
    leaf_dtypes = tuple(dtypes.dtype(leaf) for leaf in leaves)
    flat_dtype = dtypes.result_type(*leaf_dtypes)
    shapes = tuple(np.shape(leaf) for leaf in leaves)
    flat = jnp.concatenate([jnp.ravel(lax.convert_element_type(leaf, flat_dtype)) if dtype != flat_dtype
                            else jnp.ravel(leaf) for leaf, dtype in zip(leaves, leaf_dtypes)])
    return flat, tree.Partial(_unravel, treedef, shapes, leaf_dtypes, flat_dtype)


def _unravel_nothing(treedef: Any, flat: Any) -> Any:
    return tree.tree_unflatten(treedef, [])


def _unravel(treedef: Any, shapes: Sequence[tuple[int, ...]], leaf_dtypes: Sequence[np.dtype], flat_dtype: np.dtype,
             flat: Any) -> Any:
    mixed = any(dtype != flat_dtype for dtype in leaf_dtypes)
    if mixed and dtypes.dtype(flat) != flat_dtype:
        # One dtype per leaf is only recoverable from a vector of the dtype ravel_pytree produced.
        raise TypeError(f"unravel function given array of dtype {dtypes.dtype(flat)}, but expected dtype "
                        f"{flat_dtype}")
    sizes = [int(np.prod(shape, dtype=np.int64)) for shape in shapes]
    chunks = lax.split(flat, sizes, axis=0)
    leaves = [lax.convert_element_type(chunk.reshape(shape), dtype) if dtype != flat_dtype else chunk.reshape(shape)
              for chunk, shape, dtype in zip(chunks, shapes, leaf_dtypes)]
    return tree.tree_unflatten(treedef, leaves)
