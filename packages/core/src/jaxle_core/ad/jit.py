"""AD of ``jit``: every transformation of a jitted call stays behind a ``jit`` equation, as in JAX.

The JVP differentiates the inner jaxpr; linearization splits the JVP's jaxpr
into a known ``jit`` (primal outputs and residuals, run now) and an unknown one
(the tangent part, staged); transposition turns a linear ``jit`` into a ``jit``
of the transposed jaxpr.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from jaxle_core import core
from jaxle_core.ad.jvp import Zero, jvp_flat, jvp_rules, rule_zeros, rule_zeros_state, tangent_aval
from jaxle_core.ad.partial_eval import PartialStagingTrace, SplitJaxpr, partial_eval_jaxpr, partial_eval_rules
from jaxle_core.ad.transpose import (
    RefCotangent,
    UndefinedPrimal,
    backward_pass,
    body_ref_cotangents,
    is_undefined,
    passed_ref_cotangents,
    transpose_rules,
)
from jaxle_core.avals import get_aval
from jaxle_core.caches import LruCache
from jaxle_core.config import trace_context
from jaxle_core.core import ClosedJaxpr, Jaxpr, Literal, Tracer
from jaxle_core.jaxpr_util import dce_jaxpr
from jaxle_core.jit import bind_jit, jit_p, jit_params
from jaxle_core.staging import make_literal, trace_to_jaxpr

# As JAX's, the JVP, partial evaluation and transposition of a jit's jaxpr are cached on the jaxpr (by identity)
# and the pattern of nonzero tangents, unknown inputs or linear inputs: two calls of one jitted function under a
# transformation stage one shared jaxpr (printed once, ``let _where = ...``), not a copy per call.
_jvp_jaxprs = LruCache()
_partial_evals = LruCache()
_transposes = LruCache()
# The JVP jaxprs of calls differentiated inside a ``custom_jvp`` rule being linearized, however they are split later
# (a rule inside a linearized jit is split with that jit's JVP): JAX splits them by partial evaluation
# (see ``residuals_sorted_last``).
_jvp_jaxprs_in_rules: weakref.WeakSet[Jaxpr] = weakref.WeakSet()


def cached_on_jaxpr(cache: LruCache, closed: ClosedJaxpr, pattern: list, build: Callable[[], Any]) -> Any:
    """``build()``, kept in ``cache`` for ``closed`` (by identity), ``pattern`` and the trace context."""
    if any(isinstance(c, Tracer) for c in closed.consts):  # closes over values of a live trace: not reusable
        return build()
    key = (closed, tuple(pattern), trace_context())
    result = cache.lookup(key)
    if result is None:
        result = cache[key] = build()
    return result


# ---------------------------------------------------------------- forward mode


def jvp_jaxpr(closed: ClosedJaxpr, nonzero: list[bool]) -> tuple[ClosedJaxpr, list[bool]]:
    """A jaxpr taking primals then the nonzero tangents, returning primals then the nonzero output tangents.

    Also returns which output tangents are nonzero.
    """
    n = len(closed.jaxpr.invars)
    out_nonzero: list[bool] = []

    def fun(*args):
        primals, given = list(args[:n]), iter(args[n:])
        tangents = [next(given) if nz else Zero(tangent_aval(aval)) for nz, aval in zip(nonzero, closed.in_avals)]
        primals_out, tangents_out, _ = jvp_flat(
            lambda *xs: (core.eval_jaxpr(closed.jaxpr, closed.consts, *xs), None), primals, tangents,
            transform_stack=False)
        out_nonzero.extend(type(t) is not Zero for t in tangents_out)
        return primals_out + [t for t in tangents_out if type(t) is not Zero]

    in_avals = closed.in_avals + [tangent_aval(a) for a, nz in zip(closed.in_avals, nonzero) if nz]
    return trace_to_jaxpr(fun, in_avals, closed.jaxpr.debug_info), out_nonzero


def linear_jvp_jaxpr(closed: ClosedJaxpr, nonzero: list[bool]) -> tuple[ClosedJaxpr, list[bool]]:
    """``jvp_jaxpr`` for linearization: an output tangent that does not depend on the input tangents is zero (the
    derivative is linear), so it is dropped and reported as zero, as JAX's linearization of a jit does."""
    with rule_zeros_state(traces_linearized_jit=True, inline=rule_zeros.inline):
        new_jaxpr, out_nonzero = jvp_jaxpr(closed, nonzero)
    n_in, n_out = len(closed.in_avals), len(closed.out_avals)
    reads_tangents = partial_eval_jaxpr(new_jaxpr, [False] * n_in + [True] * nonzero.count(True)).out_unknowns
    kept = [True] * n_out + reads_tangents[n_out:]
    if all(kept):
        return new_jaxpr, out_nonzero
    outvars = [v for v, k in zip(new_jaxpr.jaxpr.outvars, kept) if k]
    pruned = dce_jaxpr(new_jaxpr.jaxpr.replace(outvars=outvars), instantiate=True)[0]
    reads = iter(reads_tangents[n_out:])
    return ClosedJaxpr(pruned, new_jaxpr.consts), [nz and next(reads) for nz in out_nonzero]


