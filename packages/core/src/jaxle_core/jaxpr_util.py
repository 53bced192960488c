"""Whole-jaxpr passes: dead-code elimination and type checking."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

from jaxle_core import core
from jaxle_core.caches import LruCache
from jaxle_core.core import ClosedJaxpr, DropVar, Jaxpr, JaxprEqn, Literal, Primitive, Tracer, Var
from jaxle_core.pretty import PpContext, pp_eqn_doc, pp_toplevel_doc

# ---------------------------------------------------------------- dead-code elimination

# ``rule(eqn, used_outputs) -> (used_inputs, new_eqn or None)`` for primitives
# that can prune inside themselves (their sub-jaxprs); others are kept whole
# when any output is used. Each rule is registered beside its primitive.
DceRule = Callable[[JaxprEqn, list[bool]], tuple[list[bool], JaxprEqn | None]]
dce_rules: dict[Primitive, DceRule] = {}
# primitives whose rule also prunes an equation with effects (keeping the equation and what its effects need)
dce_rules_with_effects: set[Primitive] = set()


def eqn_has_effects(eqn: JaxprEqn) -> bool:
    """Whether ``eqn`` has side effects: its primitive's own, or those of an equation of a jaxpr it carries (a
    ``jit`` around a ``debug.print``)."""
    return bool(getattr(eqn.primitive, "effectful", False)) or any(
        jaxpr_has_effects(j) for j in sub_jaxprs(eqn.params))


def jaxpr_has_effects(jaxpr: Jaxpr) -> bool:
    """Whether any equation of ``jaxpr`` has side effects."""
    return any(eqn_has_effects(eqn) for eqn in jaxpr.eqns)


def calls_host(eqn: JaxprEqn) -> bool:
    """Whether ``eqn`` calls back into Python on the host: its primitive does (``calls_host``), or an equation of a
    jaxpr it carries."""
    return eqn.primitive.calls_host or any(jaxpr_calls_host(j) for j in sub_jaxprs(eqn.params))


def jaxpr_calls_host(jaxpr: Jaxpr) -> bool:
    """Whether an equation of ``jaxpr`` calls back into Python on the host."""
    return any(map(calls_host, jaxpr.eqns))


def host_functions(jaxpr: Jaxpr) -> list[Any]:
    """The functions the equations of ``jaxpr`` (and of the jaxprs they carry) call back on the host: their
    ``callback`` params, which a jaxpr's text shows without telling apart two of the same name."""
    found = []
    for eqn in jaxpr.eqns:
        if eqn.primitive.calls_host and "callback" in eqn.params:
            found.append(eqn.params["callback"])
        for sub in sub_jaxprs(eqn.params):
            found.extend(host_functions(sub))
    return found


# ``rule(params)``: the ordered effect of an equation of the primitive (its calls must happen in program order,
# each after the calls of the same effect before it), None when it has none; registered beside the effectful
# primitives that can be ordered.
ordered_effect_rules: dict[Primitive, Callable[[dict], Any]] = {}
# The ordered effects in the order a program's tokens of them come (each appended where it is defined:
# io_callback's, then the debug callbacks'); JAX keeps them in a set, which iterates them so in the programs
# recorded.
ordered_effect_order: list[Any] = []


def jaxpr_ordered_effects(*jaxprs: Jaxpr) -> list[Any]:
    """The ordered effects of the equations of ``jaxprs`` (and of the jaxprs they carry), each once, in the order
    of ``ordered_effect_order``: the order of the tokens a program threads through them, one per effect."""
    found: dict[Any, None] = {}

    def collect(jaxpr: Jaxpr) -> None:
        for eqn in jaxpr.eqns:
            rule = ordered_effect_rules.get(eqn.primitive)
            effect = None if rule is None else rule(eqn.params)
            if effect is not None:
                found.setdefault(effect)
            for sub in sub_jaxprs(eqn.params):
                collect(sub)

    for jaxpr in jaxprs:
        collect(jaxpr)
    return sorted(found, key=ordered_effect_order.index)


def jaxpr_has_ordered_effects(jaxpr: Jaxpr) -> bool:
    """Whether an equation of ``jaxpr``, or of a jaxpr one carries, has an ordered effect."""
    for eqn in jaxpr.eqns:
        rule = ordered_effect_rules.get(eqn.primitive)
        if (rule is not None and rule(eqn.params) is not None) or any(
                map(jaxpr_has_ordered_effects, sub_jaxprs(eqn.params))):
            return True
    return False


