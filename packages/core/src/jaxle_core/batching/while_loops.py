"""Batching of ``while``: the loop runs once for the whole batch.

Which carries are batched is iterated to a fixed point (a carry becomes batched
when the body makes it so). With an unbatched predicate the batched body simply
runs until the shared predicate fails. When the predicate is batched (the
elements stop at different steps) every carry is batched and the ``while``
equation keeps the batched predicate: running it means looping while any
element's predicate holds, and only those elements take the new carry (the
reference implementation and the lowering do this, as JAX does).
"""

from __future__ import annotations

from typing import Any

from jaxle_core import core
from jaxle_core.batching.rule_helpers import batch_jaxpr, body_batch_size
from jaxle_core.batching.trace import BatchTrace, at_dim, check_carry_batchable, traced_batching_rules
from jaxle_core.core import ClosedJaxpr
from jaxle_core.lax.control_flow.while_loops import split_while_args, while_p, while_params
from jaxle_core.staging import trace_to_jaxpr


def _batched_at_front(closed: ClosedJaxpr, dims: list[int | None], batched_out: list[bool], size: int,
                      axis_name: Any) -> ClosedJaxpr:
    """``closed`` batched along ``dims``, its outputs flagged in ``batched_out`` batched at axis 0 (others not)."""
    batched, out_dims = batch_jaxpr(closed, dims, size, axis_name)

    def fun(*args):
        outs = core.eval_jaxpr(batched.jaxpr, batched.consts, *args)
        return [at_dim(x, d, size) if b else x for x, d, b in zip(outs, out_dims, batched_out)]

    return trace_to_jaxpr(fun, batched.in_avals, closed.jaxpr.debug_info)


def _while_batch(trace: BatchTrace, vals, dims, *, cond_nconsts: int, cond_jaxpr: ClosedJaxpr, body_nconsts: int,
                 body_jaxpr: ClosedJaxpr):
    size = body_batch_size(trace, vals, dims)
    cconst_dims, bconst_dims, init_dims = split_while_args(dims, cond_nconsts, body_nconsts)
    init = split_while_args(vals, cond_nconsts, body_nconsts)[2]
    carry_bat = [d is not None for d in init_dims]
    while True:
        carry_dims = [0 if b else None for b in carry_bat]
        _, pred_dims = batch_jaxpr(cond_jaxpr, cconst_dims + carry_dims, size, trace.axis_name)
        if pred_dims[0] is not None:
            carry_bat = [True] * len(carry_bat)
            check_carry_batchable(init, init_dims, carry_bat)
        _, out_dims = batch_jaxpr(body_jaxpr, bconst_dims + carry_dims, size, trace.axis_name)
        new = [b or d is not None for b, d in zip(carry_bat, out_dims)]
        if new == carry_bat:
            break
        carry_bat = new
        check_carry_batchable(init, init_dims, carry_bat)
    carry_dims = [0 if b else None for b in carry_bat]
    new_cond = _batched_at_front(cond_jaxpr, cconst_dims + carry_dims, [pred_dims[0] is not None], size,
                                 trace.axis_name)
    new_body = _batched_at_front(body_jaxpr, bconst_dims + carry_dims, carry_bat, size, trace.axis_name)
    cconsts, bconsts, init = split_while_args(vals, cond_nconsts, body_nconsts)
    init = [at_dim(x, d, size) if b else x for x, d, b in zip(init, init_dims, carry_bat)]
    outs = while_p.bind(*cconsts, *bconsts, *init, **while_params(new_cond, cond_nconsts, new_body, body_nconsts))
    return outs, carry_dims


traced_batching_rules[while_p] = _while_batch
