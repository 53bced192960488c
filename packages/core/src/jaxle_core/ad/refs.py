"""Forward-mode derivatives of mutable references. The tangent of a reference made in the differentiated
function is a cell holding the tangent of its contents, a value: reads and writes apply to it the lax operations
the discharge pass uses, so tangent computations are ordinary (linear, transposable) array programs and reverse
mode needs no rules of its own. Another primitive given references with tangents (a loop closing over them) is
differentiated through its discharge rule: the references' contents go in as values with their tangents and what
the rule writes back is stored in both. A reference made outside has no tangent cell: reading it gives a zero
tangent, and writing a value with a tangent into it raises JAX's error."""

from __future__ import annotations

from typing import Any

from jaxle_core import core
from jaxle_core.ad.jvp import (
    Zero,
    instantiate,
    jvp_always,
    jvp_rules,
    tangent_aval,
    tangent_handlers,
    zeros_like_aval,
)
from jaxle_core.avals import get_aval
from jaxle_core.discharge import discharge_rules, operand_aliases, read, write
from jaxle_core.lax.refs import addupdate_p, free_ref_p, freeze_p, get_p, is_ref_aval, new_ref_p, swap_p, value_aval


class RefTangent:
    """The tangent of a reference: the tangent of what it holds, replaced by each write."""

    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value

    def __repr__(self) -> str:
        return f"RefTangent({self.value!r})"


def _new_ref_jvp(primals, tangents, **params):
    (x,), (t,) = primals, tangents
    ref = new_ref_p.bind(x, **params)
    return ref, RefTangent(instantiate(t) if type(t) is Zero else t)


def _get_jvp(primals, tangents, *, indexer):
    ref, *operands = primals
    out = get_p.bind(ref, *operands, indexer=indexer)
    if type(tangents[0]) is RefTangent:
        return out, read(tangents[0].value, indexer, operands)
    return out, Zero(tangent_aval(get_aval(out)))


def _not_differentiated(what: str, ref: Any) -> Exception:
    return Exception(f"performing {what} operation with a differentiated value on a non-differentiated array "
                     f"reference of type {get_aval(ref)}. Move the array reference to be an argument of the "
                     "differentiated function?")


def _cell(ref: Any, tangent: Any, value_tangent: Any, what: str) -> RefTangent | None:
    if type(tangent) is RefTangent:
        return tangent
    if type(value_tangent) is not Zero:
        raise _not_differentiated(what, ref)
    return None


def _swap_jvp(primals, tangents, *, indexer):
    ref, value, *operands = primals
    cell = _cell(ref, tangents[0], tangents[1], "a set/swap")
    old = swap_p.bind(ref, value, *operands, indexer=indexer)
    if cell is None:
        return old, Zero(tangent_aval(get_aval(old)))
    old_tangent = read(cell.value, indexer, operands)
    cell.value = write(cell.value, indexer, operands, instantiate(tangents[1]))
    return old, old_tangent


def _addupdate_jvp(primals, tangents, *, indexer):
    ref, value, *operands = primals
    cell = _cell(ref, tangents[0], tangents[1], "an addupdate")
    addupdate_p.bind(ref, value, *operands, indexer=indexer)
    if cell is not None and type(tangents[1]) is not Zero:
        cell.value = write(cell.value, indexer, operands, tangents[1], accumulate=True)
    return [], []


def _freeze_jvp(primals, tangents):
    (ref,), (t,) = primals, tangents
    frozen = freeze_p.bind(ref)
    if type(t) is RefTangent:
        return frozen, t.value
    return frozen, zeros_like_aval(tangent_aval(value_aval(get_aval(ref))))


jvp_rules[new_ref_p] = _new_ref_jvp
jvp_rules[get_p] = _get_jvp
jvp_rules[swap_p] = _swap_jvp
jvp_rules[addupdate_p] = _addupdate_jvp
jvp_rules[freeze_p] = _freeze_jvp
jvp_rules[free_ref_p] = lambda primals, tangents: (free_ref_p.bind(*primals), [])
jvp_always.update({new_ref_p, get_p, swap_p, addupdate_p, freeze_p})


def _jvp_through_discharge(trace, primitive, primals, tangents, params):
    rule = discharge_rules.get(primitive)
    if rule is None:
        raise NotImplementedError(f"Differentiation rule for '{primitive.name}' with mutable array references not "
                                  "implemented")
    in_avals = [get_aval(p) for p in primals]
    is_ref = [is_ref_aval(a) for a in in_avals]
    with core.set_current_trace(trace.parent):
        contents = [freeze_p.bind(p) if r else p for p, r in zip(primals, is_ref)]
    args = [trace.tracer_type(trace, c, (t.value if type(t) is RefTangent else t) if r else t)
            for c, t, r in zip(contents, tangents, is_ref)]
    with core.set_current_trace(trace):
        new_values, outs = rule(in_avals, operand_aliases(primals), *args, **params)
    for ref, tangent, new, r in zip(primals, tangents, new_values, is_ref):
        if not r or new is None:
            continue
        value, value_tangent = trace.to_primal_tangent(new)
        if type(tangent) is RefTangent:
            tangent.value = instantiate(value_tangent)
        elif type(value_tangent) is not Zero:
            raise _not_differentiated("a set/swap", ref)
        with core.set_current_trace(trace.parent):
            swap_p.bind(ref, value, indexer=None)
    return outs if primitive.multiple_results else outs[0]


tangent_handlers[RefTangent] = _jvp_through_discharge