def dce_jaxpr(jaxpr: Jaxpr, used_outputs: Sequence[bool] | None = None,
              instantiate: bool | Sequence[bool] = False, prune_equations: bool = True) -> tuple[Jaxpr, list[bool]]:
    """Remove what ``used_outputs`` (default: all) do not need.

    Returns the pruned jaxpr, whose outvars are the used outputs and whose
    invars are the used inputs (plus those ``instantiate`` keeps), and which
    inputs were kept. Equations with effects (``primitive.effectful``) stay.
    Without ``prune_equations``, only whole equations are removed: those kept are not pruned by their rules (as
    JAX's jaxprs built from a graph of tracers keep what they reach as it is).
    """
    used_outputs = [True] * len(jaxpr.outvars) if used_outputs is None else list(used_outputs)
    if len(used_outputs) != len(jaxpr.outvars):
        raise ValueError(f"dce_jaxpr: {len(used_outputs)} used_outputs flags for {len(jaxpr.outvars)} outputs")
    keep_inputs = [instantiate] * len(jaxpr.invars) if isinstance(instantiate, bool) else list(instantiate)
    live = {v for v, used in zip(jaxpr.outvars, used_outputs) if used and isinstance(v, Var)}
    new_eqns = []
    for eqn in reversed(jaxpr.eqns):
        used_outs = [not isinstance(v, DropVar) and v in live for v in eqn.outvars]
        rule = dce_rules.get(eqn.primitive)
        if (prune_equations and rule is not None
                and (eqn.primitive in dce_rules_with_effects or not eqn_has_effects(eqn))):
            used_ins, new_eqn = rule(eqn, used_outs)
        elif any(used_outs) or eqn_has_effects(eqn):
            used_ins, new_eqn = [True] * len(eqn.invars), eqn
        else:
            used_ins, new_eqn = [False] * len(eqn.invars), None
        if new_eqn is not None:
            new_eqns.append(new_eqn)
            live.update(v for v, used in zip(eqn.invars, used_ins) if used and isinstance(v, Var))
    used_inputs = [keep or v in live for v, keep in zip(jaxpr.invars, keep_inputs)]
    pruned = jaxpr.replace(invars=[v for v, used in zip(jaxpr.invars, used_inputs) if used],
                           outvars=[v for v, used in zip(jaxpr.outvars, used_outputs) if used],
                           eqns=new_eqns[::-1])
    return pruned, used_inputs


def with_fresh_vars(jaxpr: Jaxpr) -> Jaxpr:
    """``jaxpr`` over new variables: a pruned copy is a jaxpr of its own, printed with names of its own (as JAX's),
    not one sharing its variables (and so their printed names) with the jaxpr it was pruned from."""
    fresh: dict[Var, Var] = {}

    def rename(atom):
        if not isinstance(atom, Var) or isinstance(atom, DropVar):
            return atom
        if atom not in fresh:
            fresh[atom] = Var(atom.aval)
        return fresh[atom]

    eqns = [eqn.replace(invars=[rename(a) for a in eqn.invars], outvars=[rename(v) for v in eqn.outvars])
            for eqn in jaxpr.eqns]
    return jaxpr.replace(constvars=[rename(v) for v in jaxpr.constvars], invars=[rename(v) for v in jaxpr.invars],
                         outvars=[rename(a) for a in jaxpr.outvars], eqns=eqns)


# Jaxprs pruned over their own variables, as JAX prunes every jaxpr: the known and staged parts of a call split
# inside a checkpointed function share variables, which JAX prints with one name in both.
_own_vars_kept: weakref.WeakSet[Jaxpr] = weakref.WeakSet()


def pruned_over_own_vars(jaxpr: Jaxpr) -> Jaxpr:
    """``jaxpr``, marked to be pruned (as a carried jaxpr, by ``pruned_closed_jaxpr``) over its own variables."""
    _own_vars_kept.add(jaxpr)
    return jaxpr


# As JAX's, pruning a carried jaxpr is cached per jaxpr and used outputs, so that the calls of one function pruned
# alike keep sharing one jaxpr.
_pruned_jaxprs = LruCache()


