"""JVP rule of ``approx_top_k`` (``lax/approx_top_k.py``): tangents read at the selected indices."""

from __future__ import annotations

from jaxle_core import lax
from jaxle_core.ad.jvp import Zero, jvp_rules, tangent_aval
from jaxle_core.avals import get_aval
from jaxle_core.jit import jit
from jaxle_core.lax import slicing as lax_slicing
from jaxle_core.lax.approx_top_k import approx_top_k_p


def take_along_axis(arr, indices, axis: int):
    """``arr`` read at ``indices`` along ``axis`` (negative indices wrap, out-of-range ones read NaN), written as
    ``jnp.take_along_axis`` is, which JAX's approx_top_k rule calls under ``jit``."""
    size, index_type = get_aval(arr).shape[axis], get_aval(indices).dtype
    wrapped = lax.select_n(lax.lt(indices, index_type.type(0)), indices, lax.add(indices, index_type.type(size)))
    shape = get_aval(indices).shape
    others = tuple(d for d in range(len(shape)) if d != axis)
    dn = lax_slicing.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(axis,), start_index_map=(axis,),
                                            operand_batching_dims=others, start_indices_batching_dims=others)
    return lax_slicing.gather(arr, lax.reshape(wrapped, (*shape, 1)), dn, (1,) * len(shape), mode="fill")


_take_along_axis_jit = jit(take_along_axis, static_argnames="axis")


def _approx_top_k_jvp(primals, tangents, **params):
    (operand,), (t,) = primals, tangents
    values, indices = approx_top_k_p.bind(operand, **params)
    axis = params["reduction_dimension"] % get_aval(operand).ndim
    index_tangent = Zero(tangent_aval(get_aval(indices)))
    if type(t) is Zero:
        return [values, indices], [Zero(tangent_aval(get_aval(values))), index_tangent]
    return [values, indices], [_take_along_axis_jit(t, indices, axis=axis), index_tangent]


jvp_rules[approx_top_k_p] = _approx_top_k_jvp