def jvp_call(primals: Sequence[Any], tangents: Sequence[Any], jaxpr: ClosedJaxpr,
             bind: Callable[[ClosedJaxpr, list[Any], list[bool]], list[Any]], cache: LruCache | None = None,
             context: Callable[[], AbstractContextManager] = nullcontext) -> tuple[list[Any], list[Any]]:
    """The JVP of an equation calling ``jaxpr``: ``bind(jvp jaxpr, primals then nonzero tangents, which output
    tangents are nonzero)`` stages the call of the differentiated jaxpr (traced within ``context()``, kept in
    ``cache`` when given); returns its primal and tangent results."""
    nonzero = [type(t) is not Zero for t in tangents]
    linearizing = isinstance(core.current_trace(), PartialStagingTrace)

    def build() -> tuple[ClosedJaxpr, list[bool]]:
        with context():
            return (linear_jvp_jaxpr if linearizing else jvp_jaxpr)(jaxpr, nonzero)

    pattern = [*nonzero, linearizing, rule_zeros.traces_linearized_jit, rule_zeros.inline]
    new_jaxpr, out_nonzero = build() if cache is None else cached_on_jaxpr(cache, jaxpr, pattern, build)
    if rule_zeros.inline:
        _jvp_jaxprs_in_rules.add(new_jaxpr.jaxpr)
    outs = bind(new_jaxpr, [*primals, *[t for t in tangents if type(t) is not Zero]], out_nonzero)
    n_out = len(jaxpr.out_avals)
    given = iter(outs[n_out:])
    return outs[:n_out], [next(given) if nz else Zero(tangent_aval(aval))
                          for nz, aval in zip(out_nonzero, jaxpr.out_avals)]


def _jit_jvp(primals, tangents, *, jaxpr: ClosedJaxpr, name: str, keep_unused: bool, inline: bool, in_shardings,
             out_shardings, **params):
    # each tangent laid out as its primal, in and out
    tangent_shardings = [s for s, t in zip(in_shardings, tangents) if type(t) is not Zero]

    def bind(new_jaxpr, args, out_nonzero):
        return bind_jit(new_jaxpr, args, name, keep_unused, inline, (*in_shardings, *tangent_shardings),
                        (*out_shardings, *[s for s, nz in zip(out_shardings, out_nonzero) if nz]))

    return jvp_call(primals, tangents, jaxpr, bind, _jvp_jaxprs)


jvp_rules[jit_p] = _jit_jvp

# ---------------------------------------------------------------- partial evaluation


def partial_eval_call(trace: PartialStagingTrace, args: Sequence[Any], jaxpr: ClosedJaxpr, primitive: core.Primitive,
                      bind_known: Callable[[ClosedJaxpr, list[Any], SplitJaxpr, dict[int, Any]], list[Any]],
                      unknown_params: Callable[[SplitJaxpr], dict], cache: LruCache = _partial_evals,
                      residuals_first: bool = False, linearized_whole: bool = False,
                      literal_outputs: bool = False, forwardable: Sequence[bool] | None = None) -> list[Any]:
    """The partial evaluation of an equation of ``primitive`` calling ``jaxpr`` on ``args``: its known part run
    now by ``bind_known(known jaxpr, known args, split, literal known outputs)``, its unknown part staged as another
    equation of ``primitive`` with ``unknown_params(split)``, on the residuals and the unknown arguments (the
    residuals after them where a jaxpr is split as JAX's scan splits it, unless ``residuals_first``). With
    ``linearized_whole``, the known part of a call in a linearized function keeps its dead equations (JAX traces a
    linearized ``closed_call``'s primal body whole). With ``literal_outputs``, known outputs that are literals stay
    outputs of the known call (a jit's do in JAX). Linearizing, a known output in ``forwardable`` (one flag per
    output) that is a known input is not an output of the known call: the input is used (JAX's forwarding)."""
    unknowns = [trace.is_unknown(x) for x in args]
    residuals_last = residuals_sorted_last(trace, jaxpr) and not residuals_first
    linearizes = not trace.splits_jaxpr
    prune = not (linearizes and linearized_whole)
    forwardable = tuple(forwardable) if linearizes and forwardable is not None else ()
    split, known, literals = cached_on_jaxpr(
        cache, jaxpr, [*unknowns, residuals_last, linearizes, prune, literal_outputs, forwardable],
        lambda: split_call_jaxpr(jaxpr, unknowns, residuals_last, linearizes, prune, literal_outputs, forwardable))
    known_args = [x for x, u in zip(args, unknowns) if not u]
    with core.set_current_trace(trace.parent):
        computed = iter(bind_known(known, known_args, split, literals))
    known_outs = [(known_args[literals[i].index] if isinstance(literals[i], _Forwarded) else literals[i])
                  if i in literals else next(computed) for i in range(len(known.jaxpr.outvars) + len(literals))]
    n_known = split.out_unknowns.count(False)
    residuals = split.residuals(known_args, known_outs)
    if trace.splits_jaxpr:  # a constant residual is a residual of the whole split too (JAX makes it a constvar)
        trace.residual_constants.update({id(r): make_literal(r) for r in residuals if not isinstance(r, Tracer)})
    unknown_args = [x for x, u in zip(args, unknowns) if u]
    unknown_outs = iter(trace.stage(primitive, [*unknown_args, *residuals] if residuals_last else
                                    [*residuals, *unknown_args], unknown_params(split)))
    known_iter = iter(known_outs[:n_known])
    return [next(unknown_outs) if u else next(known_iter) for u in split.out_unknowns]


