"""Batching rules of user-defined derivatives: ``custom_jvp_call``, ``custom_vjp_call`` and ``custom_lin``.

A custom function stays custom under ``vmap``: its call jaxpr is batched and
its rules are wrapped so that, whenever they run (under a later ``jvp``,
``grad`` or ``linearize``), the user's functions see unbatched values through a
fresh batching interpreter. The call fixes where each output's batch dimension
lies (an output that does not vary along the batch is given one at 0), and the
wrapped rules move their results there. A batched backward function sums the
cotangents of unbatched inputs over the batch. ``custom_lin`` is never batched:
meeting it means forward mode reached a ``custom_vjp`` function (JAX's error).

The user's rules may close over values batched by the ``vmap`` that batched the
call; their fresh interpreter treats those as its own batched values (that
``vmap``'s trace is the live batching trace whose parent was current when the
call was batched). A backward rule runs after that ``vmap`` has finished, so
there, as in JAX, such a closure is an escaped tracer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxle_core import core
from jaxle_core.ad.jvp import Zero
from jaxle_core.avals import ShapedArray
from jaxle_core.batching.rule_helpers import batch_jaxpr, body_batch_size
from jaxle_core.batching.trace import BatchTrace, BatchTracer, at_dim, batching_rules, move_dim, traced_batching_rules
from jaxle_core.core import ClosedJaxpr
from jaxle_core.custom_derivatives import (
    FORWARD_MODE_ERROR,
    NamedRule,
    PrimalJaxprThunk,
    SymbolicZero,
    custom_jvp_call_p,
    custom_lin_p,
    custom_vjp_call_p,
    remat_opt_p,
)
from jaxle_core.lax.reductions import reduce_sum
from jaxle_core.staging import trace_to_jaxpr

Dims = Sequence[int | None]


def _unbatched(aval: ShapedArray, dim: int | None) -> ShapedArray:
    return aval if dim is None else aval.update(shape=aval.shape[:dim] + aval.shape[dim + 1:])


def _batched(aval: ShapedArray, dim: int | None, size: int) -> ShapedArray:
    return aval if dim is None else aval.update(shape=aval.shape[:dim] + (size,) + aval.shape[dim:])


class _RuleTrace(BatchTrace):
    """The batching interpreter a wrapped rule runs under; it also owns the tracers of the batching call's trace."""

    def __init__(self, size: int, owner_parent: core.Trace):
        super().__init__(size)
        self.owner_parent = owner_parent

    def to_val_dim(self, x: Any) -> tuple[Any, int | None]:
        owner = getattr(x, "_trace", None)
        if isinstance(x, BatchTracer) and isinstance(owner, BatchTrace) and owner is not self and \
                owner.is_valid and owner.parent is self.owner_parent:
            return x.val, x.dim
        return super().to_val_dim(x)


class _BatchedRule(NamedRule):
    """A user rule run on batched values (prints as the user's rule)."""

    def __init__(self, inner: NamedRule, size: int):
        super().__init__(inner.rule)
        self.inner, self.size = inner, size
        self.owner_parent = core.current_trace()  # the parent of the vmap trace batching the call

    def trace(self) -> _RuleTrace:
        return _RuleTrace(self.size, self.owner_parent)


def _enter(trace: BatchTrace, vals: Sequence[Any], dims: Dims) -> list[Any]:
    """``vals`` as values of ``trace``; ``Zero``/``SymbolicZero`` (co)tangents keep their kind, losing the batch."""
    entered = []
    for v, d in zip(vals, dims):
        if type(v) in (Zero, SymbolicZero):
            entered.append(type(v)(_unbatched(v.aval, d)))
        else:
            entered.append(v if d is None else BatchTracer(trace, v, d))
    return entered


def _leave(trace: BatchTrace, vals: Sequence[Any]) -> list[tuple[Any, int | None]]:
    """``(value, batch dim)`` of each result of ``trace``; zeros come out as ``(Zero, None)``."""
    return [(v, None) if type(v) is Zero else trace.to_val_dim(v) for v in vals]


def _place(pairs: Sequence[tuple[Any, int | None]], dims: Sequence[int], size: int) -> list[Any]:
    """Each result with its batch dimension at ``dims`` (zeros get the batched type)."""
    return [Zero(_batched(v.aval, d, size)) if type(v) is Zero else at_dim(v, src, size, d)
            for (v, src), d in zip(pairs, dims)]


def _batch_call(closed: ClosedJaxpr, dims: Dims, size: int, axis_name: Any) -> tuple[ClosedJaxpr, list[int]]:
    """``closed`` batched along ``dims``, every output batched (at 0 when it would not be)."""
    batched, out_dims = batch_jaxpr(closed, dims, size, axis_name)
    if all(d is not None for d in out_dims):
        return batched, out_dims

    def materialised(*args):
        outs = core.eval_jaxpr(batched.jaxpr, batched.consts, *args)
        return [at_dim(v, d, size) for v, d in zip(outs, out_dims)]

    forced = trace_to_jaxpr(materialised, batched.in_avals, batched.jaxpr.debug_info)
    return forced, [0 if d is None else d for d in out_dims]


