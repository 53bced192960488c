"""AD of ``while``: forward mode carries the tangents in the loop; reverse mode is refused, as in JAX.

The JVP loop's body consts are the primal consts then their nonzero tangents,
its carry the primal carry then the nonzero carry tangents; which carry
tangents are nonzero is iterated to a fixed point. Partial evaluation (for
linearize and grad) runs the known carries in a known loop and, as JAX, stages
the whole loop whenever an operand is unknown (a tangent reference the loop
writes, say); its transposition then raises JAX's error (a loop of unknown
length cannot be reversed).
"""

from __future__ import annotations

from collections.abc import Sequence

from jaxle_core import core
from jaxle_core.ad.jit import jvp_jaxpr
from jaxle_core.ad.jvp import Zero, instantiate, jvp_rules, tangent_aval
from jaxle_core.ad.partial_eval import PartialStagingTrace, partial_eval_jaxpr, partial_eval_rules
from jaxle_core.ad.transpose import transpose_rules
from jaxle_core.core import ClosedJaxpr, Jaxpr, Literal
from jaxle_core.jaxpr_util import dce_jaxpr, with_fresh_vars
from jaxle_core.lax.control_flow.while_loops import split_while_args, while_p, while_params
from jaxle_core.staging import trace_to_jaxpr

REVERSE_MODE_ERROR = ("Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with dynamic "
                      "start/stop values. Try using lax.scan, or using fori_loop with static start/stop.")

# ---------------------------------------------------------------- forward mode


def _carry_nonzero(body: ClosedJaxpr, consts_nz: list[bool], carry_nz: list[bool]) -> tuple[ClosedJaxpr, list[bool]]:
    """The fixed point of which carry tangents are nonzero, and the body's JVP jaxpr for it."""
    while True:
        jvp_body, out_nz = jvp_jaxpr(body, consts_nz + carry_nz)
        new = [a or b for a, b in zip(carry_nz, out_nz)]
        if new == carry_nz:
            return jvp_body, out_nz
        carry_nz = new


def _while_jvp(primals, tangents, *, cond_nconsts: int, cond_jaxpr: ClosedJaxpr, body_nconsts: int,
               body_jaxpr: ClosedJaxpr):
    nonzero = [type(t) is not Zero for t in tangents]
    _, bconsts_nz, init_nz = split_while_args(nonzero, cond_nconsts, body_nconsts)
    carry_nz = list(init_nz)
    jvp_body, out_nz = _carry_nonzero(body_jaxpr, bconsts_nz, carry_nz)
    carry_nz = [a or b for a, b in zip(carry_nz, out_nz)]
    cconsts, bconsts, init = split_while_args(primals, cond_nconsts, body_nconsts)
    _, bconst_tangents, init_tangents = split_while_args(tangents, cond_nconsts, body_nconsts)
    bconst_tangents = [t for t in bconst_tangents if type(t) is not Zero]
    init_tangents = [instantiate(t, as_residual=False) for t, nz in zip(init_tangents, carry_nz) if nz]
    n_carry, n_bt, n_ct = len(init), len(bconst_tangents), len(init_tangents)
    carry_avals = body_jaxpr.in_avals[body_nconsts:]
    tangent_avals = [tangent_aval(a) for a, nz in zip(carry_avals, carry_nz) if nz]

    def body(*args):
        consts, const_ts = args[:body_nconsts], args[body_nconsts:body_nconsts + n_bt]
        carry, carry_ts = args[body_nconsts + n_bt:-n_ct or None], args[len(args) - n_ct:]
        outs = core.eval_jaxpr(jvp_body.jaxpr, jvp_body.consts, *consts, *carry, *const_ts, *carry_ts)
        given = iter(outs[n_carry:])
        out_ts = [next(given) if onz else Zero(tangent_aval(a)) for a, onz in zip(carry_avals, out_nz)]
        return outs[:n_carry] + [instantiate(t) for t, nz in zip(out_ts, carry_nz) if nz]

    def cond(*args):
        return core.eval_jaxpr(cond_jaxpr.jaxpr, cond_jaxpr.consts, *args[:cond_nconsts + n_carry])

    body_avals = body_jaxpr.in_avals
    new_body = trace_to_jaxpr(body, body_avals[:body_nconsts]
                              + [tangent_aval(a) for a, nz in zip(body_avals, bconsts_nz) if nz]
                              + list(carry_avals) + tangent_avals, body_jaxpr.jaxpr.debug_info)
    new_cond = trace_to_jaxpr(cond, cond_jaxpr.in_avals + tangent_avals, cond_jaxpr.jaxpr.debug_info)
    outs = while_p.bind(*cconsts, *bconsts, *bconst_tangents, *init, *init_tangents,
                        **while_params(new_cond, cond_nconsts, new_body, body_nconsts + n_bt))
    given = iter(outs[n_carry:])
    return outs[:n_carry], [next(given) if nz else Zero(tangent_aval(a))
                            for a, nz in zip(body_jaxpr.out_avals, carry_nz)]


