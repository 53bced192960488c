"""Batching of ``checkpoint`` (its jaxpr batched, as a call's; see ``batching/jit.py``) and of ``name``
(the batch dimension passes through)."""

from __future__ import annotations

from jaxle_core.batching.rule_helpers import batch_jaxpr, body_batch_size
from jaxle_core.batching.trace import BatchTrace, batching_rules, traced_batching_rules
from jaxle_core.checkpoint import checkpoint_p, checkpoint_params, name_p, open_jaxpr
from jaxle_core.core import ClosedJaxpr


def _checkpoint_batch(trace: BatchTrace, vals, dims, *, jaxpr, prevent_cse, differentiated, policy):
    batched, out_dims = batch_jaxpr(ClosedJaxpr(jaxpr, []), dims, body_batch_size(trace, vals, dims),
                                    trace.axis_name)
    inner, consts = open_jaxpr(batched)
    outs = checkpoint_p.bind(*consts, *vals, **checkpoint_params(inner, prevent_cse, differentiated, policy))
    return outs, out_dims


traced_batching_rules[checkpoint_p] = _checkpoint_batch
batching_rules[name_p] = lambda vals, dims, **params: (name_p.bind(*vals, **params), dims[0])
