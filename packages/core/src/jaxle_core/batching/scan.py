"""Batching of ``scan``: a scan of the batched body, as JAX does it.

Batched consts and carries carry their batch dimension first; batched xs carry
it second (after the scanned axis), so the body sees every batched value with
the batch dimension first and the stacked ys come out batched along axis 1.
Which carries are batched is a fixed point: a carry the body makes batched is
batched on the way in too. A reference batched along another dimension than its
place asks for cannot be transposed in place: the scan gets a new reference
holding its value so laid out, copied back into it once the scan has run.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxle_core import core
from jaxle_core.avals import get_aval
from jaxle_core.batching.trace import (
    BatchTrace,
    BatchTracer,
    at_dim,
    check_carry_batchable,
    collective_rules,
    current_layout,
    current_spmd_axes,
    move_dim,
    with_batch_dim,
)
from jaxle_core.closed_call import with_named_calls
from jaxle_core.core import ClosedJaxpr
from jaxle_core.lax.control_flow.scan import scan_p, scan_params, split_scan_args
from jaxle_core.lax.refs import get, is_ref_aval, new_ref, ref_set
from jaxle_core.staging import trace_to_jaxpr


def batch_scan_body(closed: ClosedJaxpr, batched: Sequence[bool], size: int, num_carry: int,
                    carry_batched: Sequence[bool], axis_name: Any = None) -> tuple[ClosedJaxpr, list[bool]]:
    """The body taking the ``batched`` inputs with a leading batch dimension; carry outputs are batched (first)
    exactly where ``carry_batched`` says, ys wherever they come out batched (collectives over ``axis_name``
    inside act on the batch). Returns the body and which of its outputs the body itself batches."""
    out_batched: list[bool] = []

    layout, spmd_axes = current_layout(), current_spmd_axes()

    def fun(*args):
        trace = BatchTrace(size, axis_name, layout, spmd_axes)
        with core.new_trace(trace):
            tracers = [BatchTracer(trace, a, 0) if b else a for a, b in zip(args, batched)]
            pairs = [trace.to_val_dim(x) for x in core.eval_jaxpr(closed.jaxpr, closed.consts, *tracers)]
        out_batched.extend(d is not None for _, d in pairs)
        forced = list(carry_batched) + [d is not None for _, d in pairs[num_carry:]]
        return [at_dim(v, d, size, 0) if force else v for (v, d), force in zip(pairs, forced)]

    in_avals = [with_batch_dim(a, 0 if b else None, size) for a, b in zip(closed.in_avals, batched)]
    return trace_to_jaxpr(fun, in_avals, closed.jaxpr.debug_info), out_batched


def _scan_batch(trace: BatchTrace, vals, dims, *, reverse: bool, length: int, jaxpr: ClosedJaxpr,
                num_consts: int, num_carry: int, unroll: int):
    params = scan_params(jaxpr, length, num_consts, num_carry, reverse, unroll)
    if trace.axis_name is None and all(d is None for d in dims):  # (JAX's batching traces the body all the same)
        return scan_p.bind(*vals, **dict(params, jaxpr=with_named_calls(jaxpr))), [None] * len(jaxpr.out_avals)
    size = trace.axis_size
    batched = [d is not None for d in dims]
    const_b, carry_b, xs_b = split_scan_args(batched, num_consts, num_carry)
    consts, carry, xs = split_scan_args(vals, num_consts, num_carry)
    const_d, carry_d, xs_d = split_scan_args(dims, num_consts, num_carry)
    while True:
        body, out_batched = batch_scan_body(jaxpr, const_b + carry_b + xs_b, size, num_carry, carry_b,
                                            trace.axis_name)
        if all(a or not b for a, b in zip(carry_b, out_batched[:num_carry])):
            break
        carry_b = [a or b for a, b in zip(carry_b, out_batched[:num_carry])]
        check_carry_batchable(carry, carry_d, carry_b)
    copies: list[tuple[Any, Any, int, int]] = []
    consts = [x if d is None else _moved(x, d, 0, copies) for x, d in zip(consts, const_d)]
    carry = [at_dim(x, d, size, 0) if b else x for x, d, b in zip(carry, carry_d, carry_b)]
    xs = [x if d is None else _moved(x, d, 1, copies) for x, d in zip(xs, xs_d)]
    outs = scan_p.bind(*consts, *carry, *xs, **dict(params, jaxpr=body))
    for ref, copy, d, place in copies:
        ref_set(ref, ..., move_dim(get(copy), place, d))
    ys_b = out_batched[num_carry:]
    out_dims = [0 if b else None for b in carry_b] + [1 if b else None for b in ys_b]
    return outs, out_dims


def _moved(x: Any, d: int, place: int, copies: list[tuple[Any, Any, int, int]]) -> Any:
    """``x`` with its batch dimension ``d`` moved to ``place``; a reference so moved is a new one, noted in
    ``copies`` to be copied back."""
    if d == place or not is_ref_aval(get_aval(x)):
        return move_dim(x, d, place)
    copy = new_ref(move_dim(get(x), d, place))
    copies.append((x, copy, d, place))
    return copy


# A collective rule (it gets the trace): collectives over the vmapped axis may sit inside the body.
collective_rules[scan_p] = _scan_batch