def pruned_closed_jaxpr(closed: ClosedJaxpr, used_outputs: Sequence[bool]) -> tuple[ClosedJaxpr, list[bool]]:
    """``closed`` (a jaxpr an equation carries) without what ``used_outputs`` do not need, over fresh variables
    (unless marked by ``pruned_over_own_vars``, as what it gives is), and which of its inputs it still reads."""
    reusable = not any(isinstance(c, Tracer) for c in closed.consts)  # no values of a live trace kept alive
    key = (closed, tuple(used_outputs))
    cached = _pruned_jaxprs.lookup(key) if reusable else None
    if cached is None:
        inner, used_inputs = dce_jaxpr(closed.jaxpr, used_outputs)
        own = closed.jaxpr in _own_vars_kept
        cached = (ClosedJaxpr(pruned_over_own_vars(inner) if own else with_fresh_vars(inner), closed.consts),
                  used_inputs)
        if reusable:
            _pruned_jaxprs[key] = cached
    return cached


def carried_jaxpr_dce_rule(in_params: Sequence[str] = (), out_params: Sequence[str] = (),
                           rewrap: Callable[[Any, ClosedJaxpr], Any] | None = None,
                           jaxpr_param: str = "jaxpr") -> DceRule:
    """The dead-code rule of a primitive whose equation carries a closed jaxpr (``params[jaxpr_param]``) and keeps
    one entry per input in each of ``in_params`` and one per output in each of ``out_params``: the jaxpr loses
    what no used result needs, the equation its unread results and the arguments the jaxpr no longer reads.
    ``rewrap(carried, pruned)`` gives the pruned jaxpr the carried one's own type where it has one."""

    def rule(eqn: JaxprEqn, used_outputs: list[bool]) -> tuple[list[bool], JaxprEqn | None]:
        if not any(used_outputs):
            return [False] * len(eqn.invars), None
        carried = eqn.params[jaxpr_param]
        pruned, used_inputs = pruned_closed_jaxpr(carried, used_outputs)
        pick_in = lambda xs: tuple(x for x, used in zip(xs, used_inputs) if used)
        pick_out = lambda xs: tuple(x for x, used in zip(xs, used_outputs) if used)
        params = dict(eqn.params, **{jaxpr_param: rewrap(carried, pruned) if rewrap else pruned})
        params.update({name: pick_in(params[name]) for name in in_params})
        params.update({name: pick_out(params[name]) for name in out_params})
        return used_inputs, eqn.replace(invars=list(pick_in(eqn.invars)), outvars=list(pick_out(eqn.outvars)),
                                        params=params)

    return rule


# ---------------------------------------------------------------- type checking


# Primitives that apply their ``jaxpr`` param (a ClosedJaxpr) to their operands, one for one: the checker
# checks the operands' types against its inputs. Each registers itself beside its definition.
call_primitives: set[Primitive] = set()


class JaxprTypeError(TypeError):
    """A jaxpr is ill-typed: a variable used before definition or bound twice, or types that disagree."""


def _same_type(a: Any, b: Any) -> bool:
    """Types agree up to weak typing, as jaxprs allow."""
    return a.shape == b.shape and a.dtype == b.dtype


def sub_jaxprs(params: dict) -> list[Jaxpr]:
    """The jaxprs an equation's params carry (a call's body, the branches of a cond, ...)."""
    found = []
    for value in params.values():  # on every equation of every whole-program walk: no tuple made per value
        if isinstance(value, tuple):
            found.extend(v.jaxpr if isinstance(v, ClosedJaxpr) else v for v in value
                         if isinstance(v, (ClosedJaxpr, Jaxpr)))
        elif isinstance(value, ClosedJaxpr):
            found.append(value.jaxpr)
        elif isinstance(value, Jaxpr):
            found.append(value)
    return found


def unlowerable_effects(jaxpr: Jaxpr) -> list[Any]:
    """The effects XLA cannot lower of ``jaxpr``'s equations (in the jaxprs it carries too), each once, in order."""
    found: list[Any] = []
    for eqn in jaxpr.eqns:
        if eqn.primitive.unlowerable_effect is not None:
            effects = [eqn.primitive.unlowerable_effect]
        else:
            effects = [effect for sub in sub_jaxprs(eqn.params) for effect in unlowerable_effects(sub)]
        for effect in effects:
            if all(effect is not seen for seen in found):
                found.append(effect)
    return found


def negative_size_shape(jaxpr: Jaxpr) -> tuple[int, ...] | None:
    """The first shape with a size below zero among ``jaxpr``'s inputs and equation results (in the jaxprs it
    carries too): what JAX stages (a sampler drawing ``shape=(-1,)``) and then fails to lower."""
    for var in [*jaxpr.invars, *(v for eqn in jaxpr.eqns for v in eqn.outvars)]:
        shape = getattr(var.aval, "shape", ())
        if any(type(d) is int and d < 0 for d in shape):
            return shape
    for eqn in jaxpr.eqns:
        for sub in sub_jaxprs(eqn.params):
            shape = negative_size_shape(sub)
            if shape is not None:
                return shape
    return None


