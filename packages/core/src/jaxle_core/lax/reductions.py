"""Reductions over axes: sums, products, extrema, logical reductions, argmax/argmin."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import Primitive
from jaxle_core.lax.standard import NUMBER, as_int_tuple, check_dtype

__all__ = ["reduce_sum"]


def _reduced_aval(name: str, accepted):
    def rule(x, *, axes, out_sharding):
        if accepted is not None:
            check_dtype(name, x.dtype, accepted)
        for axis in axes:
            if not 0 <= axis < x.ndim:
                raise ValueError(f"reduction axes {axes} out of bounds for operand of shape {x.shape}")
        return ShapedArray([s for i, s in enumerate(x.shape) if i not in axes], x.dtype, x.weak_type)

    return rule


reduce_sum_p = Primitive("reduce_sum")
reduce_sum_p.def_abstract_eval(_reduced_aval("reduce_sum", NUMBER))
reduce_sum_p.def_impl(lambda x, *, axes, out_sharding: np.sum(x, axis=axes, dtype=x.dtype))


def reduce_sum(operand, axes: Sequence[int], out_sharding=None):
    """Sum of ``operand`` over ``axes``."""
    ndim = get_aval(operand).ndim
    return reduce_sum_p.bind(operand, axes=tuple(a % ndim for a in as_int_tuple(axes)), out_sharding=out_sharding)
