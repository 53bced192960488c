"""Lowering of the reductions ``psum``/``pmax``/``pmin`` over positional axes, and ``precv``'s refusal.

Under ``vmap`` a reduction over the mapped axis becomes the collective over the
batch dimension's position (``psum[axes=(0,)]``, as in JAX's jaxprs), which is an
ordinary reduction here. Named axes need a device-mapped axis (pmap), which this
backend does not lower yet.
"""

from __future__ import annotations

from jaxle_core.lax.parallel import pmax_p, pmin_p, precv_p, psum_p, split_axes
from jaxle_core.lax.reductions import reduce_max, reduce_min, reduce_sum
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering

_REDUCTIONS = {psum_p: reduce_sum, pmax_p: reduce_max, pmin_p: reduce_min}


def _positional_reduction(primitive, reduce):
    def lowering(ctx: LoweringContext, x: Value, *, axes, axis_index_groups) -> Value:
        named, positional = split_axes(axes)
        if named:
            raise NotImplementedError(f"{primitive.name} over the named axes {tuple(named)} needs a device-mapped "
                                      "axis (pmap), which jaxle-xla does not lower yet; use it under vmap.")
        if not positional:
            return x
        (out,) = ctx.lower_fun(lambda v: reduce(v, tuple(positional)), x)
        return out

    return lowering


for _primitive, _reduce in _REDUCTIONS.items():
    register_lowering(_primitive)(_positional_reduction(_primitive, _reduce))


@register_lowering(precv_p)
def _precv(ctx: LoweringContext, token: Value, *, axis_name, out_shape, perm) -> Value:
    # A receive stages without a bound axis (its type is out_shape); compiling one fails as in JAX 0.10.2 on the
    # platforms jaxle compiles for, where JAX only lowers it on GPU meshes (which jaxle-xla does not map).
    raise NotImplementedError("precv is currently only implemented on GPU")
