"""Batching rules of the primitives that carry a jaxpr (``jit``, ``remat2``) and of the AD helpers.

A call keeps its boundary under ``vmap``: its jaxpr is batched (inputs keep the
batch dimensions they arrive with) and a new call equation applies it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxle_core import core
from jaxle_core.ad.jvp import add_any_p
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.batching.elementwise_rules import elementwise_batcher
from jaxle_core.batching.trace import BatchTrace, BatchTracer, at_dim, batching_rules, rule_trace
from jaxle_core.checkpoint import checkpoint_p, checkpoint_params, name_p, open_jaxpr
from jaxle_core.core import ClosedJaxpr
from jaxle_core.jit import bind_jit, jit_p
from jaxle_core.staging import trace_to_jaxpr


def _batched_aval(aval: ShapedArray, dim: int | None, size: int) -> ShapedArray:
    return aval if dim is None else aval.update(shape=aval.shape[:dim] + (size,) + aval.shape[dim:])


def batch_size(vals: Sequence[Any], dims: Sequence[int | None]) -> int:
    """The batch size, read off the first batched operand (the axis size when none is: a named vmap batches
    bodies whose operands are all unbatched)."""
    return next((get_aval(v).shape[d] for v, d in zip(vals, dims) if d is not None), rule_trace().axis_size)


def batch_jaxpr(closed: ClosedJaxpr, dims: Sequence[int | None], size: int) -> tuple[ClosedJaxpr, list[int | None]]:
    """``closed`` taking its inputs batched along ``dims``; also returns its outputs' batch dimensions."""
    out_dims: list[int | None] = []

    def batched(*args):
        trace = BatchTrace(size, rule_trace().axis_name)
        with core.new_trace(trace):
            tracers = [a if d is None else BatchTracer(trace, a, d) for a, d in zip(args, dims)]
            pairs = [trace.to_val_dim(x) for x in core.eval_jaxpr(closed.jaxpr, closed.consts, *tracers)]
        out_dims.extend(d for _, d in pairs)
        return [v for v, _ in pairs]

    in_avals = [_batched_aval(a, d, size) for a, d in zip(closed.in_avals, dims)]
    return trace_to_jaxpr(batched, in_avals, closed.jaxpr.debug_info), out_dims


def batch_jaxpr_at_front(closed: ClosedJaxpr, batched: Sequence[bool], size: int,
                         instantiate: Sequence[bool]) -> tuple[ClosedJaxpr, list[bool]]:
    """``closed`` taking its ``batched`` inputs batched along axis 0, returning every batched output (and those
    flagged in ``instantiate``, broadcast if need be) batched along axis 0; also says which outputs are."""
    dims = [0 if b else None for b in batched]
    inner, out_dims = batch_jaxpr(closed, dims, size)
    out_batched = [d is not None or force for d, force in zip(out_dims, instantiate)]

    def fun(*args):
        outs = core.eval_jaxpr(inner.jaxpr, inner.consts, *args)
        return [at_dim(x, d, size) if b else x for x, d, b in zip(outs, out_dims, out_batched)]

    return trace_to_jaxpr(fun, inner.in_avals, closed.jaxpr.debug_info), out_batched


def _jit_batch(vals, dims, *, jaxpr: ClosedJaxpr, name: str, keep_unused: bool, inline: bool, **params):
    batched, out_dims = batch_jaxpr(jaxpr, dims, batch_size(vals, dims))
    return bind_jit(batched, vals, name, keep_unused, inline), out_dims


def _checkpoint_batch(vals, dims, *, jaxpr, prevent_cse, differentiated, policy):
    batched, out_dims = batch_jaxpr(ClosedJaxpr(jaxpr, []), dims, batch_size(vals, dims))
    inner, consts = open_jaxpr(batched)
    outs = checkpoint_p.bind(*consts, *vals, **checkpoint_params(inner, prevent_cse, differentiated, policy))
    return outs, out_dims


batching_rules[jit_p] = _jit_batch
batching_rules[checkpoint_p] = _checkpoint_batch
batching_rules[name_p] = lambda vals, dims, **params: (name_p.bind(*vals, **params), dims[0])
batching_rules[add_any_p] = elementwise_batcher(add_any_p)
