"""``jax.experimental.sparse.random``: random BCOO arrays (``random_bcoo``), drawn with ``jax.random`` as JAX draws
them, so that one key gives JAX's values and indices."""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from typing import Any

from jaxle import numpy as jnp
from jaxle import random
from jaxle.experimental.sparse.bcoo import BCOO
from jaxle_core.batching.api import vmap

__all__ = ["random_bcoo"]


def _stored_count(nse: float | int, sparse_size: int) -> int:
    """``nse`` entries, or that fraction of the sparse positions (rounded up) when ``0 < nse < 1``."""
    if 0 < nse < 1:
        return math.ceil(nse * sparse_size)
    if not 0 <= nse < sparse_size:
        raise ValueError(f"got {nse=}, expected to be between 0 and {sparse_size}")
    if not isinstance(nse, int):
        raise AssertionError()
    return nse


def random_bcoo(key: Any, shape: Sequence[int], *, dtype: Any = jnp.float64, indices_dtype: Any = None,
                nse: float | int = 0.2, n_batch: int = 0, n_dense: int = 0, unique_indices: bool = True,
                sorted_indices: bool = False, generator: Callable[..., Any] = random.uniform, **kwds: Any) -> BCOO:
    """A BCOO array of ``shape`` with ``nse`` entries (or that fraction of the sparse positions) per batch element
    at random positions (distinct with ``unique_indices``; sorted with ``sorted_indices``), their values drawn by
    ``generator(key, shape=..., dtype=dtype, **kwds)``."""
    shape = tuple(map(operator.index, shape))
    n_batch, n_dense = operator.index(n_batch), operator.index(n_dense)
    if n_batch < 0 or n_dense < 0 or n_batch + n_dense > len(shape):
        raise ValueError(f"Invalid {n_batch=}, {n_dense=} for {shape=}")
    batch_shape, sparse_shape = shape[:n_batch], shape[n_batch:len(shape) - n_dense]
    dense_shape = shape[len(shape) - n_dense:]
    batch_size, sparse_size = math.prod(batch_shape), math.prod(sparse_shape)
    nse = _stored_count(nse, sparse_size)
    keys = random.split(key, batch_size + 1)
    data_key, index_keys = keys[0], keys[1:]
    data = generator(data_key, shape=(*batch_shape, nse, *dense_shape), dtype=dtype, **kwds)

    def positions(k):
        if unique_indices:
            flat = random.permutation(k, sparse_size)[:nse]
        else:
            flat = random.randint(k, (nse,), 0, sparse_size)
        return jnp.column_stack(jnp.unravel_index(flat, sparse_shape))

    indices = vmap(positions)(index_keys).reshape(*batch_shape, nse, len(sparse_shape))
    if indices_dtype is not None:
        indices = indices.astype(indices_dtype)
    mat = BCOO((data, indices), shape=shape)
    return mat.sort_indices() if sorted_indices else mat
