"""Batching of ``cond``.

With an unbatched index the ``cond`` stays: its operands' batch dimensions move
to the front and every branch is batched, an output being batched (at 0) if it
is in any branch. With a batched index every branch runs on all operands
(batched at the front), each seeing the operands where it is not chosen through
``stop_gradient`` (so that no derivative flows through an unchosen branch), and
``select_n`` picks each output by the index, as JAX does. As JAX, a ``cond`` whose
branches take references raises ``NotImplementedError``, batched or not.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from jaxle_core import core
from jaxle_core.avals import get_aval
from jaxle_core.batching.rule_helpers import batch_jaxpr, body_batch_size
from jaxle_core.batching.trace import BatchTrace, at_dim, collective_rules, move_dim
from jaxle_core.core import ClosedJaxpr
from jaxle_core.lax.control_flow.conditionals import cond_p
from jaxle_core.lax.elementwise import eq
from jaxle_core.lax.identity import stop_gradient
from jaxle_core.lax.refs import is_ref_aval
from jaxle_core.lax.structural import broadcast_in_dim, select_n
from jaxle_core.staging import trace_to_jaxpr


def _outputs_at_front(closed: ClosedJaxpr, dims: Sequence[int | None], batched: Sequence[bool],
                      size: int) -> ClosedJaxpr:
    """``closed`` (outputs batched along ``dims``) with the ``batched`` outputs at dimension 0."""
    if all((d == 0) if b else (d is None) for d, b in zip(dims, batched)):
        return closed

    def fun(*args):
        outs = core.eval_jaxpr(closed.jaxpr, closed.consts, *args)
        return [at_dim(o, d, size, 0) if b else o for o, d, b in zip(outs, dims, batched)]

    return trace_to_jaxpr(fun, closed.in_avals, closed.jaxpr.debug_info)


def _broadcast_to(pred, shape: tuple[int, ...]):
    """A batched ``(size,)`` predicate broadcast along the rest of ``shape``."""
    return pred if len(shape) <= 1 else broadcast_in_dim(pred, shape, (0,))


def _cond_batch(trace: BatchTrace, vals, dims, *, branches: tuple[ClosedJaxpr, ...], **params):
    size = body_batch_size(trace, vals, dims)
    index, index_dim = vals[0], dims[0]
    if index_dim is None:
        ops = [v if d is None else move_dim(v, d, 0) for v, d in zip(vals[1:], dims[1:])]
        in_dims = [None if d is None else 0 for d in dims[1:]]
        batched = [batch_jaxpr(b, in_dims, size, trace.axis_name) for b in branches]
        out_batched = [any(d is not None for d in flags) for flags in zip(*[ds for _, ds in batched])]
        new_branches = tuple(_outputs_at_front(b, ds, out_batched, size) for b, ds in batched)
        outs = cond_p.bind(index, *ops, branches=new_branches, **params)
        return outs, [0 if b else None for b in out_batched]
    index = move_dim(index, index_dim, 0)
    ops = [at_dim(v, d, size, 0) for v, d in zip(vals[1:], dims[1:])]
    all_batched = [0] * len(ops)
    branch_outs = []
    for i, branch in enumerate(branches):
        chosen = eq(index, np.int32(i))
        guarded = []
        for x in ops:
            held = stop_gradient(x)
            guarded.append(select_n(_broadcast_to(chosen, get_aval(x).shape), held, x))
        closed, out_dims = batch_jaxpr(branch, all_batched, size, trace.axis_name)
        outs = core.eval_jaxpr(closed.jaxpr, closed.consts, *guarded)
        branch_outs.append([at_dim(o, d, size, 0) for o, d in zip(outs, out_dims)])
    outs = [select_n(_broadcast_to(index, get_aval(choices[0]).shape), *choices) for choices in zip(*branch_outs)]
    return outs, [0] * len(outs)


def _cond_batch_without_refs(trace: BatchTrace, vals, dims, *, branches: tuple[ClosedJaxpr, ...], **params):
    """``_cond_batch``, run whatever is batched (as JAX's rule is), refusing as JAX does a ``cond`` whose branches
    take references (reading or writing them); one whose operands are all unbatched then runs as it is."""
    if any(is_ref_aval(v.aval) for b in branches for v in b.jaxpr.invars):
        raise NotImplementedError("State effect not supported in vmap-of-cond.")
    if all(d is None for d in dims) and trace.axis_name is None:
        outs = cond_p.bind(*vals, branches=branches, **params)
        return outs, [None] * len(outs)
    return _cond_batch(trace, vals, dims, branches=branches, **params)


collective_rules[cond_p] = _cond_batch_without_refs
