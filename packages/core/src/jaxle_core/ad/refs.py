"""Derivatives of mutable references, as JAX takes them. The tangent of a reference made in the differentiated
function is a second reference, holding the tangent of its contents: each read or write of the reference is
mirrored on it, so the jaxprs of ``jvp`` hold reference operations on both (loops and conditionals closing over
references get their tangent references as operands too), and linearization stages those on the tangent reference
into the linear jaxpr, where transposition (``ref_transpose_rules``) turns them into reference operations on a
reference accumulating cotangents; a loop or conditional closing over a tangent reference is split and transposed
like any other, its transpose given that cotangent reference as a constant. A reference made outside has no tangent
reference: reading it gives a zero tangent, and writing a value with a tangent into it raises JAX's error."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

from jaxle_core import core
from jaxle_core.ad.jvp import (
    Zero,
    instantiate,
    jvp_always,
    jvp_rules,
    tangent_aval,
    zeros_like_aval,
)
from jaxle_core.ad.partial_eval import PartialStagingTrace
from jaxle_core.ad.transpose import RefCotangent, ref_transpose_rules
from jaxle_core.avals import get_aval
from jaxle_core.lax.refs import (
    addupdate_p,
    empty_ref_p,
    free_ref_p,
    freeze_p,
    get_p,
    new_ref_p,
    swap_p,
    value_aval,
)


def _staged_by_tangent_trace():
    """While a rule runs for linearization, what it makes for a tangent reference is staged into the linear jaxpr
    even when it reads no tangent (as JAX stages a zero tangent's reference)."""
    trace = core.current_trace()
    return trace.staging_known() if isinstance(trace, PartialStagingTrace) else nullcontext()


def _new_ref_jvp(primals, tangents, **params):
    (x,), (t,) = primals, tangents
    ref = new_ref_p.bind(x, **params)
    with _staged_by_tangent_trace():
        return ref, new_ref_p.bind(instantiate(t, as_residual=False), **params)


def _empty_ref_jvp(primals, tangents, *, ty, memory_space):
    ref = empty_ref_p.bind(ty=ty, memory_space=memory_space)
    with _staged_by_tangent_trace():
        return ref, empty_ref_p.bind(ty=tangent_aval(ty), memory_space=memory_space)


def _get_jvp(primals, tangents, *, indexer):
    ref, *operands = primals
    out = get_p.bind(ref, *operands, indexer=indexer)
    if type(tangents[0]) is not Zero:
        return out, get_p.bind(tangents[0], *operands, indexer=indexer)
    return out, Zero(tangent_aval(get_aval(out)))


def _not_differentiated(what: str, ref: Any) -> Exception:
    return Exception(f"performing {what} operation with a differentiated value on a non-differentiated array "
                     f"reference of type {get_aval(ref)}. Move the array reference to be an argument of the "
                     "differentiated function?")


def _tangent_ref(ref: Any, tangent: Any, value_tangent: Any, what: str) -> Any:
    """The tangent reference of ``ref``; None for a reference made outside when the value written has no tangent."""
    if type(tangent) is not Zero:
        return tangent
    if type(value_tangent) is not Zero:
        raise _not_differentiated(what, ref)
    return None


def _swap_jvp(primals, tangents, *, indexer):
    ref, value, *operands = primals
    tangent_ref = _tangent_ref(ref, tangents[0], tangents[1], "a set/swap")
    old = swap_p.bind(ref, value, *operands, indexer=indexer)
    if tangent_ref is None:
        return old, Zero(tangent_aval(get_aval(old)))
    return old, swap_p.bind(tangent_ref, instantiate(tangents[1]), *operands, indexer=indexer)


def _addupdate_jvp(primals, tangents, *, indexer):
    ref, value, *operands = primals
    tangent_ref = _tangent_ref(ref, tangents[0], tangents[1], "an addupdate")
    addupdate_p.bind(ref, value, *operands, indexer=indexer)
    if tangent_ref is not None:
        addupdate_p.bind(tangent_ref, instantiate(tangents[1]), *operands, indexer=indexer)
    return [], []


def _freeze_jvp(primals, tangents):
    (ref,), (t,) = primals, tangents
    frozen = freeze_p.bind(ref)
    if type(t) is not Zero:
        return frozen, freeze_p.bind(t)
    return frozen, zeros_like_aval(tangent_aval(value_aval(get_aval(ref))))


def _free_ref_jvp(primals, tangents):
    free_ref_p.bind(*primals)
    if type(tangents[0]) is not Zero:
        free_ref_p.bind(tangents[0])
    return [], []


jvp_rules[new_ref_p] = _new_ref_jvp
jvp_rules[empty_ref_p] = _empty_ref_jvp
jvp_rules[get_p] = _get_jvp
jvp_rules[swap_p] = _swap_jvp
jvp_rules[addupdate_p] = _addupdate_jvp
jvp_rules[freeze_p] = _freeze_jvp
jvp_rules[free_ref_p] = _free_ref_jvp
jvp_always.update({new_ref_p, empty_ref_p, get_p, swap_p, addupdate_p, freeze_p, free_ref_p})




# ---------------------------------------------------------------- transposition


def _get_transpose(ct, ref: RefCotangent, *operands, indexer):
    if indexer is not None and type(ct) is not Zero:
        addupdate_p.bind(ref.materialize(), ct, *operands, indexer=indexer)
    else:
        ref.accumulate(ct)
    return [None] * (1 + len(operands))


def _swap_transpose(ct, ref: RefCotangent, value, *operands, indexer):
    if ref.ref is None and type(ct) is Zero:
        return [None] * (2 + len(operands))
    had_cotangent = ref.ref is not None
    value_ct = swap_p.bind(ref.materialize(), instantiate(ct), *operands, indexer=indexer)
    return [None, value_ct if had_cotangent else None] + [None] * len(operands)


def _addupdate_transpose(ct, ref: RefCotangent, value, *operands, indexer):
    value_ct = get_p.bind(ref.ref, *operands, indexer=indexer) if ref.ref is not None else None
    return [None, value_ct] + [None] * len(operands)


def _new_ref_transpose(ref: RefCotangent, x, **params):
    return [ref.freeze()]


def _empty_ref_transpose(ref: RefCotangent, **params):
    ref.freeze()
    return []


def _freeze_transpose(ct, ref: RefCotangent):
    ref.accumulate(ct)
    return [None]


ref_transpose_rules[get_p] = _get_transpose
ref_transpose_rules[swap_p] = _swap_transpose
ref_transpose_rules[addupdate_p] = _addupdate_transpose
ref_transpose_rules[new_ref_p] = _new_ref_transpose
ref_transpose_rules[empty_ref_p] = _empty_ref_transpose
ref_transpose_rules[freeze_p] = _freeze_transpose
