"""AD of user-defined derivatives: the rules of ``custom_jvp_call``, ``custom_vjp_call``, ``custom_lin`` and
``remat_opt`` (the staged forward function of a ``custom_vjp`` with ``optimize_remat``).

``custom_jvp_call`` differentiates by the user's JVP rule. ``custom_vjp_call``
runs the user's forward function now and emits its output tangents through a
``custom_lin`` equation reading the residuals and the input tangents; under
linearization that equation is staged into the linear jaxpr, and transposing it
calls the user's backward function. Under plain forward mode it is evaluated,
which raises JAX's error.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from typing import Any

from jaxle_core import core
from jaxle_core.ad.jvp import Zero, instantiate, jvp_flat, jvp_rules, rule_zeros, rule_zeros_state, tangent_aval
from jaxle_core.ad.partial_eval import PartialStagingTrace, partial_eval_rules
from jaxle_core.ad.transpose import transpose_rules
from jaxle_core.avals import get_aval
from jaxle_core.core import ClosedJaxpr, Jaxpr
from jaxle_core.custom_derivatives import (
    BwdRule,
    SymbolicZero,
    custom_jvp_call_p,
    custom_lin_p,
    custom_vjp_call_p,
    remat_opt_p,
)
from jaxle_core.errors import UnexpectedTracerError
from jaxle_core.jit import backward_rule_scope


def _check_closure_tangents(tangents: Sequence[Any], kind: str) -> None:
    """A custom function may not close over a value being differentiated (JAX raises the same error type)."""
    if any(type(t) is not Zero for t in tangents):
        raise UnexpectedTracerError(
            f"Encountered an unexpected tracer. A {kind} function closes over a value that is being differentiated "
            "by an enclosing transformation. Pass it as an explicit argument instead (see closure_convert).")


def _custom_jvp_call_jvp(primals, tangents, *, call_jaxpr, jvp_jaxpr_fun, num_consts, symbolic_zeros):
    _check_closure_tangents(tangents[:num_consts], "custom_jvp")
    trace = core.current_trace()
    if isinstance(trace, PartialStagingTrace) or rule_zeros.traces_linearized_jit:  # linearized
        # JAX names the rule's linear equations under the name stack of the call, then the rule's own
        names = trace.naming_after(core.current_name_stack()) if isinstance(trace, PartialStagingTrace) \
            else nullcontext()
        with rule_zeros_state(rule_zeros.traces_linearized_jit, inline=True), names:
            return jvp_jaxpr_fun(primals[num_consts:], tangents[num_consts:])
    return jvp_jaxpr_fun(primals[num_consts:], tangents[num_consts:])


def _custom_vjp_call_jvp(primals, tangents, *, call_jaxpr, fwd_jaxpr_thunk, num_consts, bwd, out_trees,
                         symbolic_zeros):
    _check_closure_tangents(tangents[:num_consts], "custom_vjp")
    tangents = tangents[num_consts:]
    outs, residuals, lin_bwd = fwd_jaxpr_thunk(primals[num_consts:], [type(t) is not Zero for t in tangents])
    in_zeros = [type(t) is Zero for t in tangents]
    out_avals = tuple(tangent_aval(get_aval(x)) for x in outs)
    tangents_out = custom_lin_p.bind(*residuals, *[t for t in tangents if type(t) is not Zero],
                                     num_res=len(residuals), bwd=lin_bwd, out_avals=out_avals,
                                     symbolic_zeros=symbolic_zeros, in_zeros=in_zeros)
    return outs, tangents_out


def _custom_lin_transpose(cts, *args, num_res: int, bwd: BwdRule, out_avals, symbolic_zeros: bool,
                          in_zeros: list[bool]):
    cts = [(SymbolicZero(ct.aval) if type(ct) is Zero else ct) if symbolic_zeros else instantiate(ct) for ct in cts]
    with backward_rule_scope():
        cts_in = bwd(args[:num_res], cts)
    return [None] * num_res + [ct for ct, zero in zip(cts_in, in_zeros) if not zero]


def _remat_opt_jvp(primals, tangents, *, fwd_jaxpr, **params):
    # forward mode through the forward function itself (which reaches the custom_vjp function's refusal)
    outs, tangents_out, _ = jvp_flat(lambda *xs: (core.eval_jaxpr(fwd_jaxpr.jaxpr, fwd_jaxpr.consts, *xs), None),
                                     primals, tangents, transform_stack=False)
    return outs, tangents_out


def _custom_jvp_call_partial_eval(trace: PartialStagingTrace, args, params):
    # As JAX, a jaxpr split with a call's operand unknown keeps no rule: the split only builds linear functions,
    # so the call is inlined (its known part computed now, the rest staged).
    if trace.splits_jaxpr:
        call_jaxpr = params["call_jaxpr"]
        with core.set_current_trace(trace):
            return core.eval_jaxpr(call_jaxpr.jaxpr, call_jaxpr.consts, *args)
    return trace.stage(custom_jvp_call_p, args, params)


def _custom_vjp_call_partial_eval(trace: PartialStagingTrace, args, params):
    # When a jaxpr is split (a scan's loop-invariant work hoisted, say), a call with an unknown operand waits whole;
    # JAX's known side keeps an empty call with the same rules in its place, so jaxle's does too.
    if trace.splits_jaxpr:
        call_jaxpr = params["call_jaxpr"]
        empty = ClosedJaxpr(Jaxpr([], [], [], [], call_jaxpr.jaxpr.debug_info), [])
        with core.set_current_trace(trace.parent):
            custom_vjp_call_p.bind(**{**params, "call_jaxpr": empty, "num_consts": 0})
    return trace.stage(custom_vjp_call_p, args, params)


jvp_rules[custom_jvp_call_p] = _custom_jvp_call_jvp
jvp_rules[remat_opt_p] = _remat_opt_jvp
jvp_rules[custom_vjp_call_p] = _custom_vjp_call_jvp
transpose_rules[custom_lin_p] = _custom_lin_transpose
partial_eval_rules[custom_jvp_call_p] = _custom_jvp_call_partial_eval
partial_eval_rules[custom_vjp_call_p] = _custom_vjp_call_partial_eval
