"""``multinomial``, bit for bit JAX's: category by category, the count of category ``i`` is a binomial draw
of the trials left over with probability ``p[i] / (p[i] + p[i+1] + ...)`` (a scan over the categories, one
split key each)."""

from __future__ import annotations

from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import dtypes, lax
from jaxle_core.avals import canonicalize_shape, get_aval
from jaxle_numpy.util import promote_dtypes_inexact
from jaxle_random.binomial import binomial
from jaxle_random.keys import split, typed_key
from jaxle_random.samplers import refuse_non_arrays

__all__ = ["multinomial"]


def multinomial(key: Any, n: Any, p: Any, *, shape: tuple[int, ...] | None = None, dtype: Any = None,
                unroll: int | bool = 1) -> Any:
    """Counts of ``n`` trials falling in each category of probabilities ``p`` (the last axis); ``shape`` is the
    full result shape, ending with the number of categories."""
    key = typed_key(key, "multinomial")
    refuse_non_arrays("arraylike", "multinomial", n, p)
    python_n = type(n) in (bool, int, float)
    n, p = promote_dtypes_inexact(n, p)
    # JAX slices ``shape`` as given (an int or NumPy integer gets Python's error for the slice)
    shape = p.shape if shape is None else canonicalize_shape(shape[:-1]) + canonicalize_shape(shape[-1:])
    n = jnp.broadcast_to(n, shape[:-1])
    if python_n and not n.shape and not get_aval(n).weak_type:
        # JAX converts a Python scalar on the host: the trials enter the scan as a literal, not a constant
        n = np.asarray(n)[()]
    p = jnp.moveaxis(jnp.broadcast_to(p, shape), -1, 0)
    # the probability of each category among itself and the categories after it
    remainder = lax.cumsum(p, axis=0, reverse=True)
    ratios = p / jnp.where(remainder == 0, 1, remainder)

    def draw_category(trials_left: Any, ratio_and_key: tuple[Any, Any]) -> tuple[Any, Any]:
        ratio, category_key = ratio_and_key
        # rounding in the cumulative sums may push a ratio just past 1
        count = binomial(category_key, trials_left, jnp.clip(ratio, min=0, max=1), dtype=ratio.dtype)
        return trials_left - count, count

    _, counts = lax.scan(draw_category, n, (ratios, split(key, p.shape[0])), unroll=unroll)
    counts = jnp.moveaxis(counts, 0, -1)
    if dtype is None:
        dtype = dtypes.default_float_dtype()
    # as JAX, the dtype is the counts' astype's to check (and, a 64-bit one with x64 off, to warn of)
    return counts if counts.dtype == np.dtype(dtype) else counts.astype(dtype)
