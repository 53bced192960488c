"""``jaxle_core.lax``: the primitive operations (``jax.lax``)."""

from jaxle_core.lax.elementwise import (
    add, cos, div, eq, exp, ge, gt, le, log, lt, max, min, mul, ne, neg, rem, sin, sub, tanh,
)
from jaxle_core.lax.reductions import reduce_sum
from jaxle_core.lax.slicing import index_in_dim, slice, slice_in_dim
from jaxle_core.lax.structural import (
    broadcast, broadcast_in_dim, convert_element_type, reshape, squeeze, transpose,
)
from jaxle_core.lax import operators as _operators  # noqa: F401  (installs array operators)

__all__ = [name for name in dir() if not name.startswith("_")]
