"""Batching rules of the windowed reductions: the batch dimension gets a window of size one."""

from __future__ import annotations

from jaxle_core.batching.rule_helpers import batch_size
from jaxle_core.batching.trace import at_dim, batching_rules
from jaxle_core.core import Primitive
from jaxle_core.lax import windowed as lax_windowed


def _with_unit_window(at: int, *, window_dimensions, window_strides, padding, **dilations) -> dict:
    """Window params with a size-one, stride-one, unpadded, undilated window dimension inserted at ``at``."""
    def ins(t, v):
        return tuple(t[:at]) + (v,) + tuple(t[at:])
    out = dict(window_dimensions=ins(window_dimensions, 1), window_strides=ins(window_strides, 1),
               padding=ins(padding, (0, 0)))
    out.update({name: ins(value, 1) for name, value in dilations.items()})
    return out


def _monoid_window_batcher(primitive: Primitive):
    """The rule of reduce_window_sum/max/min: a unit window along the batch dimension, which stays in place."""

    def rule(vals, dims, **params):
        (x,), (bdim,) = vals, dims
        return primitive.bind(x, **_with_unit_window(bdim, **params)), bdim

    return rule


for _p in (lax_windowed.reduce_window_sum_p, lax_windowed.reduce_window_max_p, lax_windowed.reduce_window_min_p):
    batching_rules[_p] = _monoid_window_batcher(_p)


def _reduce_window_rule(vals, dims, *, jaxpr, consts, **params):
    count = len(vals) // 2
    if any(d is not None for d in dims[count:]):
        raise NotImplementedError("reduce_window batching is not implemented for initial values")
    size = batch_size(vals, dims)
    operands = [at_dim(v, d, size) for v, d in zip(vals[:count], dims[:count])]
    outs = lax_windowed.reduce_window_p.bind(*operands, *vals[count:], jaxpr=jaxpr, consts=consts,
                                    **_with_unit_window(0, **params))
    return outs, [0] * count


batching_rules[lax_windowed.reduce_window_p] = _reduce_window_rule


def _select_and_gather_add_rule(vals, dims, *, select_prim, **params):
    size = batch_size(vals, dims)
    tangents, operand = (at_dim(v, d, size) for v, d in zip(vals, dims))
    out = lax_windowed.select_and_gather_add_p.bind(tangents, operand, select_prim=select_prim,
                                           **_with_unit_window(0, **params))
    return out, 0


def _select_and_scatter_add_rule(vals, dims, *, select_prim, **params):
    size = batch_size(vals, dims)
    source, operand = (at_dim(v, d, size) for v, d in zip(vals, dims))
    out = lax_windowed.select_and_scatter_add_p.bind(source, operand, select_prim=select_prim,
                                            **_with_unit_window(0, **params))
    return out, 0


batching_rules[lax_windowed.select_and_gather_add_p] = _select_and_gather_add_rule
batching_rules[lax_windowed.select_and_scatter_add_p] = _select_and_scatter_add_rule
