"""Helpers shared by the batching rules of several families.

The batch size of a rule's operands, the rule of an n-ary elementwise primitive,
and the batching of a sub-jaxpr (calls, control flow, custom derivatives and
solves batch their jaxprs over the axis of the trace that runs their rule).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxle_core import core
from jaxle_core.avals import get_aval
from jaxle_core.batching.trace import (
    BatchTrace,
    BatchTracer,
    at_dim,
    batching_rules,
    current_layout,
    current_spmd_axes,
    move_dim,
    per_example_errors,
    with_batch_dim,
)
from jaxle_core.core import ClosedJaxpr, Primitive
from jaxle_core.lax.structural import broadcast_in_dim_p, expand_dims
from jaxle_core.mesh import AbstractMesh, PartitionSpec
from jaxle_core.sharding import NamedSharding
from jaxle_core.staging import trace_to_jaxpr


def batch_size(vals: Sequence[Any], dims: Sequence[int | None]) -> int:
    """The batch size, read off the first batched operand."""
    return next(get_aval(v).shape[d] for v, d in zip(vals, dims) if d is not None)


def body_batch_size(trace: BatchTrace, vals: Sequence[Any], dims: Sequence[int | None]) -> int:
    """The batch size of a rule batching a sub-jaxpr: that of the first batched operand, the trace's axis size
    when none is (a named vmap batches bodies whose operands are all unbatched)."""
    return batch_size(vals, dims) if any(d is not None for d in dims) else trace.axis_size


# ---------------------------------------------------------------- elementwise primitives


_NO_MESH = NamedSharding(AbstractMesh((), ()), PartitionSpec())


def expand_to_rank(x: Any, ndim: int) -> Any:
    """An unbatched operand given leading size-1 dimensions, so it broadcasts against batched ones (as JAX): laid out
    as the operand, an operand of no layout (a constant) broadcast over no mesh, whatever the current one."""
    aval = get_aval(x)
    shape = aval.shape
    if not shape or len(shape) == ndim:
        return x
    lead = ndim - len(shape)
    dims = tuple(np.int64(i + lead) for i in range(len(shape)))
    by_rule = core.type_shardings is None or getattr(aval, "explicit_sharding", None) is not None
    sharding = None if by_rule else _NO_MESH
    return broadcast_in_dim_p.bind(x, shape=(1,) * lead + shape, broadcast_dimensions=dims, sharding=sharding)


def _batched_to_rank(x: Any, ndim: int) -> Any:
    """A batched operand (batch dimension first) given trailing size-1 dimensions up to ``ndim``."""
    rank = get_aval(x).ndim
    return x if rank == ndim else expand_dims(x, tuple(range(rank, ndim)))


def elementwise_batcher(primitive: Primitive):
    """The rule of an n-ary elementwise primitive (rank-0 operands broadcast)."""

    def rule(vals, dims, **params):
        batched = [(get_aval(v).shape, d) for v, d in zip(vals, dims) if d is not None]
        others_scalar = all(get_aval(v).ndim == 0 for v, d in zip(vals, dims) if d is None)
        if others_scalar and len(set(batched)) == 1:
            return primitive.bind(*vals, **params), batched[0][1]
        ndim = max(get_aval(v).ndim + (d is None) for v, d in zip(vals, dims) if d is not None or get_aval(v).ndim)
        # JAX's order of equations: operand by operand, the batch dimension moved to the front or the unbatched
        # operand expanded; then the batched ones given trailing dimensions
        expanded = [expand_to_rank(v, ndim) if d is None else move_dim(v, d, 0) for v, d in zip(vals, dims)]
        lined = [v if d is None else _batched_to_rank(v, ndim) for v, d in zip(expanded, dims)]
        return primitive.bind(*lined, **params), 0

    return rule


def register_elementwise(primitives: Sequence[Primitive]) -> None:
    """Give each of ``primitives`` the elementwise rule."""
    for primitive in primitives:
        batching_rules[primitive] = elementwise_batcher(primitive)
        per_example_errors.add(primitive)


# ---------------------------------------------------------------- sub-jaxprs


def batch_jaxpr(closed: ClosedJaxpr, dims: Sequence[int | None], size: int, axis_name: Any,
                varying: frozenset = frozenset()) -> tuple[ClosedJaxpr, list[int | None]]:
    """``closed`` taking its inputs batched along ``dims`` (collectives over ``axis_name`` inside act on the
    batch; the batched inputs vary over the manual mesh axes ``varying`` too); also returns its outputs' batch
    dimensions."""
    out_dims: list[int | None] = []

    def batched(*args):
        trace = BatchTrace(size, axis_name, layout, spmd_axes)
        with core.new_trace(trace):
            tracers = [a if d is None else BatchTracer(trace, a, d) for a, d in zip(args, dims)]
            pairs = [trace.to_val_dim(x) for x in core.eval_jaxpr(closed.jaxpr, closed.consts, *tracers)]
        out_dims.extend(d for _, d in pairs)
        return [v for v, _ in pairs]

    layout, spmd_axes = current_layout(), current_spmd_axes()
    in_avals = [with_batch_dim(a, d, size) for a, d in zip(closed.in_avals, dims)]
    if varying:
        in_avals = [a if d is None else a.update(vma=a.vma | varying) for a, d in zip(in_avals, dims)]
    return trace_to_jaxpr(batched, in_avals, closed.jaxpr.debug_info), out_dims


def batch_jaxpr_at_front(closed: ClosedJaxpr, batched: Sequence[bool], size: int, axis_name: Any,
                         instantiate: Sequence[bool]) -> tuple[ClosedJaxpr, list[bool]]:
    """``closed`` taking its ``batched`` inputs batched along axis 0, returning every batched output (and those
    flagged in ``instantiate``, broadcast if need be) batched along axis 0; also says which outputs are."""
    dims = [0 if b else None for b in batched]
    inner, out_dims = batch_jaxpr(closed, dims, size, axis_name)
    out_batched = [d is not None or force for d, force in zip(out_dims, instantiate)]

    def fun(*args):
        outs = core.eval_jaxpr(inner.jaxpr, inner.consts, *args)
        return [at_dim(x, d, size) if b else x for x, d, b in zip(outs, out_dims, out_batched)]

    return trace_to_jaxpr(fun, inner.in_avals, closed.jaxpr.debug_info), out_batched


# ---------------------------------------------------------------- leading batch dimensions


def leading_batch_rule(primitive: Primitive):
    """The rule of a primitive that already maps over any leading dimensions of its operands (the linear-algebra
    primitives): batched operands get the batch dimension first, unbatched ones are broadcast to the batch (with
    NumPy-computed dimensions, as JAX's jaxprs print them), and every output is batched along its first dimension."""

    def rule(vals, dims, **params):
        size = batch_size(vals, dims)
        outs = primitive.bind(*(at_dim(v, d, size, 0) for v, d in zip(vals, dims)), **params)
        return outs, ([0] * len(outs) if primitive.multiple_results else 0)

    return rule
