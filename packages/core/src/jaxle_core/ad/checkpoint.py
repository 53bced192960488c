"""AD of ``checkpoint``: what the policy does not save is recomputed on the (co)tangent side.

The JVP differentiates the inner jaxpr behind a new ``remat2`` equation.
Partial evaluation (linearize, grad) splits that jaxpr equation by equation:
known equations run now, and those the policy does not let save their results
are copied into the unknown part too, which recomputes them from the inputs;
the unknown part becomes a ``remat2`` equation with ``differentiated=True``.
Transposition turns a linear ``remat2`` into a ``remat2`` of its transpose.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from jaxle_core import core, dtypes
from jaxle_core.ad.jit import jvp_jaxpr
from jaxle_core.ad.jvp import Zero, jvp_rules, tangent_aval
from jaxle_core.ad.partial_eval import PartialStagingTrace, partial_eval_jaxpr, partial_eval_rules
from jaxle_core.ad.transpose import (
    UndefinedPrimal,
    backward_pass,
    body_ref_cotangents,
    is_undefined,
    passed_ref_cotangents,
    transpose_rules,
)
from jaxle_core.avals import get_aval
from jaxle_core.checkpoint import (
    checkpoint_p,
    checkpoint_params,
    name_p,
    nothing_saveable,
    open_jaxpr,
    policy_saves,
)
from jaxle_core.core import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var
from jaxle_core.jaxpr_util import dce_jaxpr
from jaxle_core.jit import jit_p
from jaxle_core.lax.structural import reduce_precision_p
from jaxle_core.staging import trace_to_jaxpr


def _extend_cse(prevent_cse: bool | tuple[bool, ...], leading: int, kept: list[bool] | None = None,
                trailing: int = 0) -> bool | tuple[bool, ...]:
    """``prevent_cse`` for new operands: ``leading`` True flags, the old ones ``kept``, ``trailing`` True flags."""
    if isinstance(prevent_cse, bool):
        return prevent_cse
    old = prevent_cse if kept is None else tuple(p for p, k in zip(prevent_cse, kept) if k)
    return (True,) * leading + old + (True,) * trailing


# ---------------------------------------------------------------- forward mode


def _checkpoint_jvp(primals, tangents, *, jaxpr: Jaxpr, prevent_cse, differentiated: bool, policy):
    nonzero = [type(t) is not Zero for t in tangents]
    jvp_closed, out_nonzero = jvp_jaxpr(ClosedJaxpr(jaxpr, []), nonzero)
    new_jaxpr, consts = open_jaxpr(jvp_closed)
    given = [t for t in tangents if type(t) is not Zero]
    cse = _extend_cse(prevent_cse, len(consts), trailing=len(given))
    outs = checkpoint_p.bind(*consts, *primals, *given, **checkpoint_params(new_jaxpr, cse, differentiated, policy))
    n_out = len(jaxpr.outvars)
    it = iter(outs[n_out:])
    return outs[:n_out], [next(it) if nz else Zero(tangent_aval(v.aval)) for nz, v in zip(out_nonzero, jaxpr.outvars)]


jvp_rules[checkpoint_p] = _checkpoint_jvp
jvp_rules[name_p] = lambda primals, tangents, *, name: (name_p.bind(primals[0], name=name), tangents[0])

# ---------------------------------------------------------------- partial evaluation


def _inline_calls(eqns: list[JaxprEqn], outvars: list[Any], env: dict[Var, Any], unknown: set[Var],
                  fresh: bool, split_mixed: bool = True) -> tuple[list[JaxprEqn], list[Any]]:
    """``eqns`` with the jaxpr-carrying calls that mix known and unknown operands inlined (recursively) and other
    equations with a partial evaluation rule (control flow) split into their known and unknown equations (unless
    ``split_mixed`` is off), and ``outvars``, renamed through ``env``; ``fresh`` gives the equations new output
    variables."""
    read = lambda a: env.get(a, a) if type(a) is Var else a
    flat: list[JaxprEqn] = []
    for eqn in eqns:
        ins = [read(a) for a in eqn.invars]
        reads_unknown = [type(a) is Var and a in unknown for a in ins]
        mixed = any(reads_unknown) and not all(reads_unknown)
        if eqn.primitive in (jit_p, checkpoint_p) and mixed:
            inner = eqn.params["jaxpr"]
            body, consts = (inner.jaxpr, inner.consts) if isinstance(inner, ClosedJaxpr) else (inner, [])
            inner_eqns, inner_outs = _inline_jaxpr(body, consts, ins, unknown, True)
            flat.extend(inner_eqns)
            env.update(zip(eqn.outvars, inner_outs))
            continue
        if split_mixed and mixed and eqn.primitive in partial_eval_rules:
            split_eqns, split_outs = _split_equation(eqn, ins, unknown)
            flat.extend(split_eqns)
            env.update(zip(eqn.outvars, split_outs))
            continue
        outs = list(eqn.outvars)
        if fresh:
            outs = [Var(v.aval) for v in eqn.outvars]
            env.update(zip(eqn.outvars, outs))
        if any(reads_unknown):
            unknown.update(outs)
        flat.append(eqn.replace(invars=ins, outvars=outs))
    return flat, [read(v) for v in outvars]


def _inline_jaxpr(jaxpr: Jaxpr, consts: list[Any], ins: list[Any], unknown: set[Var],
                  split_mixed: bool) -> tuple[list[JaxprEqn], list[Any]]:
    """The equations of ``jaxpr`` applied to the atoms ``ins`` (fresh variables), and its output atoms."""
    env: dict[Var, Any] = dict(zip(jaxpr.invars, ins))
    env.update((v, Literal(c, get_aval(c))) for v, c in zip(jaxpr.constvars, consts))
    return _inline_calls(jaxpr.eqns, jaxpr.outvars, env, unknown, True, split_mixed)


def _split_equation(eqn: JaxprEqn, ins: list[Any], unknown: set[Var]) -> tuple[list[JaxprEqn], list[Any]]:
    """A control-flow equation with known and unknown operands as its known equations (run now, or recomputed
    as the policy says) followed by its unknown ones, reading the residuals; and the atoms of its outputs."""
    positions = [i for i, a in enumerate(ins) if type(a) is Var]
    params_in = {i: Var(ins[i].aval) for i in positions}
    one = Jaxpr([], list(params_in.values()), [Var(v.aval) for v in eqn.outvars], [])
    one.eqns.append(eqn.replace(invars=[params_in.get(i, a) for i, a in enumerate(ins)], outvars=one.outvars))
    is_unknown = [ins[i] in unknown for i in positions]
    split = partial_eval_jaxpr(ClosedJaxpr(one, []), is_unknown)
    known_ins = [ins[i] for i, u in zip(positions, is_unknown) if not u]
    known_eqns, known_outs = _inline_jaxpr(split.known.jaxpr, split.known.consts, known_ins, unknown, True)
    residuals = [known_ins[j] if src == "input" else known_outs[j] for src, j in split.residual_sources]
    unknown_ins = [ins[i] for i, u in zip(positions, is_unknown) if u]
    unknown_eqns, unknown_outs = _inline_jaxpr(split.unknown.jaxpr, split.unknown.consts, residuals + unknown_ins,
                                               unknown, False)
    known_iter, unknown_iter = iter(known_outs), iter(unknown_outs)
    outs = [next(unknown_iter) if u else next(known_iter) for u in split.out_unknowns]
    return known_eqns + unknown_eqns, outs


def split_with_policy(jaxpr: Jaxpr, unknowns: list[bool], policy) -> tuple[Jaxpr, Jaxpr, list[bool], int]:
    """Split ``jaxpr`` into a known jaxpr (known inputs -> known outputs, then residuals) and a staged one
    (residuals, then every input -> unknown outputs), recomputing known results ``policy`` does not save.

    Returns both jaxprs, which outputs are unknown, and the number of residuals.
    """
    unknown = {v for v, u in zip(jaxpr.invars, unknowns) if u}
    eqns, outvars = _inline_calls(jaxpr.eqns, jaxpr.outvars, {}, set(unknown), False)
    available = set(jaxpr.invars)  # values the staged jaxpr has without a residual
    residuals: dict[Var, None] = {}
    known_eqns, staged_eqns = [], []
    for eqn in eqns:
        reads = [a for a in eqn.invars if type(a) is Var]
        if any(a in unknown for a in reads):
            residuals.update((a, None) for a in reads if a not in available and a not in residuals)
            staged_eqns.append(eqn)
            unknown.update(eqn.outvars)
            available.update(eqn.outvars)
            continue
        known_eqns.append(eqn)
        if not policy_saves(policy(eqn.primitive, *[a.aval for a in eqn.invars], **eqn.params)):
            residuals.update((a, None) for a in reads if a not in available and a not in residuals)
            staged_eqns.append(eqn)
            available.update(eqn.outvars)
    out_unknowns = [type(v) is Var and v in unknown for v in outvars]
    res = list(residuals)
    known = Jaxpr([], [v for v, u in zip(jaxpr.invars, unknowns) if not u],
                  [v for v, u in zip(outvars, out_unknowns) if not u] + res, known_eqns)
    staged = Jaxpr([], res + list(jaxpr.invars), [v for v, u in zip(outvars, out_unknowns) if u], staged_eqns)
    return known, staged, out_unknowns, len(res)


def _insert_reduce_precision(jaxpr: Jaxpr, num_res: int) -> Jaxpr:
    """Round each floating residual that the known jaxpr also reads to its dtype's precision, as JAX does,
    so that the saved value equals the one used on the forward pass."""
    read = {a for e in jaxpr.eqns for a in e.invars if type(a) is Var}
    eqns = list(jaxpr.eqns)
    for v in jaxpr.outvars[len(jaxpr.outvars) - num_res:]:
        if v not in read or not dtypes.issubdtype(v.aval.dtype, np.inexact) or v in jaxpr.invars:
            continue
        index = next(i for i, e in enumerate(eqns) if v in e.outvars)
        info = ml_dtypes.finfo(v.aval.dtype)
        params = dict(exponent_bits=int(info.nexp), mantissa_bits=int(info.nmant))
        if eqns[index].primitive is reduce_precision_p and eqns[index].params == params:
            continue
        produced = Var(v.aval)
        eqns[index] = eqns[index].replace(outvars=[produced if o is v else o for o in eqns[index].outvars])
        eqns.insert(index + 1, JaxprEqn([produced], [v], reduce_precision_p, params))
    return jaxpr.replace(eqns=eqns)


def _checkpoint_partial_eval(trace: PartialStagingTrace, args, params):
    unknowns = [trace.is_unknown(x) for x in args]
    known, staged, out_unknowns, num_res = split_with_policy(params["jaxpr"], unknowns,
                                                             params["policy"] or nothing_saveable)
    staged, staged_used = dce_jaxpr(staged, [True] * len(staged.outvars))
    used_res, used_args = staged_used[:num_res], staged_used[num_res:]
    known, known_used = dce_jaxpr(known, [True] * out_unknowns.count(False) + used_res)
    num_res = sum(used_res)
    known = _insert_reduce_precision(known, num_res)
    known_args = [x for x, u in zip(args, unknowns) if not u]
    with core.set_current_trace(trace.parent):
        known_outs = core.eval_jaxpr(known, (), *[x for x, used in zip(known_args, known_used) if used])
    n_known = len(known_outs) - num_res
    cse = _extend_cse(params["prevent_cse"], num_res, kept=used_args)
    staged_params = checkpoint_params(staged, cse, True, params["policy"])
    staged_args = [*known_outs[n_known:], *[x for x, used in zip(args, used_args) if used]]
    unknown_outs = iter(trace.stage(checkpoint_p, staged_args, staged_params))
    known_iter = iter(known_outs[:n_known])
    return [next(unknown_outs) if u else next(known_iter) for u in out_unknowns]


partial_eval_rules[checkpoint_p] = _checkpoint_partial_eval

# ---------------------------------------------------------------- transposition


def _checkpoint_transpose(cts, *args, jaxpr: Jaxpr, prevent_cse, differentiated: bool, policy):
    linear = [is_undefined(a) for a in args]
    nonzero_cts = [type(ct) is not Zero for ct in cts]
    used, _ = dce_jaxpr(jaxpr, nonzero_cts, instantiate=True)  # what only zero cotangents need is not recomputed
    ct_nonzero: list[bool] = []

    given = [a for a, lin in zip(args, linear) if not lin]

    def transposed(*inputs):
        known = iter(body_ref_cotangents(given, inputs))
        values = [UndefinedPrimal(a.aval) if lin else next(known) for a, lin in zip(args, linear)]
        cts_in = [ct for ct, lin in zip(backward_pass(used, (), values, list(inputs[len(given):])), linear) if lin]
        ct_nonzero.extend(type(ct) is not Zero for ct in cts_in)
        return [ct for ct in cts_in if type(ct) is not Zero]

    operands = passed_ref_cotangents(given) + [ct for ct in cts if type(ct) is not Zero]
    closed = trace_to_jaxpr(transposed, [get_aval(x) for x in operands])
    new_jaxpr, consts = open_jaxpr(closed)
    cse = _extend_cse(prevent_cse, len(consts), kept=[not lin for lin in linear],
                      trailing=nonzero_cts.count(True))
    outs = iter(checkpoint_p.bind(*consts, *operands, **checkpoint_params(new_jaxpr, cse, differentiated, policy)))
    nonzero = iter(ct_nonzero)
    return [(next(outs) if next(nonzero) else None) if lin else None for lin in linear]


transpose_rules[checkpoint_p] = _checkpoint_transpose