def residuals_sorted_last(trace: PartialStagingTrace, jaxpr: ClosedJaxpr) -> bool:
    """Whether a call of ``jaxpr`` split in ``trace`` takes its residuals after its unknown inputs, in JAX's sorted
    order: where a jaxpr is split as JAX's scan splits it, and for a call differentiated inside a ``custom_jvp``
    rule being linearized (JAX linearizes the rule by its JVP then partial evaluation, whose split of a call puts
    the residuals last)."""
    return trace.sort_residuals or rule_zeros.inline or jaxpr.jaxpr in _jvp_jaxprs_in_rules


def _jit_partial_eval(trace: PartialStagingTrace, args, params):
    # Each part keeps the shardings of the arguments and results it has; the residuals' are unspecified (as JAX's).
    unknowns = [trace.is_unknown(x) for x in args]
    in_shardings, out_shardings = params["in_shardings"], params["out_shardings"]

    def bind_known(known, known_args, split, literals):
        outs = [s for i, s in enumerate(s for s, u in zip(out_shardings, split.out_unknowns) if not u)
                if i not in literals]
        return bind_jit(known, known_args, params["name"], params["keep_unused"], params["inline"],
                        [s for s, u in zip(in_shardings, unknowns) if not u],
                        outs + [None] * (len(known.jaxpr.outvars) - len(outs)))

    def unknown_params(split):
        unknown = jit_params(split.unknown, params["name"], keep_unused=params["keep_unused"],
                             inline=params["inline"])
        ins = [s for s, u in zip(in_shardings, unknowns) if u]
        residuals = [None] * (len(split.unknown.jaxpr.invars) - len(ins))
        outs = [s for s, u in zip(out_shardings, split.out_unknowns) if u]
        if any(s is not None for s in (*ins, *outs)):
            last = residuals_sorted_last(trace, params["jaxpr"])
            unknown.update(in_shardings=tuple(ins + residuals if last else residuals + ins),
                           out_shardings=tuple(outs))
        return unknown

    return partial_eval_call(trace, args, params["jaxpr"], jit_p, bind_known, unknown_params, literal_outputs=True,
                             forwardable=[s is None for s in out_shardings])


@dataclass(frozen=True)
class _Forwarded:
    """A known output of a split call that is its known input ``index`` (not returned by the known call)."""

    index: int


def split_call_jaxpr(closed: ClosedJaxpr, unknowns: list[bool], residuals_last: bool,
                     linearizes: bool = False, prune: bool = True, literal_outputs: bool = False,
                     forwardable: Sequence[bool] = ()) -> tuple[SplitJaxpr, ClosedJaxpr, dict[int, Any]]:
    """The split of a called jaxpr, its known part without dead equations (unless not ``prune``) and without the
    known outputs it does not return: those that are literals (unless ``literal_outputs``) and the ``forwardable``
    ones (flags of the call's outputs) that are known inputs; and for those, by output position, the literal's value
    or the ``_Forwarded`` input.
    With ``residuals_last`` (a split inside a jaxpr split as JAX's scan does) the residuals come in JAX's sorted
    order and after the unknown inputs. ``linearizes``: the split of a call in a linearized function (see
    ``partial_eval_jaxpr``)."""
    split = partial_eval_jaxpr(closed, unknowns, sort_residuals=residuals_last, linearizes=linearizes,
                               constant_residuals=True, forward_constants=linearizes)
    if residuals_last:
        unknown = split.unknown.jaxpr
        n_res = len(split.residual_sources)
        split.unknown = ClosedJaxpr(unknown.replace(invars=unknown.invars[n_res:] + unknown.invars[:n_res]),
                                    split.unknown.consts)
    known = dce_jaxpr(split.known.jaxpr, instantiate=True)[0] if prune else split.known.jaxpr
    n_outs = split.out_unknowns.count(False)  # the known outputs, before the residuals (literals among those stay)
    literals: dict[int, Any] = {} if literal_outputs else {i: v.val for i, v in enumerate(known.outvars[:n_outs])
                                                           if isinstance(v, Literal)}
    if forwardable:
        flags = [f for f, u in zip(forwardable, split.out_unknowns) if not u]
        inputs = {v: j for j, v in enumerate(known.invars)}
        literals.update({i: _Forwarded(inputs[v]) for i, (v, f) in enumerate(zip(known.outvars[:n_outs], flags))
                         if f and v in inputs})
    known = known.replace(outvars=[v for i, v in enumerate(known.outvars) if i not in literals])
    return split, ClosedJaxpr(known, split.known.consts), literals


