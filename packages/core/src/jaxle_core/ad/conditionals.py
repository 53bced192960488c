"""AD of ``cond``: every transformation applies to all branches and stays behind a ``cond`` equation.

The JVP differentiates each branch (with the tangents that are nonzero in any
branch made real in all). Linearization splits each branch into a known part
and an unknown (tangent) part: a known ``cond`` computes the primal outputs and
the residuals of whichever branch runs, an unknown ``cond`` of the tangent
parts reads them. Residual slots are shared between branches by type; a branch
fills the slots it does not use with ``empty2`` placeholders. Transposition
transposes every branch of a linear ``cond``.
"""

from __future__ import annotations

from collections.abc import Sequence

from jaxle_core import core
from jaxle_core.ad.jit import jvp_jaxpr
from jaxle_core.ad.jvp import Zero, instantiate, jvp_rules, tangent_aval
from jaxle_core.ad.partial_eval import PartialStagingTrace, SplitJaxpr, partial_eval_jaxpr, partial_eval_rules
from jaxle_core.ad.transpose import (
    UndefinedPrimal,
    backward_pass,
    body_ref_cotangents,
    is_undefined,
    passed_ref_cotangents,
    transpose_rules,
)
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import ClosedJaxpr
from jaxle_core.jaxpr_util import dce_jaxpr
from jaxle_core.lax.control_flow.conditionals import cond_p, empty
from jaxle_core.staging import trace_to_jaxpr

# ---------------------------------------------------------------- forward mode


def _with_outputs(closed: ClosedJaxpr, have: Sequence[bool], want: Sequence[bool],
                  avals: Sequence[ShapedArray]) -> ClosedJaxpr:
    """``closed`` (whose trailing outputs are those flagged in ``have``) returning those flagged in ``want``,
    zeros where it had none."""
    n_lead = len(closed.out_avals) - sum(have)

    def fun(*args):
        outs = core.eval_jaxpr(closed.jaxpr, closed.consts, *args)
        given = iter(outs[n_lead:])
        tail = [next(given) if h else (instantiate(Zero(a)) if w else None) for h, w, a in zip(have, want, avals)]
        return outs[:n_lead] + [t for t, w in zip(tail, want) if w]

    return trace_to_jaxpr(fun, closed.in_avals, closed.jaxpr.debug_info)


def _cond_jvp(primals, tangents, *, branches: tuple[ClosedJaxpr, ...], **params):
    nonzero = [type(t) is not Zero for t in tangents[1:]]
    jvps = [jvp_jaxpr(b, nonzero) for b in branches]
    out_nonzero = [any(flags) for flags in zip(*[nz for _, nz in jvps])]
    tangent_avals = [tangent_aval(a) for a in branches[0].out_avals]
    new_branches = tuple(j if nz == out_nonzero else _with_outputs(j, nz, out_nonzero, tangent_avals)
                         for j, nz in jvps)
    outs = cond_p.bind(primals[0], *primals[1:], *[t for t in tangents[1:] if type(t) is not Zero],
                       branches=new_branches, **params)
    n_out = len(tangent_avals)
    given = iter(outs[n_out:])
    return outs[:n_out], [next(given) if nz else Zero(a) for nz, a in zip(out_nonzero, tangent_avals)]


jvp_rules[cond_p] = _cond_jvp

# ---------------------------------------------------------------- partial evaluation


def residual_slots(per_branch: Sequence[Sequence[ShapedArray]]) -> tuple[list[ShapedArray], list[list[int]]]:
    """Slots shared by the branches' residuals: the k-th residual of a type in each branch shares a slot.

    Returns the slots' types (in order of first appearance) and each branch's slot for each residual.
    """
    slots: dict[tuple[ShapedArray, int], int] = {}
    indices: list[list[int]] = []
    for avals in per_branch:
        seen: dict[ShapedArray, int] = {}
        mine = []
        for a in avals:
            key = (a, seen.get(a, 0))
            seen[a] = key[1] + 1
            mine.append(slots.setdefault(key, len(slots)))
        indices.append(mine)
    return [a for a, _ in slots], indices


def _known_branch(split: SplitJaxpr, slot_avals: Sequence[ShapedArray], slot_index: Sequence[int],
                  out_unknowns: Sequence[bool]) -> ClosedJaxpr:
    """The known part of a branch: the known outputs, then every residual slot (``empty2`` where unused).

    Known outputs of this branch that other branches leave unknown travel as residuals too, after its own.
    """
    n_known = split.out_unknowns.count(False)
    made_unknown = _made_unknown(split, out_unknowns)
    known = split.known
    # as JAX, dead code goes first (a loop counter the branch does not return, say)
    pruned, _ = dce_jaxpr(known.jaxpr, instantiate=True)

    def fun(*args):
        outs = core.eval_jaxpr(pruned, known.consts, *args)
        forced = [o for o, f in zip(outs[:n_known], made_unknown) if f]
        slots = [empty(a) for a in slot_avals]
        for i, r in zip(slot_index, split.residuals(args, outs) + forced):
            slots[i] = r
        return [o for o, f in zip(outs[:n_known], made_unknown) if not f] + slots

    return trace_to_jaxpr(fun, known.in_avals, known.jaxpr.debug_info)


