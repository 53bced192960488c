"""``jax_debug_key_reuse``: JAX 0.10.2's checker of typed PRNG keys used twice (``KeyReuseError``).

Every primitive has a *signature* saying what it does to the keys it is given: which operands it consumes
(*sinks*, with a mask for arrays of keys consumed in part), which results are fresh keys (*sources*), and which
results are an operand passed on (*forwards*, sharing its consumption). ``random_bits``, ``random_split`` and
``random_gamma`` consume their key; ``random_split``, ``random_fold_in``, ``random_wrap``, ``random_seed`` and
``random_clone`` make fresh keys; structural primitives forward them; a primitive without a signature consumes
every key operand.

- Traced (``jit``, ``make_jaxpr``): each jaxpr is walked in order, and an equation consuming a key that an
  earlier one consumed raises ``In <primitive>, argument <i> is already consumed.`` The walk gives the jaxpr's
  own signature, which is the signature of the ``jit`` equations calling it; ``cond`` consumes what any branch
  does, a ``scan`` or ``while`` body may consume only the carried keys it replaces by fresh ones.
- Eager: a concrete key array remembers whether (which of its keys) it was consumed. A primitive or jitted call
  given a consumed key raises ``Previously-consumed key passed to <function> at index <i>``, caused by an error
  whose traceback shows where the key was consumed first.

Raw keys (``uint32`` data) are not checked: they become fresh typed keys at each use. The checker is installed
into core's eager and jit paths (``execution_checks``), which reach it only once the flag has been turned on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

import numpy as np

from jaxle_core import execution_checks, lax
from jaxle_core.avals import get_aval
from jaxle_core.checkpoint import checkpoint_p
from jaxle_core.core import Jaxpr, JaxprEqn, Literal, Primitive, Var, abstract_eval
from jaxle_core.debugging import debug_callback_p
from jaxle_core.errors import KeyReuseError
from jaxle_core.jit import jit_p
from jaxle_core.lax import placement, slicing, structural
from jaxle_core.lax.control_flow.conditionals import cond_p
from jaxle_core.lax.control_flow.scan import scan_p
from jaxle_core.lax.control_flow.while_loops import while_p
from jaxle_core.lax.identity import copy_p
from jaxle_core.lax.layout_constraints import layout_constraint_p
from jaxle_core.shard_map import shard_map_p
from jaxle_core.source_info import user_traceback
from jaxle_random import key_primitives as prims
from jaxle_random.gamma import random_gamma_p
from jaxle_random.key_array import PRNGKeyArray, is_key_dtype

__all__ = ["Signature", "jaxpr_signature", "signatures"]

Mask = Any  # bool, or a bool array over the keys of an array of keys


def _mask(mask: Mask) -> Mask:
    """``mask`` as a bool when it is uniform (an empty one is False), else as a bool array."""
    if not np.any(mask):
        return False
    return True if np.all(mask) else mask


@dataclass(frozen=True)
class Signature:
    """What a primitive (or a jaxpr) does to its keys: ``sinks`` (operand index, consumed mask), ``sources``
    (indices of results that are fresh keys) and ``forwards`` (operand index, result index) pairs."""

    sinks: tuple[tuple[int, Mask], ...] = ()
    sources: tuple[int, ...] = ()
    forwards: tuple[tuple[int, int], ...] = ()

    def __repr__(self) -> str:
        parts = [f"Sink({i})" if m is True else f"Sink({i}, {m})" for i, m in self.sinks]
        parts += [f"Source({i})" for i in self.sources] + [f"Forward({i}, {o})" for i, o in self.forwards]
        return f"KeyReuseSignature({', '.join(parts)}{',' if len(parts) == 1 else ''})"


FORWARD = Signature(forwards=((0, 0),))
FRESH = Signature(sources=(0,))

# primitive -> its signature, or a rule computing it from the equation
signatures: dict[Primitive, Signature | Callable[[JaxprEqn], Signature]] = {
    prims.random_bits_p: Signature(sinks=((0, True),)),
    prims.random_split_p: Signature(sinks=((0, True),), sources=(0,)),
    random_gamma_p: Signature(sinks=((0, True),)),
    prims.random_fold_in_p: FRESH,
    prims.random_seed_p: FRESH,
    prims.random_wrap_p: FRESH,
    prims.random_clone_p: FRESH,
    prims.random_unwrap_p: Signature(),
    debug_callback_p: Signature(),
    lax.eq_p: Signature(),
    lax.ne_p: Signature(),
    placement.stage_p: FORWARD,
    structural.broadcast_in_dim_p: FORWARD,
    structural.convert_element_type_p: FORWARD,
    structural.reshape_p: FORWARD,
    structural.squeeze_p: FORWARD,
    copy_p: FORWARD,
    layout_constraint_p: FORWARD,
    placement.sharding_constraint_p: FORWARD,
    placement.reshard_p: FORWARD,
    slicing.dynamic_slice_p: FORWARD,
    slicing.gather_p: FORWARD,
    slicing.dynamic_update_slice_p: Signature(sinks=((1, True),), forwards=((0, 0),)),
    slicing.scatter_p: Signature(sinks=((2, True),), forwards=((0, 0),)),
}


def is_key(atom: Any) -> bool:
    return is_key_dtype(getattr(atom.aval, "dtype", None))


def _unknown_signature(eqn: JaxprEqn) -> Signature:
    return Signature(sinks=tuple((i, True) for i, v in enumerate(eqn.invars) if is_key(v)))


def eqn_signature(eqn: JaxprEqn) -> Signature:
    rule = signatures.get(eqn.primitive)
    if rule is None:
        return _unknown_signature(eqn)
    return rule if isinstance(rule, Signature) else rule(eqn)


_cache: WeakKeyDictionary[Jaxpr, Signature] = WeakKeyDictionary()


def jaxpr_signature(jaxpr: Jaxpr) -> Signature:
    """The signature of ``jaxpr`` (its inputs: invars, then constvars), raising ``KeyReuseError`` where an
    equation consumes a key consumed before."""
    signature = _cache.get(jaxpr)
    if signature is None:
        signature = _cache[jaxpr] = _walk(jaxpr)
    return signature


def _walk(jaxpr: Jaxpr) -> Signature:
    consumed: dict[Var, Mask] = {}
    forwarded: dict[Var, Any] = {}  # a result forwarding an operand -> the operand

    def origin(atom: Any) -> Any:
        while type(atom) is not Literal and atom in forwarded:
            atom = forwarded[atom]
        return atom

    for eqn in jaxpr.eqns:
        signature = eqn_signature(eqn)
        for i, o in signature.forwards:
            forwarded[eqn.outvars[o]] = eqn.invars[i]
        for i, mask in signature.sinks:
            if not is_key(eqn.invars[i]):
                continue
            var = origin(eqn.invars[i])
            before = consumed.get(var, False)
            if np.any(np.logical_and(before, mask)):
                raise KeyReuseError(f"In {eqn.primitive}, argument {i} is already consumed.")
            consumed[var] = _mask(np.logical_or(before, mask))
        for var in eqn.outvars:
            if var not in forwarded and is_key(var):
                consumed[var] = True  # consumed unless the primitive makes it fresh
        for o in signature.sources:
            if is_key(eqn.outvars[o]):
                consumed[origin(eqn.outvars[o])] = False
    inputs = [*jaxpr.invars, *jaxpr.constvars]
    origins = [origin(v) for v in jaxpr.outvars]
    return Signature(
        sinks=tuple((i, consumed[v]) for i, v in enumerate(inputs) if is_key(v) and np.any(consumed.get(v, False))),
        sources=tuple(o for o, (v, u) in enumerate(zip(jaxpr.outvars, origins))
                      if is_key(v) and u not in inputs and not np.any(consumed.get(v, False))),
        forwards=tuple((inputs.index(u), o) for o, (v, u) in enumerate(zip(jaxpr.outvars, origins))
                       if is_key(v) and u in inputs))


# ---------------------------------------------------------------- primitives carrying jaxprs, and slicing


def _rule(*primitives: Primitive):
    def register(rule: Callable[[JaxprEqn], Signature]) -> Callable[[JaxprEqn], Signature]:
        for primitive in primitives:
            signatures[primitive] = rule
        return rule

    return register


@_rule(jit_p)
def _jit_signature(eqn: JaxprEqn) -> Signature:
    return jaxpr_signature(eqn.params["jaxpr"].jaxpr)


@_rule(shard_map_p)
def _shard_map_signature(eqn: JaxprEqn) -> Signature:
    return jaxpr_signature(eqn.params["jaxpr"].jaxpr)


@_rule(checkpoint_p)
def _checkpoint_signature(eqn: JaxprEqn) -> Signature:
    # differentiated, the body consumes only what the forward pass consumed and makes no keys
    return Signature() if eqn.params["differentiated"] else jaxpr_signature(eqn.params["jaxpr"])


@_rule(placement.device_put_p)
def _device_put_signature(eqn: JaxprEqn) -> Signature:
    return Signature(forwards=tuple((i, i) for i in range(len(eqn.invars))))


@_rule(slicing.slice_p)
def _slice_signature(eqn: JaxprEqn) -> Signature:
    """A slice of keys consumes the keys it takes and makes fresh ones of them."""
    aval = eqn.invars[0].aval
    if not is_key(eqn.invars[0]) or not all(isinstance(d, int) for d in aval.shape):
        return FORWARD
    p = eqn.params
    strides = p["strides"] or (1,) * aval.ndim
    taken = np.zeros(aval.shape, bool)
    taken[tuple(slice(*s) for s in zip(p["start_indices"], p["limit_indices"], strides))] = True
    return Signature(sinks=((0, _mask(taken)),), sources=(0,))


@_rule(structural.concatenate_p, structural.stack_p)
def _concatenate_signature(eqn: JaxprEqn) -> Signature:
    """Joined keys consume their parts (one part is forwarded)."""
    if len(eqn.invars) == 1:
        return FORWARD
    return Signature(sinks=tuple((i, True) for i in range(len(eqn.invars))), sources=(0,))


@_rule(cond_p)
def _cond_signature(eqn: JaxprEqn) -> Signature:
    """What any branch consumes (the operands follow the branch index) or makes fresh; what all forward."""
    branches = [jaxpr_signature(b.jaxpr) for b in eqn.params["branches"]]
    sinks: dict[int, Mask] = {}
    for signature in branches:
        for i, mask in signature.sinks:
            sinks[i + 1] = _mask(np.logical_or(sinks.get(i + 1, False), mask))
    sources = sorted({o for signature in branches for o in signature.sources})
    forwards = set.intersection(*(set(signature.forwards) for signature in branches))
    return Signature(sinks=tuple(sinks.items()), sources=tuple(sources),
                     forwards=tuple(sorted((i + 1, o) for i, o in forwards)))


def _consumed_among(signature: Signature, start: int, stop: int) -> set[int]:
    """The indices (from ``start``) of the inputs in [start, stop) that ``signature`` consumes."""
    return {i - start for i, mask in signature.sinks if start <= i < stop and np.any(mask)}


@_rule(scan_p)
def _scan_signature(eqn: JaxprEqn) -> Signature:
    """A body run repeatedly may consume no constant key, and only the carried keys it replaces by fresh ones."""
    body = eqn.params["jaxpr"].jaxpr
    n_consts, n_carry = eqn.params["num_consts"], eqn.params["num_carry"]
    signature = jaxpr_signature(body)
    if _consumed_among(signature, 0, n_consts):
        why = "key constants are repeatedly consumed"
    elif not _consumed_among(signature, n_consts, n_consts + n_carry) <= {o for o in signature.sources if o < n_carry}:
        why = "consumed inputs don't match sourced outputs"
    else:
        return signature
    raise KeyReuseError(f"scan body function leads to key reuse when repeatedly executed, because {why}:\n"
                        f"  signature={signature}\n  eqn={eqn}\n  jaxpr={body}")


@_rule(while_p)
def _while_signature(eqn: JaxprEqn) -> Signature:
    """Neither function may consume a constant key, or a carried key the body does not replace by a fresh one;
    the two may not consume the same carried key."""
    p = eqn.params
    cond, body = jaxpr_signature(p["cond_jaxpr"].jaxpr), jaxpr_signature(p["body_jaxpr"].jaxpr)
    n_cond, n_body = p["cond_nconsts"], p["body_nconsts"]
    cond_carry = {i - n_cond for i, _ in cond.sinks if i >= n_cond}
    body_carry = {i - n_body for i, _ in body.sinks if i >= n_body}
    fresh = set(body.sources)

    def repeated(which: str, signature: Signature) -> KeyReuseError:
        return KeyReuseError(f"while_loop {which} function leads to key reuse when repeatedly executed:   "
                             f"{which}_signature={signature}\n  eqn={eqn}")

    if _consumed_among(cond, 0, n_cond):
        raise repeated("cond", cond)
    if _consumed_among(body, 0, n_body):
        raise repeated("body", body)
    if not cond_carry <= fresh:
        raise repeated("cond", cond)
    if not body_carry <= fresh:
        raise repeated("body", body)
    if cond_carry & body_carry:
        raise KeyReuseError(f"while_loop cond and body functions both use the same key:   cond_signature={cond}\n"
                            f"  body_signature={body}\n  eqn={eqn}")
    return body


# ---------------------------------------------------------------- eager: consumed keys


_FIRST_USE = "PRNG key first used at the above location was subsequently reused at the following location:"


def _consumed(x: Any) -> Mask:
    return getattr(x, "_consumed", False)


def _check_and_run(signature: Signature, function: str, run: Callable[[], list], inputs: Sequence[Any]) -> list:
    """Refuse a consumed key among ``inputs`` that ``signature`` consumes, ``run()`` (the results, a list), then
    record what the call consumed and made fresh."""
    for i, mask in signature.sinks:
        key = inputs[i]
        if isinstance(key, PRNGKeyArray) and np.any(np.logical_and(_consumed(key), mask)):
            error = KeyReuseError(f"Previously-consumed key passed to {function} at index {i}")
            first_use = getattr(key, "_consumed_at", None)
            if first_use is not None:
                raise error from KeyReuseError(_FIRST_USE).with_traceback(first_use)
            raise error
    outs = run()
    for i, mask in signature.sinks:
        key = inputs[i]
        if isinstance(key, PRNGKeyArray):
            key._consumed = _mask(np.logical_or(_consumed(key), mask))
            if np.any(mask):
                key._consumed_at = user_traceback()
    states = {o: False for o in signature.sources}  # results are consumed keys unless fresh or forwarded
    states.update((o, _consumed(inputs[i])) for i, o in signature.forwards)
    given = {id(x) for x in inputs}
    for o, out in enumerate(outs):
        if isinstance(out, PRNGKeyArray):
            if id(out) in given:  # an operand returned as it is: a new array, as JAX's results are
                outs[o] = out = type(out)(out.aval, out.physical)
            out._consumed = states.get(o, True)
    return outs


# Eager primitives of jaxle's that JAX computes with a jitted function instead, named as JAX's error names them.
_EAGER_NAMES = {structural.stack_p: "jit-compiled function"}


class _Checker:
    """The checker core's eager and jit paths call while ``jax_debug_key_reuse`` is on."""

    def apply(self, run: Callable[[], Any], primitive: Primitive, args: Sequence[Any], params: dict) -> Any:
        rule = signatures.get(primitive)
        if rule is None:  # as JAX: eagerly, a primitive without a signature is not checked
            return run()
        if primitive is jit_p:
            return self.call_jit(run, params["jaxpr"], args)
        if not isinstance(rule, Signature):  # a rule reading the equation: the one this call would stage
            avals = [get_aval(x) for x in args]
            outs = abstract_eval(primitive, avals, params)
            outs = outs if primitive.multiple_results else [outs]
            rule = rule(JaxprEqn([Var(a) for a in avals], [Var(a) for a in outs], primitive, params))
        name = _EAGER_NAMES.get(primitive, primitive.name)
        if primitive.multiple_results:
            return _check_and_run(rule, name, lambda: list(run()), args)
        return _check_and_run(rule, name, lambda: [run()], args)[0]

    def call_jit(self, run: Callable[[], list], closed: Any, args: Sequence[Any]) -> list:
        return _check_and_run(jaxpr_signature(closed.jaxpr), "jit-compiled function", lambda: list(run()),
                              [*args, *closed.consts])

    def check_jaxpr(self, jaxpr: Jaxpr) -> None:
        jaxpr_signature(jaxpr)


execution_checks.key_reuse = _Checker()
