"""AD of ``scan``: forward mode, partial evaluation and transposition.

Forward mode runs a scan of the body's JVP. The new scan's operands are the
consts, their nonzero tangents, the carry, its tangents, the xs and their
nonzero tangents; it returns the carry, its tangents, the ys and their nonzero
tangents. Which carry tangents are nonzero is a fixed point: a carry whose
tangent the body makes nonzero gets a (zero-instantiated) tangent on the way in
too.

Partial evaluation (linearize, vjp, grad) splits the body into a known part and an
unknown part, after iterating to the fixed point on which carries are unknown. The
known part is split once more, with only its constants known: what depends on the
constants alone is loop-invariant and is computed once, outside the loop (hoisted);
the rest becomes the known scan, which returns the primal carries and outputs plus
the per-iteration residuals stacked as extra outputs. The unknown scan reads the
loop-invariant residuals as constants and the stacked ones (and known ``xs`` it
needs, passed straight through) as ``xs``.

Transposition first prunes what only zero cotangents need (as JAX prunes the linear
jaxpr), then turns the linear scan into a scan running the other way: the
non-linear constants stay constants, the carry holds the accumulated cotangents of
the linear constants and the cotangents of the carries, the ``xs`` are the nonzero
cotangents of the outputs then the non-linear ``xs``, and the outputs are the
cotangents of the linear ``xs``.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

import numpy as np

from jaxle_core import core
from jaxle_core.ad.jvp import (
    Zero,
    instantiate,
    jvp_flat,
    jvp_rules,
    rule_zeros,
    rule_zeros_state,
    tangent_aval,
    zeros_like_aval,
)
from jaxle_core.ad.partial_eval import (
    PartialStagingTrace,
    partial_eval_jaxpr,
    partial_eval_rules,
    residual_order,
    split_when_known,
)
from jaxle_core.ad.transpose import (
    RefCotangent,
    UndefinedPrimal,
    backward_pass,
    body_ref_cotangents,
    check_memory,
    is_undefined,
    passed_ref_cotangents,
    transpose_rules,
)
from jaxle_core.avals import get_aval
from jaxle_core.core import ClosedJaxpr, Jaxpr, JaxprEqn, Var
from jaxle_core.jaxpr_util import dce_jaxpr, dce_rules, jaxpr_has_effects
from jaxle_core.lax.control_flow.scan import scan_p, scan_params, split_scan_args, stacked_aval
from jaxle_core.lax.refs import is_ref_aval
from jaxle_core.staging import trace_to_jaxpr


def scan_jvp_jaxpr(closed: ClosedJaxpr, num_consts: int, num_carry: int, nonzero: Sequence[bool],
                   ) -> tuple[ClosedJaxpr, list[bool], list[bool]]:
    """The body's JVP in scan order (consts, const tangents, carry, carry tangents, xs, x tangents -> carry,
    carry tangents, ys, y tangents), with only the ``nonzero`` input tangents; carry tangents flagged in
    ``nonzero`` are always returned. Also returns which carry and y tangents the body makes nonzero."""
    groups = split_scan_args(range(len(closed.in_avals)), num_consts, num_carry)
    carry_nonzero = split_scan_args(nonzero, num_consts, num_carry)[1]
    out_nonzero: list[bool] = []

    def fun(*args):
        given = iter(args)
        primals: list = [None] * len(closed.in_avals)
        tangents: list = [None] * len(closed.in_avals)
        for group in groups:
            for i in group:
                primals[i] = next(given)
            for i in group:
                tangents[i] = next(given) if nonzero[i] else Zero(tangent_aval(closed.in_avals[i]))
        outs, tangents_out, _ = jvp_flat(lambda *xs: (core.eval_jaxpr(closed.jaxpr, closed.consts, *xs), None),
                                         primals, tangents, transform_stack=False)
        out_nonzero.extend(type(t) is not Zero for t in tangents_out)
        carry_t = [instantiate(t) for t, nz in zip(tangents_out[:num_carry], carry_nonzero) if nz]
        y_t = tangents_out[num_carry:]
        return outs[:num_carry] + carry_t + outs[num_carry:] + [t for t in y_t if type(t) is not Zero]

    in_avals = []
    for group in groups:
        in_avals += [closed.in_avals[i] for i in group]
        in_avals += [tangent_aval(closed.in_avals[i]) for i in group if nonzero[i]]
    body = trace_to_jaxpr(fun, in_avals, closed.jaxpr.debug_info)
    return body, out_nonzero[:num_carry], out_nonzero[num_carry:]


def _tangent_zeros_staged():
    """While a function is linearized, the zeros a scan instantiates for its carry tangents are made on the tangent
    side (JAX's linearization of a scan makes them with the tangents), in a jit's JVP traced to be linearized
    marked to be staged there; where a jaxpr is split, on the known side."""
    trace = core.current_trace()
    if isinstance(trace, PartialStagingTrace) and not trace.splits_jaxpr:
        return trace.staging_known()
    if rule_zeros.traces_linearized_jit:
        return rule_zeros_state(True, rule_zeros.inline, tangent_side=True)
    return nullcontext()


def _scan_jvp(primals, tangents, *, reverse: bool, length: int, jaxpr: ClosedJaxpr, num_consts: int,
              num_carry: int, unroll: int):
    nonzero = [type(t) is not Zero for t in tangents]
    const_nz, carry_nz, xs_nz = split_scan_args(nonzero, num_consts, num_carry)
    while True:
        nonzero = const_nz + carry_nz + xs_nz
        body, carry_out_nz, y_nonzero = scan_jvp_jaxpr(jaxpr, num_consts, num_carry, nonzero)
        if all(a or not b for a, b in zip(carry_nz, carry_out_nz)):
            break
        carry_nz = [a or b for a, b in zip(carry_nz, carry_out_nz)]
    with _tangent_zeros_staged():
        tangents = [instantiate(t, as_residual=False) if nz else t for t, nz in zip(tangents, nonzero)]
    operands = []
    for prim_group, tan_group in zip(split_scan_args(primals, num_consts, num_carry),
                                     split_scan_args(tangents, num_consts, num_carry)):
        operands += prim_group + [t for t in tan_group if type(t) is not Zero]
    n_carry_t = sum(carry_nz)
    outs = scan_p.bind(*operands, **scan_params(body, length, num_consts + sum(const_nz), num_carry + n_carry_t,
                                                reverse, unroll))
    carry, carry_t = outs[:num_carry], iter(outs[num_carry:num_carry + n_carry_t])
    n_ys = len(jaxpr.out_avals) - num_carry
    ys, ys_t = outs[num_carry + n_carry_t:num_carry + n_carry_t + n_ys], iter(outs[num_carry + n_carry_t + n_ys:])
    out_avals = jaxpr.out_avals
    carry_tangents = [next(carry_t) if nz else Zero(tangent_aval(a)) for nz, a in zip(carry_nz, out_avals)]
    y_tangents = [next(ys_t) if nz else Zero(tangent_aval(stacked_aval(a, length)))
                  for nz, a in zip(y_nonzero, out_avals[num_carry:])]
    return list(carry) + list(ys), carry_tangents + y_tangents


jvp_rules[scan_p] = _scan_jvp



def opened_body(jaxpr: Jaxpr, consts: Sequence[Any]) -> tuple[ClosedJaxpr, list[Any]]:
    """``jaxpr`` with its constants turned into leading inputs (a scan body has none), and those constants."""
    return ClosedJaxpr(jaxpr.replace(constvars=[], invars=[*jaxpr.constvars, *jaxpr.invars]), []), list(consts)


@dataclass(eq=False)
class InstantiatedSplit:
    """A jaxpr split by ``split_instantiating``.

    ``known`` computes, from the known inputs, the atoms ``known_outs`` (the outputs that stay known) and
    ``residuals``; ``unknown`` takes the residuals then the unknown inputs and returns the unknown outputs.
    Both jaxprs may have constants (``known_consts``, ``unknown_consts``).
    """

    known: Jaxpr
    known_consts: list[Any]
    known_outs: list[Any]
    residuals: list[Any]
    unknown: Jaxpr
    unknown_consts: list[Any]
    out_unknowns: list[bool]

    def eval_known(self, args: Sequence[Any]) -> list[Any]:
        """The known outputs then the residuals, computed by the current trace from the known inputs."""
        return core.eval_jaxpr(self.known.replace(outvars=self.known_outs + self.residuals), self.known_consts,
                               *args)


def split_instantiating(closed: ClosedJaxpr, unknowns: Sequence[bool], instantiate_outs: Sequence[bool],
                        sort_residuals: bool = False, linearizes: bool = False) -> InstantiatedSplit:
    """``partial_eval_jaxpr`` whose outputs in ``instantiate_outs`` are unknown even when computable now
    (they become residuals that the unknown jaxpr returns)."""
    # (linearizing, a constant the unknown part reads, one a jit's linearization passes, is a residual as in JAX)
    split = partial_eval_jaxpr(closed, unknowns, sort_residuals, linearizes, constant_residuals=linearizes)
    known = split.known.jaxpr
    residuals = [known.invars[j] if source == "input" else known.outvars[j] for source, j in split.residual_sources]
    unknown = split.unknown.jaxpr
    given_known, given_unknown = iter(known.outvars), iter(unknown.outvars)
    known_outs, extra_residuals, extra_invars, unknown_outs = [], [], [], []
    out_unknowns = list(split.out_unknowns)
    for i, is_unknown in enumerate(split.out_unknowns):
        if is_unknown:
            unknown_outs.append(next(given_unknown))
            continue
        atom = next(given_known)
        if not instantiate_outs[i]:
            known_outs.append(atom)
            continue
        var = Var(atom.aval)
        extra_residuals.append(atom)
        extra_invars.append(var)
        unknown_outs.append(var)
        out_unknowns[i] = True
    n_res = len(residuals)
    res_vars, residuals = unknown.invars[:n_res] + extra_invars, residuals + extra_residuals
    unknown = unknown.replace(invars=res_vars + unknown.invars[n_res:], outvars=unknown_outs)
    if sort_residuals and extra_invars:  # an instantiated output is a residual like the others, in JAX's order
        position = {v: i for i, v in enumerate(res_vars)}
        order = [position[v] for v in residual_order(unknown, res_vars)]
        res_vars, residuals = [res_vars[i] for i in order], [residuals[i] for i in order]
        unknown = unknown.replace(invars=res_vars + unknown.invars[len(res_vars):])
    return InstantiatedSplit(known, list(split.known.consts), known_outs, residuals, unknown,
                             list(split.unknown.consts), out_unknowns)


def bind_scan(body: ClosedJaxpr, body_consts: list[Any], consts: list[Any], carry: list[Any], xs: list[Any],
               reverse: bool, length: int, unroll: Any, stage=None) -> list[Any]:
    """Bind ``scan_p`` (or stage it with ``stage``) on a body whose own constants lead its operands."""
    operands = [*body_consts, *consts, *carry, *xs]
    params = scan_params(body, length, len(body_consts) + len(consts), len(carry), reverse, unroll)
    if stage is None:
        return scan_p.bind(*operands, **params)
    return stage(scan_p, operands, params)


# ---------------------------------------------------------------- partial evaluation


def _reading_first_of_equal(jaxpr: Jaxpr, consts: Sequence[Any], is_ref: Sequence[bool]) -> Jaxpr:
    """``jaxpr`` (whose leading inputs take ``consts``) reading, for a value passed as several of those constants,
    only the first: JAX hoists a loop's invariant work with its known constants closed over, one per value, so the
    known loop takes that value once."""
    first: dict[int, Var] = {}
    rename: dict[Var, Var] = {}
    for var, value, ref in zip(jaxpr.invars, consts, is_ref):
        if not ref:
            rename[var] = first.setdefault(id(value), var)
    if all(k is v for k, v in rename.items()):
        return jaxpr

    def read(atom: Any) -> Any:
        return rename.get(atom, atom) if isinstance(atom, Var) else atom

    return jaxpr.replace(eqns=[eqn.replace(invars=[read(a) for a in eqn.invars]) for eqn in jaxpr.eqns],
                         outvars=[read(a) for a in jaxpr.outvars])


def _scan_partial_eval(trace: PartialStagingTrace, args, params):
    num_consts, num_carry = params["num_consts"], params["num_carry"]
    body: ClosedJaxpr = params["jaxpr"]
    arg_unknown = [trace.is_unknown(x) for x in args]
    const_uk, xs_uk = arg_unknown[:num_consts], arg_unknown[num_consts + num_carry:]
    carry_uk = arg_unknown[num_consts:num_consts + num_carry]
    num_ys = len(body.out_avals) - num_carry
    loop_params = (params["reverse"], params["length"], params["unroll"])
    while True:  # a carry is unknown if its initial value is, or if the body makes it so
        # (residuals in JAX's sorted order where a whole jaxpr is split, as a checkpoint's transposition splits
        # its body; in their order of first use when linearizing a function, as JAX's text of those shows them)
        first = split_instantiating(body, const_uk + carry_uk + xs_uk, carry_uk + [False] * num_ys,
                                    sort_residuals=trace.splits_jaxpr, linearizes=not trace.splits_jaxpr)
        grown = [u or out for u, out in zip(carry_uk, first.out_unknowns[:num_carry])]
        if grown == carry_uk:
            break
        carry_uk = grown
    unknowns = const_uk + carry_uk + xs_uk
    known_args = [x for x, u in zip(args, unknowns) if not u]
    n_kconsts, n_kcarry = const_uk.count(False), carry_uk.count(False)
    known_xs_vars = first.known.invars[n_kconsts + n_kcarry:]
    known_xs = known_args[n_kconsts + n_kcarry:]

    # split the known body again with only its constants known: what that computes is loop-invariant (a NumPy
    # array among the xs is not forwarded as a residual, as JAX's: the known loop stacks it)
    forwarded = [next((k for k, v in enumerate(known_xs_vars) if r is v and not isinstance(known_xs[k], np.ndarray)),
                      None) for r in first.residuals]
    # a reference among the known constants that the unknown body reads is passed to it as the same constant
    known_consts = known_args[:n_kconsts]
    is_ref = [is_ref_aval(get_aval(c)) for c in known_consts]
    const_refs = {v: c for v, c, r in zip(first.known.invars, known_consts, is_ref) if r}
    stacked_candidates = [r for r, f in zip(first.residuals, forwarded) if f is None and r not in const_refs]
    n_kouts = len(first.known_outs)
    known_body = first.known.replace(outvars=first.known_outs + stacked_candidates)
    if not trace.splits_jaxpr:  # linearizing, JAX prunes the primal body by its rules (a cond's dead placeholders)
        known_body = dce_jaxpr(known_body, instantiate=True)[0]
    known_body = ClosedJaxpr(_reading_first_of_equal(known_body, known_consts, is_ref), first.known_consts)
    # (its residuals, the known loop's constants, in the order of JAX's topological sort); a reference among the
    # constants is no loop invariant (the loop may write it): it stays a constant of the known loop, after the others
    second = split_instantiating(known_body, is_ref + [True] * (len(known_args) - n_kconsts),
                                 [True] * n_kouts + [False] * len(stacked_candidates), sort_residuals=True)
    with core.set_current_trace(trace.parent):
        hoisted = second.eval_known([c for c, r in zip(known_consts, is_ref) if not r])
        invariant, loop_consts = hoisted[:len(second.known_outs)], hoisted[len(second.known_outs):]
        loop_consts += [c for c, r in zip(known_consts, is_ref) if r]
        loop_body, loop_body_consts = opened_body(second.unknown, second.unknown_consts)
        loop_outs = []
        if loop_body.jaxpr.outvars or jaxpr_has_effects(loop_body.jaxpr):
            loop_outs = bind_scan(loop_body, loop_body_consts, loop_consts, known_args[n_kconsts:n_kconsts + n_kcarry],
                                  known_xs, *loop_params)

    # each residual is loop-invariant (a constant of the unknown scan) or stacked (one of its xs)
    invariant_iter, stacked_iter = iter(invariant), iter(loop_outs[n_kouts:])
    candidate_kinds = iter(second.out_unknowns[n_kouts:])
    intensive, extensive = [], []  # (invar of the unknown body, value)
    n_res = len(first.residuals)
    for var, residual, f in zip(first.unknown.invars[:n_res], first.residuals, forwarded):
        if residual in const_refs:
            intensive.append((var, const_refs[residual]))
        elif f is not None:
            extensive.append((var, known_xs[f]))
        elif next(candidate_kinds):
            extensive.append((var, next(stacked_iter)))
        else:
            intensive.append((var, next(invariant_iter)))

    unknown_inputs = first.unknown.invars[n_res:]
    n_uconsts, n_ucarry = const_uk.count(True), carry_uk.count(True)
    unknown_body = first.unknown.replace(
        invars=[*first.unknown.constvars, *[v for v, _ in intensive], *unknown_inputs[:n_uconsts + n_ucarry],
                *unknown_inputs[n_uconsts + n_ucarry:], *[v for v, _ in extensive]], constvars=[])
    unknown_args = [x for x, u in zip(args, unknowns) if u]
    staged = iter(bind_scan(
        ClosedJaxpr(unknown_body, []), first.unknown_consts,
        [*[x for _, x in intensive], *unknown_args[:n_uconsts]], unknown_args[n_uconsts:n_uconsts + n_ucarry],
        [*unknown_args[n_uconsts + n_ucarry:], *[x for _, x in extensive]], *loop_params, trace.stage)
        if unknown_body.outvars or jaxpr_has_effects(unknown_body) else [])
    known_outs = iter(loop_outs[:n_kouts])
    return [next(staged) if u else next(known_outs) for u in first.out_unknowns]


partial_eval_rules[scan_p] = _scan_partial_eval
split_when_known.add(scan_p)

# ---------------------------------------------------------------- transposition


def _retyped_carry(jaxpr: Jaxpr, num_consts: int, avals: list) -> Jaxpr:
    """``jaxpr`` whose carry inputs (after ``num_consts`` inputs) have the types ``avals``."""
    carry = jaxpr.invars[num_consts:num_consts + len(avals)]
    renamed = {v: Var(a) for v, a in zip(carry, avals) if v.aval != a}
    if not renamed:
        return jaxpr
    rename = lambda atoms: [renamed.get(a, a) if type(a) is Var else a for a in atoms]
    return jaxpr.replace(invars=rename(jaxpr.invars), outvars=rename(jaxpr.outvars),
                         eqns=[e.replace(invars=rename(e.invars)) for e in jaxpr.eqns])


def _sliced_ref_cotangent(operand: Any, value: Any) -> Any:
    """``value``, a slice of a transposed scan's ``operand``, as a ``RefCotangent`` where ``operand`` is one."""
    if type(operand) is not RefCotangent:
        return value
    return RefCotangent(operand.aval.update(shape=operand.aval.shape[1:]), value)


def _scan_transpose(cts, *args, reverse: bool, length: int, jaxpr: ClosedJaxpr, num_consts: int, num_carry: int,
                    unroll):
    params = scan_params(jaxpr, length, num_consts, num_carry, reverse, unroll)
    nonzero = [type(ct) is not Zero for ct in cts]
    arg_avals = [a.aval if is_undefined(a) else get_aval(a) for a in args]
    eqn = JaxprEqn([Var(a) for a in arg_avals], [Var(a) for a in scan_p.abstract_eval(*arg_avals, **params)],
                   scan_p, params)
    used_inputs, pruned_eqn = dce_rules[scan_p](eqn, nonzero)
    kept = [any(v is w for w in pruned_eqn.outvars) for v in eqn.outvars]
    if not all(used_inputs) or not all(kept):
        given = iter(_scan_transpose([ct for ct, k in zip(cts, kept) if k],
                                     *[a for a, used in zip(args, used_inputs) if used], **pruned_eqn.params))
        return [next(given) if used else None for used in used_inputs]
    consts, xs = args[:num_consts], args[num_consts + num_carry:]
    const_linear, xs_linear = [is_undefined(c) for c in consts], [is_undefined(x) for x in xs]
    in_avals = jaxpr.in_avals
    const_avals, xs_avals = in_avals[:num_consts], in_avals[num_consts + num_carry:]
    ys_avals = jaxpr.out_avals[num_carry:]
    ct_carry, ct_ys = [instantiate(ct) for ct in cts[:num_carry]], cts[num_carry:]
    # as in JAX, the carries take the types of their cotangents (which may be strong where the carry is weak)
    carry_avals = [get_aval(ct) for ct in ct_carry]
    ys_nonzero = [type(ct) is not Zero for ct in ct_ys]
    res_consts = passed_ref_cotangents([c for c, lin in zip(consts, const_linear) if not lin])
    # the scanned cotangent references come first among the xs, then the cotangents of the ys, then the other
    # non-linear xs (as JAX orders them)
    xs_refs = [type(x) is RefCotangent for x in xs]
    res_xs = passed_ref_cotangents([x for x, r in zip(xs, xs_refs) if r])
    res_xs += [x for x, lin, r in zip(xs, xs_linear, xs_refs) if not r and not lin]
    lin_const_avals = [a for a, lin in zip(const_avals, const_linear) if lin]

    def transposed_body(*inputs):
        n_res, n_lin = len(res_consts), len(lin_const_avals)
        given_res = iter(body_ref_cotangents([c for c, lin in zip(consts, const_linear) if not lin], inputs[:n_res]))
        accumulated = inputs[n_res:n_res + n_lin]
        carry_cts = list(inputs[n_res + n_lin:n_res + n_lin + num_carry])
        rest = iter(inputs[n_res + n_lin + num_carry:])
        ref_cts = [_sliced_ref_cotangent(x, next(rest)) for x in xs if type(x) is RefCotangent]
        ys_cts = [next(rest) if nz else Zero(a) for nz, a in zip(ys_nonzero, ys_avals)]
        values = [UndefinedPrimal(a) if lin else next(given_res) for a, lin in zip(const_avals, const_linear)]
        values += [UndefinedPrimal(a) for a in carry_avals]
        given_refs = iter(ref_cts)
        values += [UndefinedPrimal(a) if lin else next(given_refs) if r else next(rest)
                   for a, lin, r in zip(xs_avals, xs_linear, xs_refs)]
        # the linear consts are also outputs whose cotangents are the accumulated ones, so that each
        # iteration's contributions are added to those (as JAX orders the sums)
        lin_const_vars = [v for v, lin in zip(jaxpr.jaxpr.invars[:num_consts], const_linear) if lin]
        extended = jaxpr.jaxpr.replace(outvars=[*jaxpr.jaxpr.outvars, *lin_const_vars])
        cts_in = backward_pass(_retyped_carry(extended, num_consts, carry_avals), jaxpr.consts, values,
                               carry_cts + ys_cts + list(accumulated))
        const_cts = [ct for ct, lin in zip(cts_in[:num_consts], const_linear) if lin]
        xs_cts = [ct for ct, lin in zip(cts_in[num_consts + num_carry:], xs_linear) if lin]
        return [instantiate(ct) for ct in const_cts + cts_in[num_consts:num_consts + num_carry] + xs_cts]

    body_avals = ([a for a, lin in zip(const_avals, const_linear) if not lin] + lin_const_avals + list(carry_avals)
                  + [a for a, r in zip(xs_avals, xs_refs) if r]
                  + [a for a, nz in zip(ys_avals, ys_nonzero) if nz]
                  + [a for a, lin, r in zip(xs_avals, xs_linear, xs_refs) if not r and not lin])
    closed = trace_to_jaxpr(transposed_body, body_avals, jaxpr.jaxpr.debug_info)
    body, body_consts = opened_body(closed.jaxpr, closed.consts)
    carry = [zeros_like_aval(a) for a in lin_const_avals] + ct_carry
    n_refs = xs_refs.count(True)
    outs = bind_scan(body, body_consts, res_consts, carry,
                     [*res_xs[:n_refs], *[ct for ct in ct_ys if type(ct) is not Zero], *res_xs[n_refs:]],
                     not reverse, length, unroll)
    # a stacked operand typed otherwise than the body's (an offloaded residual computed eagerly on a backend that
    # keeps none in host memory) is refused as JAX refuses it in the body
    for x, ct in zip([x for x in xs if is_undefined(x)], outs[len(carry):]):
        check_memory(x.aval, ct, stacked=True)
    const_cts, carry_cts, xs_cts = iter(outs[:len(lin_const_avals)]), outs[len(lin_const_avals):len(carry)], \
        iter(outs[len(carry):])
    return ([next(const_cts) if lin else None for lin in const_linear] + list(carry_cts)
            + [next(xs_cts) if lin else None for lin in xs_linear])


transpose_rules[scan_p] = _scan_transpose