class BatchedJVPRule(_BatchedRule):
    """A custom JVP rule applied to batched primals and tangents."""

    def __init__(self, inner: NamedRule, in_dims: Dims, out_dims: Sequence[int], size: int):
        super().__init__(inner, size)
        self.in_dims, self.out_dims = list(in_dims), list(out_dims)

    def __call__(self, primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[list[Any], list[Any]]:
        trace = self.trace()
        with core.new_trace(trace):
            primals_out, tangents_out = self.inner(_enter(trace, primals, self.in_dims),
                                                   _enter(trace, tangents, self.in_dims))
            primal_pairs, tangent_pairs = _leave(trace, primals_out), _leave(trace, tangents_out)
        return _place(primal_pairs, self.out_dims, self.size), _place(tangent_pairs, self.out_dims, self.size)


class BatchedFwdRule(_BatchedRule):
    """A custom VJP forward rule applied to batched primals; its residuals keep their batch dimensions."""

    def __init__(self, inner: NamedRule, in_dims: Dims, out_dims: Sequence[int], size: int):
        super().__init__(inner, size)
        self.in_dims, self.out_dims = list(in_dims), list(out_dims)

    def __call__(self, primals: Sequence[Any], perturbed: Sequence[bool]) -> tuple[list[Any], list[Any], Any]:
        trace = self.trace()
        with core.new_trace(trace):
            outs, residuals, bwd = self.inner(_enter(trace, primals, self.in_dims), perturbed)
            out_pairs, res_pairs = _leave(trace, outs), _leave(trace, residuals)
        res_dims = [d for _, d in res_pairs]
        batched_bwd = BatchedBwdRule(bwd, res_dims, self.out_dims, self.in_dims, self.size, self.owner_parent)
        return _place(out_pairs, self.out_dims, self.size), [r for r, _ in res_pairs], batched_bwd


class BatchedBwdRule(_BatchedRule):
    """A custom VJP backward rule applied to batched residuals and cotangents.

    Each input cotangent gets its input's batch dimension; that of an unbatched input is summed over the batch.
    """

    def __init__(self, inner: NamedRule, res_dims: Dims, out_dims: Sequence[int], in_dims: Dims, size: int,
                 owner_parent: core.Trace):
        super().__init__(inner, size)
        self.res_dims, self.out_dims, self.in_dims = list(res_dims), list(out_dims), list(in_dims)
        self.owner_parent = owner_parent

    def __call__(self, residuals: Sequence[Any], cotangents: Sequence[Any]) -> list[Any]:
        trace = self.trace()
        with core.new_trace(trace):
            cts_in = self.inner(_enter(trace, residuals, self.res_dims), _enter(trace, cotangents, self.out_dims))
            pairs = _leave(trace, cts_in)
        return [self._match(ct, src, dst) for (ct, src), dst in zip(pairs, self.in_dims)]

    def _match(self, ct: Any, src: int | None, dst: int | None) -> Any:
        if type(ct) is Zero:
            return Zero(_batched(ct.aval, dst, self.size))
        if dst is None:
            return ct if src is None else reduce_sum(ct, (src,))
        return at_dim(ct, src, self.size, dst) if src is None else move_dim(ct, src, dst)


def _custom_jvp_call_batch(trace: BatchTrace, vals, dims, *, call_jaxpr, jvp_jaxpr_fun, num_consts, symbolic_zeros):
    size = body_batch_size(trace, vals, dims)
    batched, out_dims = _batch_call(call_jaxpr, dims, size, trace.axis_name)
    rule = BatchedJVPRule(jvp_jaxpr_fun, dims[num_consts:], out_dims, size)
    outs = custom_jvp_call_p.bind(*vals, call_jaxpr=batched, jvp_jaxpr_fun=rule, num_consts=num_consts,
                                  symbolic_zeros=symbolic_zeros)
    return outs, out_dims


def _custom_vjp_call_batch(trace: BatchTrace, vals, dims, *, call_jaxpr, fwd_jaxpr_thunk, num_consts, bwd, out_trees,
                           symbolic_zeros):
    size = body_batch_size(trace, vals, dims)
    batched, out_dims = _batch_call(call_jaxpr, dims, size, trace.axis_name)
    fwd = BatchedFwdRule(fwd_jaxpr_thunk, dims[num_consts:], out_dims, size)
    outs = custom_vjp_call_p.bind(*vals, call_jaxpr=batched, fwd_jaxpr_thunk=fwd, num_consts=num_consts, bwd=bwd,
                                  out_trees=out_trees, symbolic_zeros=symbolic_zeros)
    return outs, out_dims


def _custom_lin_batch(vals, dims, **params):
    raise TypeError(FORWARD_MODE_ERROR)


def _remat_opt_batch(trace: BatchTrace, vals, dims, *, fwd_jaxpr, fun_jaxpr_thunk, num_consts, num_res):
    size = body_batch_size(trace, vals, dims)
    batched, out_dims = batch_jaxpr(fwd_jaxpr, dims, size, trace.axis_name)

    def batched_fun_jaxpr():
        fun_jaxpr = fun_jaxpr_thunk()
        return None if fun_jaxpr is None else batch_jaxpr(fun_jaxpr, dims[num_consts:], size, trace.axis_name)[0]

    outs = remat_opt_p.bind(*vals, fwd_jaxpr=batched, fun_jaxpr_thunk=PrimalJaxprThunk(batched_fun_jaxpr),
                            num_consts=num_consts, num_res=num_res)
    return outs, out_dims


traced_batching_rules[custom_jvp_call_p] = _custom_jvp_call_batch
traced_batching_rules[remat_opt_p] = _remat_opt_batch
traced_batching_rules[custom_vjp_call_p] = _custom_vjp_call_batch
batching_rules[custom_lin_p] = _custom_lin_batch