def _made_unknown(split: SplitJaxpr, out_unknowns: Sequence[bool]) -> list[bool]:
    """For each known output of ``split``, whether the joined ``cond`` makes it unknown."""
    return [joined for own, joined in zip(split.out_unknowns, out_unknowns) if not own]


def _residual_avals(split: SplitJaxpr, out_unknowns: Sequence[bool]) -> list[ShapedArray]:
    """The types of a branch's residuals, then of its known outputs that the joined ``cond`` makes unknown."""
    outs = split.known.out_avals
    own = [split.known.in_avals[j] if src == "input" else outs[j] for src, j in split.residual_sources]
    return own + [a for a, f in zip(outs, _made_unknown(split, out_unknowns)) if f]


def _unknown_branch(split: SplitJaxpr, n_own: int, slot_avals: Sequence[ShapedArray], slot_index: Sequence[int],
                    out_unknowns: Sequence[bool], unknown_avals: Sequence[ShapedArray]) -> ClosedJaxpr:
    """The unknown part of a branch: reads all residual slots then the unknown inputs."""
    unknown = split.unknown
    n_slots = len(slot_avals)

    def fun(*args):
        residuals = [args[i] for i in slot_index]
        outs = iter(core.eval_jaxpr(unknown.jaxpr, unknown.consts, *residuals[:n_own], *args[n_slots:]))
        forced = iter(residuals[n_own:])
        return [next(outs) if own else next(forced)
                for own, joined in zip(split.out_unknowns, out_unknowns) if joined]

    return trace_to_jaxpr(fun, list(slot_avals) + list(unknown_avals), unknown.jaxpr.debug_info)


def _cond_partial_eval(trace: PartialStagingTrace, args, params):
    branches: tuple[ClosedJaxpr, ...] = params["branches"]
    index, ops = args[0], args[1:]
    unknowns = [trace.is_unknown(x) for x in ops]
    if trace.is_unknown(index):
        return trace.stage(cond_p, args, params)
    splits = [partial_eval_jaxpr(b, unknowns) for b in branches]
    out_unknowns = [any(flags) for flags in zip(*[s.out_unknowns for s in splits])]
    res_avals = [_residual_avals(s, out_unknowns) for s in splits]
    slot_avals, slot_indices = residual_slots(res_avals)
    known_ops = [x for x, u in zip(ops, unknowns) if not u]
    unknown_ops = [x for x, u in zip(ops, unknowns) if u]
    known_branches = tuple(_known_branch(s, slot_avals, idx, out_unknowns) for s, idx in zip(splits, slot_indices))
    unknown_avals = [get_aval(x) for x in unknown_ops]
    unknown_branches = tuple(_unknown_branch(s, len(s.residual_sources), slot_avals, idx, out_unknowns,
                                             unknown_avals)
                             for s, idx in zip(splits, slot_indices))
    with core.set_current_trace(trace.parent):
        known_outs = cond_p.bind(index, *known_ops, **dict(params, branches=known_branches))
    n_known = out_unknowns.count(False)
    residuals = known_outs[n_known:]
    unknown_outs = iter(trace.stage(cond_p, [index, *residuals, *unknown_ops], dict(params, branches=unknown_branches)))
    known_iter = iter(known_outs[:n_known])
    return [next(unknown_outs) if u else next(known_iter) for u in out_unknowns]


partial_eval_rules[cond_p] = _cond_partial_eval

# ---------------------------------------------------------------- transposition


def _cond_transpose(cts, index, *ops, branches: tuple[ClosedJaxpr, ...], **params):
    linear = [is_undefined(x) for x in ops]
    given_ops = [x for x, lin in zip(ops, linear) if not lin]
    residuals = passed_ref_cotangents(given_ops)
    nonzero = [type(ct) is not Zero for ct in cts]
    given_cts = [ct for ct in cts if type(ct) is not Zero]

    def transposed(closed: ClosedJaxpr) -> ClosedJaxpr:
        def fun(*inputs):
            known = iter(body_ref_cotangents(given_ops, inputs[:len(residuals)]))
            given = iter(inputs[len(residuals):])
            values = [UndefinedPrimal(x.aval) if lin else next(known) for x, lin in zip(ops, linear)]
            full = [next(given) if nz else ct for ct, nz in zip(cts, nonzero)]
            cts_in = backward_pass(closed.jaxpr, closed.consts, values, full)
            return [instantiate(ct) for ct, lin in zip(cts_in, linear) if lin]

        in_avals = [get_aval(x) for x in residuals + given_cts]
        return trace_to_jaxpr(fun, in_avals, closed.jaxpr.debug_info)

    new_branches = tuple(transposed(b) for b in branches)
    outs = iter(cond_p.bind(index, *residuals, *given_cts, branches=new_branches, **params))
    return [None] + [next(outs) if lin else None for lin in linear]


transpose_rules[cond_p] = _cond_transpose
