"""Partial evaluation: splitting a computation into the part that can run now and the part that must wait.

A ``PartialStagingTrace`` is a staging trace that records only the equations
that depend on its own tracers (the *unknown* values). An equation whose
operands are all known is handed to the parent trace, which computes it now
(or stages it into the *known* program). Known values that unknown equations
read become the staged jaxpr's constvars: the *residuals* that flow from the
known part to the unknown part.

Linearization uses this with tangents unknown: primal work happens now, the
linear tangent work is staged into a jaxpr for later transposition. Splitting
a whole jaxpr (``partial_eval_jaxpr``) runs it with a ``StagingTrace`` as the
parent, so both halves become jaxprs; primitives that carry jaxprs (``jit``)
register a rule in ``partial_eval_rules`` to split their body the same way
instead of being staged whole.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from jaxle_core import core
from jaxle_core.avals import ShapedArray
from jaxle_core.core import ClosedJaxpr, DropVar, Jaxpr, Literal, Primitive, Tracer, Var
from jaxle_core.jaxpr_util import dce_jaxpr
from jaxle_core.staging import DebugInfo, DynamicJaxprTracer, StagingTrace

# rule(trace, args, params) -> outputs, for primitives whose known part must be split off rather than staged whole
partial_eval_rules: dict[Primitive, Callable[[PartialStagingTrace, Sequence[Any], dict], Any]] = {}
# primitives whose rule runs even when every operand is known: as JAX's scan, whose rule hoists the body's
# loop-invariant work out of the loop and re-stages the rest
split_when_known: set[Primitive] = set()


class PartialStagingTrace(StagingTrace):
    """Stages the equations that read its own tracers; computes the rest with the parent trace."""

    def __init__(self, parent: core.Trace, debug_info: DebugInfo | None = None):
        super().__init__(debug_info)
        self.parent = parent
        # id(value) -> literal: known constants passed to the staged jaxpr as residuals rather than written inline
        self.residual_constants: dict[int, Any] = {}
        # Splitting a jaxpr as JAX's scan does: residuals in JAX's sorted order, and a split jit takes its
        # unknown inputs before its residuals (see partial_eval_jaxpr).
        self.sort_residuals = False
        # whether this trace splits a whole jaxpr (``partial_eval_jaxpr``) rather than linearizes a function
        self.splits_jaxpr = False
        self._stages_known = False  # see staging_known

    def is_unknown(self, x: Any) -> bool:
        return isinstance(x, DynamicJaxprTracer) and x._trace is self

    @contextmanager
    def staging_known(self) -> Iterator[None]:
        """Within it, equations are staged even when all their operands are known (what a rule makes for a tangent
        from constants alone, such as a zero tangent's reference)."""
        before, self._stages_known = self._stages_known, True
        try:
            yield
        finally:
            self._stages_known = before

    def process_primitive(self, primitive, args, params):
        if self._stages_known:
            return super().process_primitive(primitive, args, params)
        if not any(self.is_unknown(x) for x in args) and primitive not in split_when_known \
                and not (self.tangent_constants and any(id(x) in self.tangent_constants for x in args)):
            with core.set_current_trace(self.parent):
                return primitive.forward(*args, **params)
        rule = partial_eval_rules.get(primitive)
        if rule is not None:
            return rule(self, args, params)
        return super().process_primitive(primitive, args, params)

    def to_atom(self, x: Any) -> core.Atom:
        if id(x) in self.residual_constants:
            entry = self.constvars.get(id(x))
            if entry is None:
                entry = self.constvars[id(x)] = (core.Var(self.residual_constants[id(x)].aval), x)
            return entry[0]
        return super().to_atom(x)

    def stage(self, primitive: Primitive, args: Sequence[Any], params: dict) -> Any:
        """Record ``primitive`` as an equation of this trace whatever its operands."""
        return super().process_primitive(primitive, args, params)

    def to_open_jaxpr(self, outs: Sequence[Any], sort_residuals: bool = False,
                      concrete_residuals: bool = False) -> tuple[ClosedJaxpr, list[Any]]:
        """The staged jaxpr, without dead equations, with its residuals turned into leading invars, and the
        residual values.

        Residuals that are tracers of other traces or residual constants must be passed in; other concrete ones
        stay constants, unless ``concrete_residuals`` (every constant is passed in). They come in the order they
        were first read, or with ``sort_residuals`` in the order of JAX's topological sort (``residual_order``),
        which JAX's own jaxpr splitting gives them.
        """
        closed = self.to_closed_jaxpr(outs)
        jaxpr = closed.jaxpr
        n_consts = len(jaxpr.constvars)
        pruned, used = dce_jaxpr(jaxpr.replace(constvars=[], invars=jaxpr.constvars + jaxpr.invars),
                                 instantiate=[False] * n_consts + [True] * len(jaxpr.invars),
                                 prune_equations=not self.splits_jaxpr)
        kept = [(v, c) for v, c, u in zip(jaxpr.constvars, closed.consts, used) if u]
        traced = [concrete_residuals or isinstance(c, Tracer) or id(c) in self.residual_constants for _, c in kept]
        if sort_residuals:
            rank = {v: i for i, v in enumerate(residual_order(pruned, [v for (v, _), t in zip(kept, traced) if t]))}
            kept = sorted(kept, key=lambda vc: rank.get(vc[0], len(rank)))
            traced = [concrete_residuals or isinstance(c, Tracer) or id(c) in self.residual_constants
                      for _, c in kept]
        opened = pruned.replace(constvars=[v for (v, _), t in zip(kept, traced) if not t],
                                invars=[v for (v, _), t in zip(kept, traced) if t] + jaxpr.invars)
        return (ClosedJaxpr(opened, [c for (_, c), t in zip(kept, traced) if not t]),
                [c for (_, c), t in zip(kept, traced) if t])


def residual_order(jaxpr: Jaxpr, residuals: Sequence[Var]) -> list[Var]:
    """``residuals`` (variables ``jaxpr`` reads but does not define) in the order JAX lists them.

    JAX builds the staged jaxpr from a graph of tracers: one per unknown input and equation output, and a fresh
    one for every read of a residual; it sorts that graph topologically from the unknown inputs and the outputs
    (counting each node's consumers by a depth-first walk, then emitting from a stack of nodes whose consumers are
    all emitted, and reversing) and names residuals as it meets them. That order is reproduced here.
    """
    residual_set = set(residuals)
    parents: list[list[int]] = []
    residual_of: dict[int, Var] = {}
    node_of: dict[Var, int] = {}

    def new_node(node_parents: list[int]) -> int:
        parents.append(node_parents)
        return len(parents) - 1

    def read(atom: Any) -> int | None:
        if type(atom) is Literal:
            return None
        if atom in residual_set:
            node = new_node([])
            residual_of[node] = atom
            return node
        return node_of.setdefault(atom, new_node([]))

    end_nodes = [node_of.setdefault(v, new_node([])) for v in jaxpr.invars if v not in residual_set]
    for eqn in jaxpr.eqns:
        eqn_parents = [n for n in map(read, eqn.invars) if n is not None]
        for v in eqn.outvars:
            node_of[v] = new_node(eqn_parents)
    end_nodes += [n for n in map(read, jaxpr.outvars) if n is not None]
    end_nodes = list(dict.fromkeys(end_nodes))
    consumers: dict[int, int] = {}
    stack = list(end_nodes)
    while stack:
        node = stack.pop()
        if node in consumers:
            consumers[node] += 1
        else:
            consumers[node] = 1
            stack.extend(parents[node])
    for node in end_nodes:
        consumers[node] -= 1
    ready = [node for node in end_nodes if consumers[node] == 0]
    emitted = []
    while ready:
        node = ready.pop()
        emitted.append(node)
        for parent in parents[node]:
            if consumers[parent] == 1:
                ready.append(parent)
            else:
                consumers[parent] -= 1
    ordered = dict.fromkeys(residual_of[n] for n in reversed(emitted) if n in residual_of)
    return list(ordered) + [v for v in residuals if v not in ordered]


@dataclass(eq=False)
class SplitJaxpr:
    """A jaxpr split in two by ``partial_eval_jaxpr``.

    ``known`` takes the known inputs and returns the known outputs then the residuals it computes;
    ``unknown`` takes all residuals then the unknown inputs and returns the unknown outputs.
    ``residual_sources[i]`` is ``("input", j)`` for a residual that is known input ``j`` (passed straight
    through rather than returned by ``known``), ``("output", k)`` for the ``k``-th output of ``known``
    (a known output that is also a residual is returned once) or ``("const", j)`` for the split jaxpr's
    ``j``-th constant (passed as it is, see ``partial_eval_jaxpr``).
    """

    known: ClosedJaxpr
    unknown: ClosedJaxpr
    out_unknowns: list[bool]
    residual_sources: list[tuple[str, int]]
    consts: Sequence[Any] = ()

    def residuals(self, known_inputs: Sequence[Any], known_outputs: Sequence[Any]) -> list[Any]:
        """The residual values, given the known inputs and the outputs of ``known``."""
        sources = {"input": known_inputs, "output": known_outputs, "const": self.consts}
        return [sources[source][j] for source, j in self.residual_sources]


def _drop_unread_outputs(jaxpr: Jaxpr) -> Jaxpr:
    """``jaxpr`` with the equation outputs nothing reads made ``DropVar``s (printed ``_``).

    JAX builds the unknown half of a split jaxpr from the tracers still alive once the jaxpr has run, so an output
    nothing reads (a loop's carry only its known half needs, say) is dropped there, which shows in the printout
    wherever that half is nested (a split ``scan`` or ``jit`` body).
    """
    read = {v for v in jaxpr.outvars if isinstance(v, Var)}
    read.update(v for eqn in jaxpr.eqns for v in eqn.invars if isinstance(v, Var))
    if all(v in read for eqn in jaxpr.eqns for v in eqn.outvars):
        return jaxpr
    eqns = [eqn.replace(outvars=[v if v in read else DropVar(v.aval) for v in eqn.outvars]) for eqn in jaxpr.eqns]
    return jaxpr.replace(eqns=eqns)


def partial_eval_jaxpr(closed: ClosedJaxpr, unknowns: Sequence[bool], sort_residuals: bool = False,
                       linearizes: bool = False, constant_residuals: bool = False,
                       forward_constants: bool = False) -> SplitJaxpr:
    """Split ``closed`` into the part computable from its known inputs and the part needing the unknown ones
    (``sort_residuals``: see ``PartialStagingTrace.to_open_jaxpr``). With ``linearizes`` the split is that of
    JAX's linearization of a call's jaxpr (a jit's, say, in a linearized function): the primitives inside split
    as linearization splits them, and the unknown half keeps every output its equations define. With
    ``constant_residuals`` the constants the unknown half reads are residuals too, as in JAX's split of a jit,
    returned by the known half, except ``closed``'s own constants with ``forward_constants`` (passed as they are,
    as JAX's linearization of a jit passes them)."""
    in_avals: list[ShapedArray] = closed.in_avals
    known_trace = StagingTrace(closed.jaxpr.debug_info)
    # both halves' equations are named from the start of their jaxprs, as JAX's
    with core.new_trace(known_trace), core.new_name_stack():
        known_args = [known_trace.new_arg(a) for a, u in zip(in_avals, unknowns) if not u]
        unknown_trace = PartialStagingTrace(known_trace, closed.jaxpr.debug_info)
        unknown_trace.sort_residuals = sort_residuals
        unknown_trace.splits_jaxpr = not linearizes
        unknown_trace.residual_constants = {id(atom.val): atom for eqn in closed.jaxpr.eqns
                                            for atom in eqn.invars if type(atom) is Literal and atom.residual}
        if linearizes:  # zeros made for the tangent side stay there (splitting otherwise, they are known values)
            unknown_trace.tangent_constants = {id(atom.val): atom.val for eqn in closed.jaxpr.eqns
                                               for atom in eqn.invars if type(atom) is Literal and atom.tangent}
        with core.set_current_trace(unknown_trace):
            unknown_args = [unknown_trace.new_arg(a) for a, u in zip(in_avals, unknowns) if u]
            known_iter, unknown_iter = iter(known_args), iter(unknown_args)
            args = [next(unknown_iter) if u else next(known_iter) for u in unknowns]
            outs = core.eval_jaxpr(closed.jaxpr, closed.consts, *args)
        unknown_trace.invalidate()
        out_unknowns = [unknown_trace.is_unknown(x) for x in outs]
        unknown, residual_values = unknown_trace.to_open_jaxpr([x for x, u in zip(outs, out_unknowns) if u],
                                                               sort_residuals, constant_residuals)
        if not linearizes:
            unknown = ClosedJaxpr(_drop_unread_outputs(unknown.jaxpr), unknown.consts)
        inputs = {id(x): j for j, x in enumerate(known_args)}
        known_outs = [x for x, u in zip(outs, out_unknowns) if not u]
        outputs = {id(x): k for k, x in reversed(list(enumerate(known_outs)))}
        consts = {id(c): j for j, c in enumerate(closed.consts)} if forward_constants else {}
        residual_sources: list[tuple[str, int]] = []
        for value in residual_values:
            if id(value) in inputs:
                residual_sources.append(("input", inputs[id(value)]))
            elif id(value) in consts:
                residual_sources.append(("const", consts[id(value)]))
            else:
                if id(value) not in outputs:
                    outputs[id(value)] = len(known_outs)
                    known_outs.append(value)
                residual_sources.append(("output", outputs[id(value)]))
        known = known_trace.to_closed_jaxpr(known_outs)
    return SplitJaxpr(known, unknown, out_unknowns, residual_sources, closed.consts)