partial_eval_rules[jit_p] = _jit_partial_eval

# ---------------------------------------------------------------- transposition


def transpose_call(jaxpr: ClosedJaxpr, args: Sequence[Any], cts: Sequence[Any], cache: LruCache = _transposes
                   ) -> tuple[ClosedJaxpr, list[Any], Callable[[Sequence[Any]], list[Any]]]:
    """The transposition of a call of ``jaxpr`` on ``args`` (the linear ones undefined) given the cotangents
    ``cts`` of its results: the transposed jaxpr (kept in ``cache``), the values to call it on (every known
    argument, then every nonzero cotangent, as JAX passes them even where the transposed body reads none) and a
    function turning its results into the cotangents of ``args`` (None for the known ones)."""
    linear = [is_undefined(a) for a in args]
    given = [a for a, lin in zip(args, linear) if not lin]
    passed = passed_ref_cotangents(given)
    nonzero_cts = [type(ct) is not Zero for ct in cts]
    ct_nonzero: list[bool] = []

    def transposed(*inputs):
        known, given_cts = iter(body_ref_cotangents(given, inputs)), iter(inputs[linear.count(False):])
        values = [UndefinedPrimal(a.aval) if lin else next(known) for a, lin in zip(args, linear)]
        full_cts = [next(given_cts) if nz else Zero(aval) for nz, aval in zip(nonzero_cts, jaxpr.out_avals)]
        cts_in = [ct for ct, lin in zip(backward_pass(jaxpr.jaxpr, jaxpr.consts, values, full_cts), linear) if lin]
        ct_nonzero.extend(type(ct) is not Zero for ct in cts_in)
        return [ct for ct in cts_in if type(ct) is not Zero]

    # typed as the jaxpr was traced (a residual computed eagerly may be typed otherwise); a reference by its own
    known_avals = [aval for aval, lin in zip(jaxpr.in_avals, linear) if not lin]
    in_avals = [get_aval(p) if type(g) is RefCotangent else aval for p, g, aval in zip(passed, given, known_avals)] + \
        [aval for aval, nz in zip(jaxpr.out_avals, nonzero_cts) if nz]
    ref_cts = [type(a) is RefCotangent for a in given]

    def build():
        return trace_to_jaxpr(transposed, in_avals, jaxpr.jaxpr.debug_info), ct_nonzero

    closed, ct_nonzero = cached_on_jaxpr(cache, jaxpr, [*linear, *nonzero_cts, *ref_cts, *in_avals], build)
    inputs = passed + [ct for ct in cts if type(ct) is not Zero]

    def placed(outs: Sequence[Any]) -> list[Any]:
        given, nonzero = iter(outs), iter(ct_nonzero)
        return [(next(given) if next(nonzero) else None) if lin else None for lin in linear]

    return closed, inputs, placed


def _jit_transpose(cts, *args, jaxpr: ClosedJaxpr, name: str, keep_unused: bool, inline: bool, in_shardings,
                   out_shardings, **params):
    closed, inputs, placed = transpose_call(jaxpr, args, cts)
    # the known arguments and the cotangents in keep their shardings, each cotangent out its argument's
    ins = [s for s, a in zip(in_shardings, args) if not is_undefined(a)] + \
        [s for s, ct in zip(out_shardings, cts) if type(ct) is not Zero]
    position = placed(range(len(closed.out_avals)))  # the output giving each argument's cotangent
    outs = [in_shardings[position.index(i)] for i in range(len(closed.out_avals))]
    return placed(bind_jit(closed, inputs, name, keep_unused, inline, ins, outs))


transpose_rules[jit_p] = _jit_transpose
