"""AD of ``checkpoint``: what the policy does not save is recomputed on the (co)tangent side.

The JVP differentiates the inner jaxpr behind a new ``remat2`` equation.
Partial evaluation (linearize, grad) splits that jaxpr equation by equation, as
JAX's policy-driven partial evaluation does: known equations run now, and those
the policy does not let save their results are copied into the unknown part too,
which recomputes them from the inputs; a value the policy offloads is copied to
another memory (``device_put``) as the residual and back in the unknown part; a
``jit`` or nested ``checkpoint`` is split into a known call and a staged one. The
unknown part becomes a ``remat2`` equation with ``differentiated=True``.
Transposition turns a linear ``remat2`` into a ``remat2`` of its transpose, its
non-linear part split off (and run) first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np

from jaxle_core import core, dtypes
from jaxle_core.ad.conditionals import residual_slots
from jaxle_core.ad.jit import jvp_jaxpr
from jaxle_core.ad.jvp import Zero, jvp_rules, tangent_aval
from jaxle_core.ad.partial_eval import PartialStagingTrace, partial_eval_jaxpr, partial_eval_rules
from jaxle_core.ad.transpose import (
    RefCotangent,
    UndefinedPrimal,
    backward_pass,
    body_ref_cotangents,
    is_undefined,
    known_references_written_linearly,
    passed_ref_cotangents,
    transpose_rules,
)
from jaxle_core.avals import get_aval
from jaxle_core.checkpoint import (
    Offloadable,
    Saveable,
    checkpoint_p,
    checkpoint_params,
    name_p,
    nothing_saveable,
    open_jaxpr,
    policy_case,
)
from jaxle_core.core import ClosedJaxpr, DropVar, Jaxpr, JaxprEqn, Literal, Var
from jaxle_core.jaxpr_util import dce_jaxpr, pruned_over_own_vars
from jaxle_core.jit import jit_p
from jaxle_core.lax.control_flow.conditionals import cond_p, empty
from jaxle_core.lax.placement import ArrayCopySemantics, device_put_p
from jaxle_core.lax.refs import addupdate_p, empty_ref_p, get_p, is_ref_aval, new_ref_p, swap_p
from jaxle_core.lax.structural import reduce_precision_p
from jaxle_core.memory_spaces import space_of_kind
from jaxle_core.source_info import record_unlocated
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


def _split_control_flow(eqns: list[JaxprEqn], outvars: list[Any], env: dict[Var, Any], unknown: set[Var],
                        fresh: bool, split_mixed: bool = True) -> tuple[list[JaxprEqn], list[Any]]:
    """``eqns`` with the equations that have a partial evaluation rule (control flow) and mix known and unknown
    operands split into their known and unknown equations (unless ``split_mixed`` is off), and ``outvars``, renamed
    through ``env``; ``fresh`` gives the equations new output variables. Calls (``jit``, ``checkpoint``) stay whole:
    ``policy_split_rules`` split them."""
    read = lambda a: env.get(a, a) if type(a) is Var else a
    flat: list[JaxprEqn] = []
    for eqn in eqns:
        ins = [read(a) for a in eqn.invars]
        reads_unknown = [type(a) is Var and a in unknown for a in ins]
        mixed = any(reads_unknown) and not all(reads_unknown)
        if split_mixed and mixed and eqn.primitive in partial_eval_rules and eqn.primitive not in policy_split_rules:
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
    return _split_control_flow(jaxpr.eqns, jaxpr.outvars, env, unknown, True, split_mixed)


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


def _moved(values: list[Var], space: Any) -> JaxprEqn:
    """An equation copying ``values`` to fresh variables in memory ``space``, as JAX offloads a residual."""
    moved = [Var(v.aval.update(memory_space=space)) for v in values]
    record_unlocated(moved)
    n = len(values)
    return JaxprEqn(values, moved, device_put_p, dict(devices=(space,) * n, srcs=(None,) * n,
                                                     copy_semantics=(ArrayCopySemantics.ALWAYS_COPY,) * n))


# Operations on references the known part holds: run again in the staged part whatever the policy (which is not
# asked), as JAX's partial evaluation of a checkpoint does: a write is repeated there, and a read reads the reference
# as the staged part finds it.
_rerun_on_references = {new_ref_p, empty_ref_p, get_p, swap_p, addupdate_p}
# Operations writing their first operand, a reference
_writes_references = {swap_p, addupdate_p}


def split_with_policy(jaxpr: Jaxpr, unknowns: list[bool], policy, instantiated: list[bool] | None = None,
                      ensure_unknown: list[bool] | None = None, ensure_instantiated: bool = False
                      ) -> tuple[Jaxpr, Jaxpr, list[bool], list[bool], int, list[bool]]:
    """Split ``jaxpr`` as JAX's policy-driven partial evaluation does: a known jaxpr (known inputs -> known outputs,
    then residuals) and a staged one (residuals, then the ``instantiated`` inputs (default: all) -> the unknown and
    instantiated outputs). A known value is instantiated (the staged jaxpr recomputes it) unless ``policy`` saves
    it (a residual where the staged jaxpr reads it) or offloads it (a residual copied to another memory and back);
    calls (``jit``, ``checkpoint``) and ``cond`` are split by ``policy_split_rules``. The outputs flagged in
    ``ensure_unknown`` are staged as unknown ones, and every output is with ``ensure_instantiated``. A reference
    written an unknown value becomes unknown: what is read from it later is staged.

    Returns both jaxprs, which outputs are unknown, which are instantiated, the number of residuals, and which
    inputs are unknown at the end (the unknown ones and the references written unknown values).
    """
    instantiated = [True] * len(jaxpr.invars) if instantiated is None else instantiated
    unknown = {v for v, u in zip(jaxpr.invars, unknowns) if u}
    eqns, outvars = _split_control_flow(jaxpr.eqns, jaxpr.outvars, {}, set(unknown), False)
    # the values the staged jaxpr has without a residual
    available = {*jaxpr.constvars, *(v for v, i in zip(jaxpr.invars, instantiated) if i)}
    residuals: dict[Var, None] = {}
    known_eqns: list[JaxprEqn] = []
    staged_eqns: list[JaxprEqn] = []

    def stage(eqn: JaxprEqn) -> None:
        residuals.update((a, None) for a in eqn.invars if type(a) is Var and a not in available)
        staged_eqns.append(eqn)
        available.update(eqn.outvars)

    for eqn in eqns:
        reads_unknown = [type(a) is Var and a in unknown for a in eqn.invars]
        rule = policy_split_rules.get(eqn.primitive)
        if rule is not None:
            known_eqn, staged_eqn, unknown_outs, instantiated_outs, new_residuals, unknown_ins = rule(
                policy, reads_unknown, [type(a) is not Var or a in available for a in eqn.invars], eqn)
            # a reference the call writes an unknown value to
            unknown.update(a for a, u in zip(eqn.invars, unknown_ins) if u and type(a) is Var)
            known_eqns.extend([known_eqn] if known_eqn is not None else [])
            staged_eqns.extend([staged_eqn] if staged_eqn is not None else [])
            residuals.update((r, None) for r in new_residuals)
            unknown.update(v for v, u in zip(eqn.outvars, unknown_outs) if u)
            available.update(v for v, i in zip(eqn.outvars, instantiated_outs) if i)
            continue
        if any(reads_unknown):
            unknown.update(eqn.outvars)
            if eqn.primitive in _writes_references:
                unknown.add(eqn.invars[0])  # what a later read finds there is unknown
            stage(eqn)
            continue
        known_eqns.append(eqn)
        if eqn.primitive in _rerun_on_references:
            stage(eqn)
            continue
        case = policy_case(policy(eqn.primitive, *[a.aval for a in eqn.invars], **eqn.params))
        if isinstance(case, Offloadable):
            offload = _moved(eqn.outvars, space_of_kind(case.dst))
            known_eqns.append(offload)
            residuals.update((v, None) for v in offload.outvars)
            staged_eqns.append(_moved(offload.outvars, space_of_kind(case.src)).replace(outvars=eqn.outvars))
            available.update(eqn.outvars)
        elif case is not Saveable:
            stage(eqn)
    if ensure_instantiated:
        residuals.update((v, None) for v in outvars if type(v) is Var and v not in available)
    out_unknowns = [(type(v) is Var and v in unknown) or bool(ensure_unknown and ensure_unknown[i])
                    for i, v in enumerate(outvars)]
    out_instantiated = [ensure_instantiated or type(v) is not Var or v in available for v in outvars]
    res = list(residuals)
    known = Jaxpr(jaxpr.constvars, [v for v, u in zip(jaxpr.invars, unknowns) if not u],
                  [v for v, u in zip(outvars, out_unknowns) if not u] + res, known_eqns)
    staged = Jaxpr(jaxpr.constvars, res + [v for v, i in zip(jaxpr.invars, instantiated) if i],
                   [v for v, i in zip(outvars, out_instantiated) if i], staged_eqns)
    return known, staged, out_unknowns, out_instantiated, len(res), [v in unknown for v in jaxpr.invars]


def _partition(flags: list[bool], values: Any) -> tuple[list[Any], list[Any]]:
    """``values`` whose flag is off, and those whose flag is on."""
    return [v for v, f in zip(values, flags) if not f], [v for v, f in zip(values, flags) if f]


def _split_checkpoint_call(policy, unknowns: list[bool], instantiated: list[bool], eqn: JaxprEqn):
    """A ``remat2`` equation inside a checkpointed function, split with the enclosing policy: its known part (known
    outputs and residuals) and its staged part (a differentiated ``remat2`` on the residuals)."""
    known, staged, out_unknowns, out_instantiated, num_res, unknown_ins = split_with_policy(
        eqn.params["jaxpr"], unknowns, policy, instantiated)
    residuals = [Var(v.aval) for v in staged.invars[:num_res]]
    cse_known = cse_staged = eqn.params["prevent_cse"]
    if isinstance(cse_known, tuple):
        cse_known, cse_staged = tuple(_partition(unknowns, cse_known)[0]), tuple(_partition(instantiated,
                                                                                               cse_staged)[1])
    known_eqn = eqn.replace(invars=_partition(unknowns, eqn.invars)[0],
                            outvars=_partition(out_unknowns, eqn.outvars)[0] + residuals,
                            params=dict(eqn.params, jaxpr=known, prevent_cse=cse_known))
    staged_eqn = eqn.replace(invars=residuals + _partition(instantiated, eqn.invars)[1],
                             outvars=_partition(out_instantiated, eqn.outvars)[1],
                             params=dict(eqn.params, jaxpr=staged, prevent_cse=cse_staged, differentiated=True))
    lacking = [a for a, i in zip(eqn.invars, instantiated) if type(a) is Var and not i]
    return known_eqn, staged_eqn, out_unknowns, out_instantiated, lacking + residuals, unknown_ins


def _split_jit_call(policy, unknowns: list[bool], instantiated: list[bool], eqn: JaxprEqn):
    """A ``jit`` equation inside a checkpointed function, split with the enclosing policy into a known ``jit``
    (known outputs, then the residuals that are neither its inputs nor its outputs) and a staged one (residuals,
    then the instantiated inputs)."""
    params, closed = eqn.params, eqn.params["jaxpr"]
    known, staged, out_unknowns, out_instantiated, num_res, unknown_ins = split_with_policy(closed.jaxpr, unknowns,
                                                                                            policy, instantiated)
    n_known = out_unknowns.count(False)
    known_outs, res_vars = known.outvars[:n_known], known.outvars[n_known:]
    pinned = [s is not None or lay is not None for s, lay in zip(params["in_shardings"], params["in_layouts"])]
    dropped = [type(v) is DropVar for v in eqn.outvars]
    # a residual that is an input or output of the known call is passed as that (a later one of two equal wins)
    input_at = {v: i for i, (v, p) in enumerate(zip(known.invars, _partition(unknowns, pinned)[0])) if not p}
    output_at = {v: i for i, (v, d) in enumerate(zip(known_outs, _partition(out_unknowns, dropped)[0]))
                 if type(v) is Var and not d}
    forwarded = [(input_at.get(v), output_at.get(v)) for v in res_vars]
    returned = [fin is None and fout is None for fin, fout in forwarded]
    # without the equations only the staged call needs (pruned here: a call with effects is not pruned later)
    known = dce_jaxpr(known.replace(outvars=known_outs + [v for v, r in zip(res_vars, returned) if r]),
                      instantiate=True)[0]
    ins_known, outs_known = _partition(unknowns, eqn.invars)[0], _partition(out_unknowns, eqn.outvars)[0]
    binders = iter([Var(v.aval) for v, r in zip(staged.invars[:num_res], returned) if r])
    residuals = [outs_known[fout] if fout is not None else ins_known[fin] if fin is not None else next(binders)
                 for fin, fout in forwarded]
    n_returned = returned.count(True)
    known_params = dict(params, jaxpr=ClosedJaxpr(pruned_over_own_vars(known), closed.consts),
                        in_shardings=tuple(_partition(unknowns, params["in_shardings"])[0]),
                        out_shardings=(*_partition(out_unknowns, params["out_shardings"])[0], *(None,) * n_returned),
                        in_layouts=tuple(_partition(unknowns, params["in_layouts"])[0]),
                        out_layouts=(*_partition(out_unknowns, params["out_layouts"])[0], *(None,) * n_returned),
                        donated_invars=tuple(_partition(unknowns, params["donated_invars"])[0]))
    staged_params = dict(params, jaxpr=ClosedJaxpr(pruned_over_own_vars(staged), closed.consts),
                         in_shardings=(*(None,) * num_res, *_partition(instantiated, params["in_shardings"])[1]),
                         out_shardings=tuple(_partition(out_instantiated, params["out_shardings"])[1]),
                         in_layouts=(*(None,) * num_res, *_partition(instantiated, params["in_layouts"])[1]),
                         out_layouts=tuple(_partition(out_instantiated, params["out_layouts"])[1]),
                         donated_invars=(*(False,) * num_res, *_partition(instantiated, params["donated_invars"])[1]))
    known_eqn = eqn.replace(invars=ins_known, outvars=outs_known + [r for r, k in zip(residuals, returned) if k],
                            params=known_params)
    staged_eqn = eqn.replace(invars=residuals + _partition(instantiated, eqn.invars)[1],
                             outvars=_partition(out_instantiated, eqn.outvars)[1], params=staged_params)
    lacking_vars = [a for a, i in zip(eqn.invars, instantiated) if type(a) is Var and not i]
    return known_eqn, staged_eqn, out_unknowns, out_instantiated, lacking_vars + residuals, unknown_ins


def _split_cond(policy, unknowns: list[bool], instantiated: list[bool], eqn: JaxprEqn):
    """A ``cond`` inside a checkpointed function, each branch split with the enclosing policy: a known ``cond``
    (known outputs, then residual slots shared by the branches) and a staged one (the index, the residual slots,
    then every operand), as JAX splits it."""
    lacking = [a for a, i in zip(eqn.invars, instantiated) if type(a) is Var and not i]
    n_out = len(eqn.outvars)
    if unknowns[0]:  # an unknown index: the whole cond is staged, what it writes unknown
        written = [u or is_ref_aval(a.aval) for a, u in zip(eqn.invars, unknowns)]
        return None, eqn, [True] * n_out, [True] * n_out, lacking, written
    branches, ops_unknown = eqn.params["branches"], unknowns[1:]
    out_unknowns = [False] * n_out
    for branch in branches:
        branch_unknowns = split_with_policy(branch.jaxpr, ops_unknown, policy, ensure_instantiated=True)[2]
        out_unknowns = [a or b for a, b in zip(out_unknowns, branch_unknowns)]
    splits = [split_with_policy(b.jaxpr, ops_unknown, policy, ensure_unknown=out_unknowns, ensure_instantiated=True)
              for b in branches]
    slot_avals, slot_indices = residual_slots([[v.aval for v in staged.invars[:n_res]]
                                               for _, staged, _, _, n_res, _ in splits])
    unknown_ins = [any(ins) for ins in zip(unknowns, *[[False] + split[5] for split in splits])]
    n_known = out_unknowns.count(False)

    def joined_known(known: Jaxpr, consts: list[Any], indices: list[int]) -> ClosedJaxpr:
        def fun(*args):
            outs = core.eval_jaxpr(known, consts, *args)
            slots = [empty(a) for a in slot_avals]
            for i, r in zip(indices, outs[n_known:]):
                slots[i] = r
            return [*outs[:n_known], *slots]

        return trace_to_jaxpr(fun, [v.aval for v in known.invars], known.debug_info)

    slot_vars = [Var(a) for a in slot_avals]

    def joined_staged(staged: Jaxpr, n_res: int, indices: list[int]) -> Jaxpr:
        reads = list(slot_vars)
        for i, v in zip(indices, staged.invars[:n_res]):
            reads[i] = v
        return staged.replace(invars=reads + staged.invars[n_res:])

    known_branches = tuple(joined_known(known, b.consts, idx)
                           for (known, *_), b, idx in zip(splits, branches, slot_indices))
    staged_branches = tuple(ClosedJaxpr(joined_staged(staged, n_res, idx), b.consts)
                            for (_, staged, _, _, n_res, _), b, idx in zip(splits, branches, slot_indices))
    residuals = [Var(a) for a in slot_avals]
    known_eqn = eqn.replace(invars=_partition(unknowns, eqn.invars)[0],
                            outvars=_partition(out_unknowns, eqn.outvars)[0] + residuals,
                            params=dict(eqn.params, branches=known_branches))
    staged_eqn = eqn.replace(invars=[eqn.invars[0], *residuals, *eqn.invars[1:]],
                             params=dict(eqn.params, branches=staged_branches))
    return known_eqn, staged_eqn, out_unknowns, [True] * n_out, lacking + residuals, unknown_ins


# rule(policy, unknown inputs, instantiated inputs, eqn) -> (known equation or None, staged equation or None,
# unknown outputs, instantiated outputs, residuals, unknown inputs at the end (references written unknown values)):
# how an equation carrying jaxprs inside a checkpointed function is split
policy_split_rules: dict[Any, Callable[..., tuple]] = {checkpoint_p: _split_checkpoint_call, jit_p: _split_jit_call,
                                                       cond_p: _split_cond}
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
    known, staged, out_unknowns, out_instantiated, num_res, _ = split_with_policy(
        params["jaxpr"], unknowns, params["policy"] or nothing_saveable)
    staged, staged_used = dce_jaxpr(staged, [u for u, i in zip(out_unknowns, out_instantiated) if i])
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
    # JAX names the staged checkpoint under the linearization's name stack, then the whole stack again
    with trace.naming_after(core.current_name_stack()[trace.name_stack_start:]):
        unknown_outs = iter(trace.stage(checkpoint_p, staged_args, staged_params))
    known_iter = iter(known_outs[:n_known])
    return [next(unknown_outs) if u else next(known_iter) for u in out_unknowns]


partial_eval_rules[checkpoint_p] = _checkpoint_partial_eval

# ---------------------------------------------------------------- transposition


def _linear_reference_inits(jaxpr: Jaxpr, written: set[Var]) -> tuple[Jaxpr, list[Any]]:
    """``jaxpr`` whose references in ``written`` (made by ``new_ref`` from constants, or by ``empty_ref``, written
    linear values) are made by ``new_ref`` from new trailing inputs instead, and the values of those (linear:
    undefined; an empty reference's contents are not read before it is written)."""
    inits: list[Var] = []
    eqns = []
    for eqn in jaxpr.eqns:
        if eqn.primitive is new_ref_p and eqn.outvars[0] in written:
            inits.append(Var(eqn.invars[0].aval))
            eqn = eqn.replace(invars=[inits[-1]])
        elif eqn.primitive is empty_ref_p and eqn.outvars[0] in written:
            inits.append(Var(eqn.params["ty"]))
            eqn = eqn.replace(primitive=new_ref_p, invars=[inits[-1]],
                              params={"kind": None, "memory_space": eqn.params["memory_space"]})
        eqns.append(eqn)
    return jaxpr.replace(invars=[*jaxpr.invars, *inits], eqns=eqns), [UndefinedPrimal(v.aval) for v in inits]


def _backward_pass_split(jaxpr: Jaxpr, values: list[Any], cts: list[Any]) -> list[Any]:
    """``backward_pass`` of ``jaxpr``, whose non-linear part is first split off by partial evaluation and run, as
    JAX transposes a checkpoint: a call mixing non-linear and linear operands splits into a known call and a linear
    one."""
    linear = [is_undefined(v) or type(v) is RefCotangent for v in values]
    written = known_references_written_linearly(jaxpr, {v for v, lin in zip(jaxpr.invars, linear) if lin})
    if written:  # a tangent reference made from constants (or empty): made from a linear input instead, split off
        made_linear, inits = _linear_reference_inits(jaxpr, written)
        return _backward_pass_split(made_linear, [*values, *inits], cts)[:len(values)]
    split = partial_eval_jaxpr(ClosedJaxpr(jaxpr, []), linear)
    known_values = [v for v, lin in zip(values, linear) if not lin]
    with core.extend_name_stack("rematted_computation"):  # JAX's name for the recomputed equations
        known_outs = core.eval_jaxpr(split.known.jaxpr, split.known.consts, *known_values)
    residuals = split.residuals(known_values, known_outs)
    unknown_cts = [ct for ct, u in zip(cts, split.out_unknowns) if u]
    linear_values = [v for v, lin in zip(values, linear) if lin]
    cts_in = iter(backward_pass(split.unknown.jaxpr, split.unknown.consts, [*residuals, *linear_values],
                                unknown_cts)[len(residuals):])
    return [next(cts_in) if lin else None for lin in linear]


def _checkpoint_transpose(cts, *args, jaxpr: Jaxpr, prevent_cse, differentiated: bool, policy):
    linear = [is_undefined(a) for a in args]
    nonzero_cts = [type(ct) is not Zero for ct in cts]
    used, _ = dce_jaxpr(jaxpr, nonzero_cts, instantiate=True)  # what only zero cotangents need is not recomputed
    ct_nonzero: list[bool] = []

    given = [a for a, lin in zip(args, linear) if not lin]

    def transposed(*inputs):
        known = iter(body_ref_cotangents(given, inputs))
        values = [UndefinedPrimal(a.aval) if lin else next(known) for a, lin in zip(args, linear)]
        cts_in = [ct for ct, lin in zip(_backward_pass_split(used, values, list(inputs[len(given):])), linear)
                  if lin]
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
