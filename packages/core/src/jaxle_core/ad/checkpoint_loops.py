"""Loops inside a checkpointed function, split with the checkpoint's policy as JAX 0.10.2 splits them.

A ``scan`` is split body first, with the policy (what it saves inside the loop is a residual of each iteration),
after iterating to the fixed point of which carries are unknown. Its known part is one ``closed_call``: the
loop-invariant work of the known body (hoisted out of the loop), then a ``scan`` returning the known carries and ys
and the residuals stacked; the loop-invariant residuals are results of the call too. The staged part is the ``scan``
of the staged body, reading the loop-invariant residuals as leading constants and the stacked ones as trailing
``xs``.

A ``while_loop`` saves nothing (its iterations are not counted): its known part is a ``while`` computing the known
carries, its body and condition the known equations of the original ones (on their own variables); the staged part
is the whole loop again, as JAX's, also where it reads or writes references (the staged loop writes them again).
"""

from __future__ import annotations

from jaxle_core.ad.checkpoint import policy_split_rules, split_with_policy
from jaxle_core.ad.scan import bind_scan, opened_body, split_instantiating
from jaxle_core.checkpoint import nothing_saveable
from jaxle_core.closed_call import closed_call_p
from jaxle_core.core import ClosedJaxpr, JaxprEqn, Var
from jaxle_core.lax.control_flow.scan import scan_p, split_scan_args, stacked_aval
from jaxle_core.lax.control_flow.while_loops import split_while_args, while_p, while_params
from jaxle_core.lax.refs import is_ref_aval
from jaxle_core.staging import trace_to_jaxpr

__all__: list[str] = []


def _split_scan(policy, unknowns: list[bool], instantiated: list[bool], eqn: JaxprEqn):
    params = eqn.params
    body: ClosedJaxpr = params["jaxpr"]
    num_consts, num_carry, length = params["num_consts"], params["num_carry"], params["length"]
    num_ys = len(body.out_avals) - num_carry
    const_uk, carry_uk, xs_uk = split_scan_args(unknowns, num_consts, num_carry)
    while True:  # a carry (or reference) is unknown if its initial value is, or if the body makes it so
        known, staged, out_unknowns, _, num_res, ins_unknown = split_with_policy(
            body.jaxpr, const_uk + carry_uk + xs_uk, policy, ensure_unknown=carry_uk + [False] * num_ys,
            ensure_instantiated=True)
        grown = [a or b for a, b in zip(carry_uk, out_unknowns[:num_carry])]
        if grown == carry_uk and ins_unknown[:num_consts] == const_uk:
            break
        carry_uk, const_uk = grown, ins_unknown[:num_consts]
    unknowns = const_uk + carry_uk + xs_uk
    res_avals = [v.aval for v in staged.invars[:num_res]]

    # the known body split again with only its constants known (a reference among them stays a constant of the
    # loop): what that computes is loop-invariant, hoisted out of the loop
    n_kconsts, n_kcarry = const_uk.count(False), carry_uk.count(False)
    kept_in_loop = [is_ref_aval(v.aval) for v in known.invars[:n_kconsts]]
    n_kouts = out_unknowns.count(False)
    hoist = split_instantiating(ClosedJaxpr(known, body.consts),
                                kept_in_loop + [True] * (len(known.invars) - n_kconsts),
                                [True] * n_kouts + [False] * num_res, sort_residuals=True)
    loop_dependent = hoist.out_unknowns[n_kouts:]

    def known_call(*ins):
        consts = ins[:n_kconsts]
        hoisted = hoist.eval_known([c for c, k in zip(consts, kept_in_loop) if not k])
        invariant, loop_consts = hoisted[:len(hoist.known_outs)], hoisted[len(hoist.known_outs):]
        loop_body, loop_body_consts = opened_body(hoist.unknown, hoist.unknown_consts)
        outs = bind_scan(loop_body, loop_body_consts, [*loop_consts, *[c for c, k in zip(consts, kept_in_loop) if k]],
                         list(ins[n_kconsts:n_kconsts + n_kcarry]), list(ins[n_kconsts + n_kcarry:]),
                         params["reverse"], length, params["unroll"])
        return [*invariant, *outs]

    ins_known = [x for x, u in zip(eqn.invars, unknowns) if not u]
    call_jaxpr = trace_to_jaxpr(known_call, [x.aval for x in ins_known], body.jaxpr.debug_info)
    intensive = [Var(a) for a, d in zip(res_avals, loop_dependent) if not d]
    extensive = [Var(stacked_aval(a, length)) for a, d in zip(res_avals, loop_dependent) if d]
    known_eqn = JaxprEqn(ins_known, [*intensive, *[v for v, u in zip(eqn.outvars, out_unknowns) if not u],
                                     *extensive], closed_call_p, dict(call_jaxpr=call_jaxpr), eqn.compute_type)

    # the staged body reads the loop-invariant residuals first, then every input, then the stacked residuals
    res_vars = staged.invars[:num_res]
    staged_body = staged.replace(invars=[*[v for v, d in zip(res_vars, loop_dependent) if not d],
                                         *staged.invars[num_res:], *[v for v, d in zip(res_vars, loop_dependent) if d]])
    staged_eqn = eqn.replace(invars=[*intensive, *eqn.invars, *extensive],
                             params=dict(params, jaxpr=ClosedJaxpr(staged_body, body.consts),
                                         num_consts=len(intensive) + num_consts))
    lacking = [a for a, i in zip(eqn.invars, instantiated) if type(a) is Var and not i]
    return (known_eqn, staged_eqn, out_unknowns, [True] * len(eqn.outvars), [*lacking, *intensive, *extensive],
            unknowns)


