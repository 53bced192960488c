"""Transposition: running a linear jaxpr backwards, from output cotangents to input cotangents.

The inputs of a linear jaxpr are either known values (residuals, read by the
coefficients of the linear map) or ``UndefinedPrimal``s, the linear inputs.
Equations reading no linear value are evaluated forward first; the others are
visited in reverse, each primitive's rule in ``transpose_rules`` turning the
cotangent of its output into cotangents of its linear operands. Cotangents of
a variable read several times are summed with ``add_any``; symbolic ``Zero``
cotangents are never materialised.

A linear mutable reference (one made in the linear jaxpr, by ``new_ref`` or
``empty_ref``) has a ``RefCotangent``: a reference made when the first cotangent
reaches it, which the rules in ``ref_transpose_rules`` read, write and add to.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import nullcontext
from typing import Any

from jaxle_core import core
from jaxle_core.ad.jvp import Zero, add_tangents, tangent_aval, zeros_like_aval
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import Jaxpr, Literal, Primitive, Var, equation_context
from jaxle_core.jaxpr_util import sub_jaxprs
from jaxle_core.jit import backward_rule_scope
from jaxle_core.lax.refs import addupdate_p, empty_ref_p, freeze_p, is_ref_aval, new_ref, new_ref_p, swap_p


class UndefinedPrimal:
    """A linear operand of a transposed equation: only its abstract value is known."""

    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray):
        self.aval = aval

    def __repr__(self) -> str:
        return f"UndefinedPrimal({self.aval.str_short()})"


def is_undefined(x: Any) -> bool:
    return type(x) is UndefinedPrimal


# rule(cotangent, *operands, **params) -> one cotangent per operand (None or Zero for the non-linear ones);
# operands are UndefinedPrimal where linear. For primitives with several results the cotangent is a list.
transpose_rules: dict[Primitive, Callable[..., Sequence[Any]]] = {}


class RefCotangent:
    """The cotangent of a linear reference's contents (of abstract value ``aval``), held by a reference made when
    the first cotangent reaches it (``ref``, None until then)."""

    __slots__ = ("aval", "ref")

    def __init__(self, aval: ShapedArray, ref: Any = None):
        self.aval = aval
        self.ref = ref

    def accumulate(self, ct: Any) -> None:
        """Add ``ct`` to the whole of it."""
        if ct is None or type(ct) is Zero:
            return
        if self.ref is None:
            self.ref = new_ref(ct)
        else:
            addupdate_p.bind(self.ref, ct, indexer=None)

    def materialize(self) -> Any:
        """The reference, made from zeros if no cotangent reached it yet."""
        if self.ref is None:
            self.ref = new_ref(zeros_like_aval(self.aval))
        return self.ref

    def freeze(self) -> Any:
        """The cotangent accumulated (``Zero`` if none)."""
        return Zero(self.aval) if self.ref is None else freeze_p.bind(self.ref)


def passed_ref_cotangents(operands: Sequence[Any]) -> list[Any]:
    """``operands`` of a transposed loop or conditional, each ``RefCotangent`` replaced by its reference: a body
    reads it as a constant, in which its own transposition accumulates (see ``body_ref_cotangents``)."""
    return [x.materialize() if type(x) is RefCotangent else x for x in operands]


def body_ref_cotangents(operands: Sequence[Any], values: Sequence[Any]) -> list[Any]:
    """``values`` given to a transposed body, those standing for a ``RefCotangent`` of ``operands`` wrapped as one
    (holding the body's reference)."""
    return [RefCotangent(x.aval, v) if type(x) is RefCotangent else v for x, v in zip(operands, values)]


# rule(cotangent, *operands, **params) -> one cotangent per operand (None for references), for primitives operating
# on linear references: those operands and results are given as their ``RefCotangent``. They run whether or not a
# cotangent reached their results.
ref_transpose_rules: dict[Primitive, Callable[..., Sequence[Any]]] = {}


def _references_written_linearly(jaxpr: Jaxpr, linear: set[Var]) -> tuple[set[Var], set[Var]]:
    """The variables of ``jaxpr`` that are linear and the references written a linear value (directly, through
    what such a reference gives, or in a jaxpr an equation carries, such as a loop's body), those in ``linear``
    being linear."""
    linear, written = set(linear), set()
    while True:
        before = len(linear) + len(written)
        for eqn in jaxpr.eqns:
            reads_linear = any(type(a) is not Literal and a in linear for a in eqn.invars)
            if eqn.primitive in (swap_p, addupdate_p) and reads_linear:
                written.add(eqn.invars[0])
            elif reads_linear:
                for sub in sub_jaxprs(eqn.params):
                    # a carried jaxpr reads the equation's last operands (a while's body, a cond's branches)
                    operands = eqn.invars[len(eqn.invars) - len(sub.invars):] if sub.invars else []
                    inner = {v for v, a in zip(sub.invars, operands) if type(a) is not Literal and a in linear}
                    inner_written = _references_written_linearly(sub, inner)[1]
                    written.update(a for v, a in zip(sub.invars, operands) if v in inner_written)
            if reads_linear or any(v in written for v in eqn.outvars):
                linear.update(eqn.outvars)
        if len(linear) + len(written) == before:
            break
    return linear, written


def known_references_written_linearly(jaxpr: Jaxpr, linear: set[Var]) -> set[Var]:
    """The references ``jaxpr`` makes from no linear value (or from none, ``empty_ref``) that are written one
    (directly, through what such a reference gives, or in a jaxpr an equation carries), the variables in ``linear``
    being linear."""
    linear, written = _references_written_linearly(jaxpr, linear)
    return {v for eqn in jaxpr.eqns if eqn.primitive in (new_ref_p, empty_ref_p) for v in eqn.outvars
            if v in written and not any(type(a) is not Literal and a in linear for a in eqn.invars)}


def check_memory(aval: Any, ct: Any, stacked: bool = False) -> None:
    """JAX's refusal of a cotangent lying in another memory than the value it is the cotangent of (the copy back of
    a value a checkpoint offloaded, differentiated again). ``stacked``: those of a loop's stacked operand, named
    as one iteration's (where JAX refuses them, in the loop's body)."""
    got = get_aval(ct)
    expected, space = getattr(aval, "memory_space", None), getattr(got, "memory_space", None)
    if expected is not None and space is not None and expected != space:
        if stacked:
            aval, got = aval.update(shape=aval.shape[1:]), got.update(shape=got.shape[1:])
        raise ValueError(f"Expected cotangent type {aval.str_short()} but got {got.str_short()}")


def backward_pass(jaxpr: Jaxpr, consts: Sequence[Any], args: Sequence[Any],
                  cotangents: Sequence[Any], transform_stack: bool = False) -> list[Any]:
    """Cotangents of ``jaxpr``'s inputs (``Zero`` if none reached it; ``None`` for known inputs).
    With ``transform_stack`` the transposed equations are named under ``transpose`` (as JAX names those of its
    ``vjp`` and ``linear_transpose``; not those of a transposed jaxpr, such as a jitted body's).

    ``args`` gives each input's value, an ``UndefinedPrimal`` for the linear ones, or a ``RefCotangent`` for a
    linear reference (a transposed loop body's); ``cotangents`` those of the outputs (possibly ``Zero``). Every
    reference the jaxpr makes is linear (a tangent's).
    """
    primal_env: dict[Var, Any] = dict(zip(jaxpr.constvars, consts))
    linear: set[Var] = set()
    ref_cts: dict[Var, RefCotangent] = {}  # linear references' cotangents
    for v, a in zip(jaxpr.invars, args):
        if type(a) is RefCotangent:
            ref_cts[v] = a
        if is_undefined(a) or type(a) is RefCotangent:
            linear.add(v)
        else:
            primal_env[v] = a

    def read_primal(atom: Any) -> Any:
        if type(atom) is Literal:
            return atom.val
        if atom in ref_cts:
            return ref_cts[atom]
        return UndefinedPrimal(atom.aval) if atom in linear else primal_env[atom]

    linear_eqns = []
    for eqn in jaxpr.eqns:
        makes_linear = eqn.primitive in (new_ref_p, empty_ref_p)
        if makes_linear or any(type(a) is not Literal and a in linear for a in eqn.invars):
            linear.update(eqn.outvars)
            linear_eqns.append(eqn)
            ref_cts.update((v, RefCotangent(tangent_aval(v.aval.inner_aval))) for v in eqn.outvars
                           if is_ref_aval(v.aval))
        else:
            with equation_context(eqn):
                outs = eqn.primitive.bind(*map(read_primal, eqn.invars), **eqn.params)
            primal_env.update(zip(eqn.outvars, outs if eqn.primitive.multiple_results else (outs,)))

    ct_env: dict[Var, Any] = {}

    def write_cotangent(atom: Any, ct: Any) -> None:
        if ct is None or type(ct) is Zero or type(atom) is Literal or atom not in linear:
            return
        check_memory(atom.aval, ct)
        ct_env[atom] = add_tangents(ct_env[atom], ct) if atom in ct_env else ct

    for v, ct in zip(jaxpr.outvars, cotangents):
        write_cotangent(v, ct)
    # the jitted functions the transposed equations call are traced apart from the same calls forward, as JAX's
    with core.transform_name_stack("transpose") if transform_stack else nullcontext(), backward_rule_scope():
        _transpose_equations(linear_eqns, ref_cts, ct_env, read_primal, write_cotangent)
    return [ct_env.get(v, Zero(v.aval)) if v in linear else None for v in jaxpr.invars]


def _transpose_equations(linear_eqns: list[Any], ref_cts: dict[Var, Any], ct_env: dict[Var, Any],
                         read_primal: Callable[[Any], Any], write_cotangent: Callable[[Any, Any], None]) -> None:
    """Transpose ``linear_eqns`` (last first): each one's cotangents flow from ``ct_env`` to its inputs'."""
    for eqn in reversed(linear_eqns):
        if eqn.primitive in ref_transpose_rules and any(type(a) is not Literal and a in ref_cts
                                                        for a in (*eqn.invars, *eqn.outvars)):
            cts_out = [ref_cts[v] if v in ref_cts else ct_env.pop(v, Zero(v.aval)) for v in eqn.outvars]
            with equation_context(eqn):
                cts_in = ref_transpose_rules[eqn.primitive](
                    cts_out if eqn.primitive.multiple_results else cts_out[0],
                    *map(read_primal, eqn.invars),
                    **eqn.params)
                for atom, ct in zip(eqn.invars, cts_in):
                    write_cotangent(atom, ct)
            continue
        cts_out = [ct_env.pop(v, None) for v in eqn.outvars]
        # an equation given a linear reference (a loop or conditional closing over it) is transposed even when no
        # cotangent reaches its results: what it does to the reference has cotangents
        if all(ct is None for ct in cts_out) and not any(type(a) is not Literal and a in ref_cts
                                                         for a in eqn.invars):
            continue
        cts_out = [Zero(v.aval) if ct is None else ct for v, ct in zip(eqn.outvars, cts_out)]
        rule = transpose_rules.get(eqn.primitive)
        if rule is None:
            raise NotImplementedError(f"Transpose rule (for reverse-mode differentiation) for "
                                      f"'{eqn.primitive.name}' not implemented")
        with equation_context(eqn):  # the cotangents summed there too, as JAX's
            cts_in = rule(cts_out if eqn.primitive.multiple_results else cts_out[0],
                          *map(read_primal, eqn.invars), **eqn.params)
            for atom, ct in zip(eqn.invars, cts_in):
                write_cotangent(atom, ct)
