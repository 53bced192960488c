"""JVP rules of ``sort`` and ``top_k`` (``lax/sorting.py``): tangents are permuted by the order the keys sort
into.
"""

from __future__ import annotations

import numpy as np

from jaxle_core import lax
from jaxle_core.ad.jvp import Zero, jvp_rules, tangent_aval
from jaxle_core.avals import get_aval
from jaxle_core.lax import slicing as lax_slicing
from jaxle_core.lax.slicing import gather_p
from jaxle_core.lax.sorting import sort_p, top_k_p


def _take_along(t, positions, axis: int, dim_type: type = int):
    """``t`` read along ``axis`` at ``positions`` (with a trailing unit dimension; the other dimensions are
    matched one to one). ``dim_type`` is the type of the recorded batching dimensions, which shows when printed."""
    ndim = get_aval(t).ndim
    others = tuple(dim_type(d) for d in range(ndim) if d != axis)
    dn = lax_slicing.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(axis,), start_index_map=(axis,),
                                            operand_batching_dims=others, start_indices_batching_dims=others)
    return gather_p.bind(t, positions, dimension_numbers=dn, slice_sizes=(1,) * ndim, unique_indices=False,
                         indices_are_sorted=False, mode=lax_slicing.GatherScatterMode.PROMISE_IN_BOUNDS,
                         fill_value=None)


def _sort_jvp(primals, tangents, *, dimension, is_stable, num_keys):
    shape = get_aval(primals[0]).shape
    positions = lax.broadcasted_iota(np.uint32, shape, dimension) if len(shape) > 1 \
        else lax.iota(np.uint32, shape[0])
    *ans, order = sort_p.bind(*primals, positions, dimension=dimension, is_stable=is_stable, num_keys=num_keys)
    order = lax.broadcast_in_dim(order, (*shape, 1), tuple(range(len(shape))))
    # JAX's sort rule records its batching dimensions as np.int64.
    return ans, [t if type(t) is Zero else _take_along(t, order, dimension, np.int64) for t in tangents]


jvp_rules[sort_p] = _sort_jvp


def _top_k_jvp(primals, tangents, *, k, axis):
    (operand,), (t,) = primals, tangents
    values, positions = top_k_p.bind(operand, k=k, axis=axis)
    shape = get_aval(positions).shape
    index_tangent = Zero(tangent_aval(get_aval(positions)))
    return [values, positions], [_take_along(t, lax.reshape(positions, (*shape, 1)), axis), index_tangent]


jvp_rules[top_k_p] = _top_k_jvp