policy_split_rules[scan_p] = _split_scan


def _split_while(policy, unknowns: list[bool], instantiated: list[bool], eqn: JaxprEqn):
    params = eqn.params
    cond, body = params["cond_jaxpr"], params["body_jaxpr"]
    cond_uk, body_uk, carry_uk = split_while_args(unknowns, params["cond_nconsts"], params["body_nconsts"])
    while True:  # a carry (or reference) is unknown if its initial value is, or if the body makes it so
        known_body, _, out_unknowns, _, _, ins_unknown = split_with_policy(
            body.jaxpr, body_uk + carry_uk, nothing_saveable, ensure_unknown=carry_uk, ensure_instantiated=True)
        grown = [a or b for a, b in zip(carry_uk, out_unknowns)]
        n_body = len(body_uk)
        if grown == carry_uk and ins_unknown[:n_body] == body_uk:
            break
        carry_uk, body_uk = grown, ins_unknown[:n_body]
    lacking = [a for a, i in zip(eqn.invars, instantiated) if type(a) is Var and not i]
    known_cond, _, (pred_unknown,), _, _, _ = split_with_policy(cond.jaxpr, cond_uk + carry_uk, nothing_saveable,
                                                             ensure_instantiated=True)
    unknowns = cond_uk + body_uk + carry_uk
    if pred_unknown:  # the whole loop is staged, what it writes unknown
        written = [u or is_ref_aval(a.aval) for a, u in zip(eqn.invars, unknowns)]
        return None, eqn, [True] * len(carry_uk), [True] * len(carry_uk), lacking, written
    known_eqn = eqn.replace(invars=[x for x, u in zip(eqn.invars, unknowns) if not u],
                            outvars=[v for v, u in zip(eqn.outvars, carry_uk) if not u],
                            params=while_params(ClosedJaxpr(known_cond, cond.consts), cond_uk.count(False),
                                                ClosedJaxpr(known_body, body.consts), body_uk.count(False)))
    return known_eqn, eqn, carry_uk, [True] * len(carry_uk), lacking, unknowns


policy_split_rules[while_p] = _split_while
