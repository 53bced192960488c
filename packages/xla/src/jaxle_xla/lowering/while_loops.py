"""Lowering of ``while``: a ``stablehlo.while`` whose state holds the consts and the carry.

A batched predicate (from ``vmap``) is reduced with ``or`` in the cond region, and
the body region keeps the old carry of the elements whose predicate is false.
"""

from __future__ import annotations

from jaxle_core.core import ClosedJaxpr
from jaxle_core.jaxpr_util import jaxpr_ordered_effects
from jaxle_core.lax.control_flow.while_loops import while_p
from jaxle_core.lax.reductions import reduce_or
from jaxle_xla.lowering import dimensions
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.typed_layouts import lower_helper


def _any(pred):
    return reduce_or(pred, tuple(range(pred.ndim)))


def _keep_where_false(ctx: LoweringContext, pred: Value, new: Value, old: Value) -> Value:
    """``new`` where ``pred`` holds, else ``old``: the predicate broadcast to the carry's shape even where it has
    it already, as JAX writes it."""
    mask = dimensions.broadcast(ctx, pred, pred.aval.update(shape=old.aval.shape), range(pred.aval.ndim))
    return ctx.select(mask, new, old)


@register_lowering(while_p)
def _while_lowering(ctx: LoweringContext, *args: Value, cond_nconsts: int, cond_jaxpr: ClosedJaxpr,
                    body_nconsts: int, body_jaxpr: ClosedJaxpr) -> list[Value]:
    n_consts = cond_nconsts + body_nconsts
    batched_pred = bool(cond_jaxpr.out_avals[0].shape)

    def predicate(inner: LoweringContext, state: list[Value]) -> Value:
        cconsts, carry = state[:cond_nconsts], state[n_consts:]
        pred = inner.lower_jaxpr(cond_jaxpr.jaxpr, cond_jaxpr.consts, cconsts + carry)[0]
        return pred

    def cond(inner: LoweringContext, state: list[Value]) -> list[Value]:
        pred = predicate(inner, state)
        if not batched_pred:
            return [pred]
        # any of the batch's predicates, reduced as JAX reduces them: typed as the predicate's type says
        typed = cond_jaxpr.out_avals[0]
        return lower_helper(inner, _any, Value(pred.name, typed, pred.type), typed_by=typed)

    def body(inner: LoweringContext, state: list[Value]) -> list[Value]:
        bconsts, carry = state[cond_nconsts:n_consts], state[n_consts:]
        new = inner.lower_jaxpr(body_jaxpr.jaxpr, body_jaxpr.consts, bconsts + carry)
        if batched_pred:
            pred = predicate(inner, state)
            new = [_keep_where_false(inner, pred, n, o) for n, o in zip(new, carry)]
        return state[:n_consts] + new

    return ctx.while_loop(args, cond, body, jaxpr_ordered_effects(body_jaxpr.jaxpr, cond_jaxpr.jaxpr))[n_consts:]