jvp_rules[while_p] = _while_jvp

# ---------------------------------------------------------------- partial evaluation


def _carry_unknown(body: ClosedJaxpr, consts_uk: list[bool], carry_uk: list[bool]) -> list[bool]:
    """The fixed point of which carries are unknown."""
    while True:
        out_uk = partial_eval_jaxpr(body, consts_uk + carry_uk).out_unknowns
        new = [a or b for a, b in zip(carry_uk, out_uk)]
        if new == carry_uk:
            return carry_uk
        carry_uk = new


def _without_unknown_equations(jaxpr: Jaxpr, unknowns: Sequence[bool]) -> Jaxpr:
    """``jaxpr`` without the equations reading, directly or not, its ``unknowns`` inputs (writes into an unknown
    reference among them)."""
    unknown = {v for v, uk in zip(jaxpr.invars, unknowns) if uk}
    eqns = []
    for eqn in jaxpr.eqns:
        if any(type(a) is not Literal and a in unknown for a in eqn.invars):
            unknown.update(eqn.outvars)
        else:
            eqns.append(eqn)
    return jaxpr.replace(eqns=eqns)


def _while_partial_eval(trace: PartialStagingTrace, args, params):
    cond_nconsts, body_nconsts = params["cond_nconsts"], params["body_nconsts"]
    cond_jaxpr, body_jaxpr = params["cond_jaxpr"], params["body_jaxpr"]
    unknowns = [trace.is_unknown(x) for x in args]
    cconsts_uk, bconsts_uk, init_uk = split_while_args(unknowns, cond_nconsts, body_nconsts)
    carry_uk = _carry_unknown(body_jaxpr, bconsts_uk, list(init_uk))
    if any(partial_eval_jaxpr(cond_jaxpr, cconsts_uk + carry_uk).out_unknowns):
        carry_uk = [True] * len(carry_uk)
    # The unknown carries need the whole loop (known parts recomputed): it is staged as it is, as JAX stages it
    # whenever an operand is unknown (a tangent reference the loop writes, say).
    staged = trace.stage(while_p, args, params) if any(unknowns) else None
    if all(carry_uk):
        return staged
    # The known carries run now in a loop of their own, whose body keeps every known equation (the residuals
    # of the tangents computed and dropped, as JAX's known body keeps them).
    body = _without_unknown_equations(body_jaxpr.jaxpr, bconsts_uk + carry_uk)
    known_body = body.replace(outvars=[v for v, uk in zip(body.outvars, carry_uk) if not uk])
    keep_in = [not uk for uk in bconsts_uk + carry_uk]
    known_body = known_body.replace(invars=[v for v, k in zip(body.invars, keep_in) if k])
    cond = cond_jaxpr.jaxpr
    keep_cond = [not uk for uk in cconsts_uk + carry_uk]
    known_cond, _ = dce_jaxpr(cond, instantiate=True)
    known_cond = known_cond.replace(invars=[v for v, k in zip(cond.invars, keep_cond) if k])
    known_params = while_params(ClosedJaxpr(with_fresh_vars(known_cond), cond_jaxpr.consts),
                                cconsts_uk.count(False),
                                ClosedJaxpr(with_fresh_vars(known_body), body_jaxpr.consts), bconsts_uk.count(False))
    known_args = [x for x, uk in zip(args, cconsts_uk + bconsts_uk + carry_uk) if not uk]
    with core.set_current_trace(trace.parent):
        known_outs = iter(while_p.bind(*known_args, **known_params))
    return [staged[i] if uk else next(known_outs) for i, uk in enumerate(carry_uk)]


def _while_transpose(cts, *args, **params):
    raise ValueError(REVERSE_MODE_ERROR)


transpose_rules[while_p] = _while_transpose
partial_eval_rules[while_p] = _while_partial_eval