def check_jaxpr(jaxpr: Jaxpr | ClosedJaxpr) -> None:
    """Raise ``JaxprTypeError`` unless every variable is bound once before use and every type agrees.

    Each equation's output types must be what its primitive's abstract
    evaluation gives for its input types; sub-jaxprs in params are checked too.
    """
    if isinstance(jaxpr, ClosedJaxpr):
        jaxpr = jaxpr.jaxpr
    context = PpContext()
    jaxpr_text = pp_toplevel_doc(jaxpr, context).format()  # so messages name variables as the printout does

    def fail(message: str, eqn: JaxprEqn | None = None) -> JaxprTypeError:
        where = f"\n\nin equation:\n\n{pp_eqn_doc(eqn, context).format()}" if eqn is not None else ""
        return JaxprTypeError(f"{message}{where}\n\nwhile checking jaxpr:\n\n{jaxpr_text}")

    bound: set[Var] = set()

    def bind(v: Var, eqn: JaxprEqn | None) -> None:
        if isinstance(v, DropVar):
            return
        if v in bound:
            raise fail(f"Variable '{context.name(v)}' already bound", eqn)
        bound.add(v)

    def read(atom: Any, eqn: JaxprEqn | None) -> Any:
        if isinstance(atom, Literal):
            return atom.aval
        if isinstance(atom, DropVar) or atom not in bound:
            raise fail(f"Variable '{context.name(atom)}' not defined", eqn)
        return atom.aval

    for v in jaxpr.constvars + jaxpr.invars:
        bind(v, None)
    for eqn in jaxpr.eqns:
        in_avals = [read(x, eqn) for x in eqn.invars]
        for sub in sub_jaxprs(eqn.params):
            try:
                check_jaxpr(sub)
            except JaxprTypeError as err:
                raise fail(f"In a jaxpr in the params of {eqn.primitive.name}: {err}", eqn) from None
        _check_call_operands(eqn, in_avals, fail)
        try:
            out = core.abstract_eval(eqn.primitive, in_avals, eqn.params)
        except (TypeError, ValueError) as err:
            raise fail(f"Primitive {eqn.primitive.name} rejects its operands: {err}", eqn) from None
        out_avals = list(out) if eqn.primitive.multiple_results else [out]
        if len(out_avals) != len(eqn.outvars):
            raise fail(f"Equation binds {len(eqn.outvars)} variables but {eqn.primitive.name} has "
                       f"{len(out_avals)} outputs", eqn)
        for v, aval in zip(eqn.outvars, out_avals):
            if not _same_type(aval, v.aval):
                raise fail(f"Value for variable '{context.name(v)}' inconsistently typed as "
                           f"{aval.str_short(short_dtypes=True)} for let-binder of type "
                           f"{v.aval.str_short(short_dtypes=True)}", eqn)
            bind(v, eqn)
    for v in jaxpr.outvars:
        read(v, None)


def _check_call_operands(eqn: JaxprEqn, in_avals: list, fail: Callable[..., JaxprTypeError]) -> None:
    """A call equation's operands must have the types its jaxpr's invars expect."""
    closed = eqn.params.get("jaxpr") if eqn.primitive in call_primitives else None
    if not isinstance(closed, ClosedJaxpr):
        return
    expected = closed.jaxpr.in_avals
    if len(expected) != len(in_avals):
        raise fail(f"Call primitive {eqn.primitive.name} has {len(in_avals)} operands for a jaxpr with "
                   f"{len(expected)} inputs", eqn)
    for i, (given, want) in enumerate(zip(in_avals, expected)):
        if not _same_type(given, want):
            raise fail(f"Call primitive {eqn.primitive.name} passes operand {i} of type "
                       f"{given.str_short(short_dtypes=True)} to jaxpr expecting type "
                       f"{want.str_short(short_dtypes=True)}", eqn)


__all__ = ["JaxprTypeError", "call_primitives", "carried_jaxpr_dce_rule", "check_jaxpr", "dce_jaxpr", "dce_rules",
           "dce_rules_with_effects", "eqn_has_effects", "negative_size_shape", "pruned_closed_jaxpr",
           "pruned_over_own_vars", "sub_jaxprs", "with_fresh_vars"]
