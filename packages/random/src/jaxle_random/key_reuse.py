"""``jax_debug_key_reuse``: JAX 0.10.2's checker of typed PRNG keys used twice (``KeyReuseError``).

Every primitive has a *signature* (a ``KeyReuseSignature``, registered in ``key_reuse_signatures``, or a
``DynamicKeyReuseSignature`` computing it from the staged equation) saying what it does to the keys it is given:
which operands it consumes (``Sink``, with a mask for arrays of keys consumed in part), which results are fresh keys
(``Source``), and which results are an operand passed on (``Forward``, sharing its consumption). ``random_bits``,
``random_split`` and ``random_gamma`` consume their key; ``random_split``, ``random_fold_in``, ``random_wrap``,
``random_seed`` and ``random_clone`` make fresh keys; structural primitives forward them; a primitive without a
signature consumes every key operand.

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

from collections.abc import Callable, Iterator, Sequence
from typing import Any
from weakref import WeakKeyDictionary

import numpy as np

from jaxle_core import execution_checks, lax
from jaxle_core.avals import get_aval
from jaxle_core.checkpoint import checkpoint_p
from jaxle_core.core import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Primitive, Var, abstract_eval
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
from jaxle_random.key_reuse_signatures import (
    FIRST_USE,
    DynamicKeyReuseSignature,
    Forward,
    KeyReuseSignature,
    Sink,
    Source,
    dynamic_key_reuse_signature,
)

__all__ = ["call_impl_with_key_reuse_checks", "consumption_checks", "jaxpr_type_signature",
           "key_reuse_error_with_source_traceback", "key_reuse_signature_from_eqn",
           "key_reuse_signature_from_primitive", "key_reuse_signatures", "unknown_signature"]

Mask = Any  # bool, or a bool array over the keys of an array of keys
FORWARD = KeyReuseSignature(Forward(0, 0))
FRESH = KeyReuseSignature(Source(0))

# primitive -> its signature, or a rule computing it from the equation
key_reuse_signatures: dict[Primitive, KeyReuseSignature | DynamicKeyReuseSignature] = {
    prims.random_bits_p: KeyReuseSignature(Sink(0)),
    prims.random_split_p: KeyReuseSignature(Sink(0), Source(0)),
    random_gamma_p: KeyReuseSignature(Sink(0)),
    prims.random_fold_in_p: FRESH,
    prims.random_seed_p: FRESH,
    prims.random_wrap_p: FRESH,
    prims.random_clone_p: FRESH,
    prims.random_unwrap_p: KeyReuseSignature(),
    debug_callback_p: KeyReuseSignature(),
    lax.eq_p: KeyReuseSignature(),
    lax.ne_p: KeyReuseSignature(),
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
    slicing.dynamic_update_slice_p: KeyReuseSignature(Sink(1), Forward(0, 0)),
    slicing.scatter_p: KeyReuseSignature(Sink(2), Forward(0, 0)),
}

# primitive -> a check of its equation given how consumed its first operand is (``assert_consumed``)
consumption_checks: dict[Primitive, Callable[[JaxprEqn, Mask], None]] = {}


def is_key(atom: Any) -> bool:
    return is_key_dtype(getattr(atom.aval, "dtype", None))


def unknown_signature(eqn: JaxprEqn) -> KeyReuseSignature:
    """The signature of a primitive without one: it consumes every key it is given."""
    return KeyReuseSignature(*(Sink(i) for i, v in enumerate(eqn.invars) if is_key(v)))


def key_reuse_signature_from_eqn(eqn: JaxprEqn) -> KeyReuseSignature:
    """The signature of a staged equation: its primitive's, computed from the equation by a dynamic one."""
    signature = key_reuse_signatures.get(eqn.primitive)
    if signature is None:
        return unknown_signature(eqn)
    if isinstance(signature, KeyReuseSignature):
        return signature
    if isinstance(signature, DynamicKeyReuseSignature):
        return signature.signature(eqn)
    raise TypeError(f"Unrecognized key reuse signature of type {type(signature)}: {signature}")


def key_reuse_signature_from_primitive(primitive: Primitive, *args: Any, **params: Any) -> KeyReuseSignature:
    """The signature of ``primitive`` applied to ``args`` with ``params`` (a dynamic one computed from the
    equation this application would stage)."""
    if primitive is jit_p:
        return jaxpr_type_signature(params["jaxpr"].jaxpr)
    signature = key_reuse_signatures.get(primitive)
    if signature is None:
        raise RuntimeError(f"Internal: no key reuse rule for primitive {primitive}")
    if isinstance(signature, KeyReuseSignature):
        return signature
    if isinstance(signature, DynamicKeyReuseSignature):
        avals = [get_aval(x) for x in args]
        outs = abstract_eval(primitive, avals, params)
        outs = outs if primitive.multiple_results else [outs]
        return signature.signature(JaxprEqn([Var(a) for a in avals], [Var(a) for a in outs], primitive, params))
    raise TypeError(f"Unrecognized key reuse signature of type {type(signature)}: {signature}")


_cache: WeakKeyDictionary[Jaxpr, KeyReuseSignature] = WeakKeyDictionary()


def jaxpr_type_signature(jaxpr: Jaxpr | ClosedJaxpr) -> KeyReuseSignature:
    """The signature of ``jaxpr`` (its inputs: invars, then constvars), raising ``KeyReuseError`` where an
    equation consumes a key consumed before."""
    if isinstance(jaxpr, ClosedJaxpr):
        jaxpr = jaxpr.jaxpr
    signature = _cache.get(jaxpr)
    if signature is None:
        signature = _cache[jaxpr] = _walk(jaxpr)
    return signature


def _walk(jaxpr: Jaxpr) -> KeyReuseSignature:
    consumed: dict[Var, Mask] = {}
    forwarded: dict[Var, Any] = {}  # a result forwarding an operand -> the operand

    def origin(atom: Any) -> Any:
        while type(atom) is not Literal and atom in forwarded:
            atom = forwarded[atom]
        return atom

    def consumption(atom: Any) -> Mask:
        atom = origin(atom)
        return False if type(atom) is Literal else consumed.get(atom, False)

    for eqn in jaxpr.eqns:
        signature = key_reuse_signature_from_eqn(eqn)
        check = consumption_checks.get(eqn.primitive)
        if check is not None:
            check(eqn, consumption(eqn.invars[0]))
        for i, o in signature.forwards:
            forwarded[eqn.outvars[o]] = eqn.invars[i]
        for sink in signature.sinks:
            if not 0 <= sink.idx < len(eqn.invars):
                raise KeyReuseError(f"In {eqn.primitive}, sink {sink.idx} out of range [0, {len(eqn.invars)}]")
            if not is_key(eqn.invars[sink.idx]):
                continue
            var = origin(eqn.invars[sink.idx])
            before = consumed.get(var, False)
            if np.any(np.logical_and(before, sink.mask)):
                raise KeyReuseError(f"In {eqn.primitive}, argument {sink.idx} is already consumed.")
            consumed[var] = np.logical_or(before, sink.mask)
        for var in eqn.outvars:
            if var not in forwarded and is_key(var):
                consumed[var] = True  # consumed unless the primitive makes it fresh
        for source in signature.sources:
            if not 0 <= source.idx < len(eqn.outvars):
                raise KeyReuseError(f"In {eqn.primitive}, source {source.idx} out of range "
                                    f"[0, {len(eqn.outvars)}]")
            if is_key(eqn.outvars[source.idx]):
                consumed[origin(eqn.outvars[source.idx])] = False
    inputs = [*jaxpr.invars, *jaxpr.constvars]
    origins = [origin(v) for v in jaxpr.outvars]
    return KeyReuseSignature(
        *(Sink(i, np.asarray(consumed[v])) for i, v in enumerate(inputs)
          if is_key(v) and np.any(consumed.get(v, False))),
        *(Source(o) for o, (v, u) in enumerate(zip(jaxpr.outvars, origins))
          if is_key(v) and u not in inputs and not np.any(consumed.get(v, False))),
        *(Forward(inputs.index(u), o) for o, (v, u) in enumerate(zip(jaxpr.outvars, origins))
          if is_key(v) and u in inputs))


# ---------------------------------------------------------------- primitives carrying jaxprs, and slicing


def _rule(*primitives: Primitive):
    def register(rule: Callable[[JaxprEqn], KeyReuseSignature]) -> Callable[[JaxprEqn], KeyReuseSignature]:
        for primitive in primitives:
            key_reuse_signatures[primitive] = dynamic_key_reuse_signature(rule)
        return rule

    return register


@_rule(jit_p)
def _jit_signature(eqn: JaxprEqn) -> KeyReuseSignature:
    return jaxpr_type_signature(eqn.params["jaxpr"].jaxpr)


@_rule(shard_map_p)
def _shard_map_signature(eqn: JaxprEqn) -> KeyReuseSignature:
    return jaxpr_type_signature(eqn.params["jaxpr"].jaxpr)


@_rule(checkpoint_p)
def _checkpoint_signature(eqn: JaxprEqn) -> KeyReuseSignature:
    # differentiated, the body consumes only what the forward pass consumed and makes no keys
    return KeyReuseSignature() if eqn.params["differentiated"] else jaxpr_type_signature(eqn.params["jaxpr"])


@_rule(placement.device_put_p)
def _device_put_signature(eqn: JaxprEqn) -> KeyReuseSignature:
    return KeyReuseSignature(*(Forward(i, i) for i in range(len(eqn.invars))))


@_rule(slicing.slice_p)
def _slice_signature(eqn: JaxprEqn) -> KeyReuseSignature:
    """A slice of keys consumes the keys it takes and makes fresh ones of them."""
    aval = eqn.invars[0].aval
    if not is_key(eqn.invars[0]) or not all(isinstance(d, int) for d in aval.shape):
        return FORWARD
    p = eqn.params
    strides = p["strides"] or (1,) * aval.ndim
    taken = np.zeros(aval.shape, bool)
    taken[tuple(slice(*s) for s in zip(p["start_indices"], p["limit_indices"], strides))] = True
    return KeyReuseSignature(Sink(0, taken), Source(0))


@_rule(structural.concatenate_p, structural.stack_p)
def _concatenate_signature(eqn: JaxprEqn) -> KeyReuseSignature:
    """Joined keys consume their parts (one part is forwarded)."""
    if len(eqn.invars) == 1:
        return FORWARD
    return KeyReuseSignature(*(Sink(i) for i in range(len(eqn.invars))), Source(0))


@_rule(cond_p)
def _cond_signature(eqn: JaxprEqn) -> KeyReuseSignature:
    """What any branch consumes (the operands follow the branch index), what every branch making a result makes
    fresh, what all branches forward."""
    branches = [jaxpr_type_signature(b.jaxpr) for b in eqn.params["branches"]]
    sinks: dict[int, Mask] = {}
    sources: dict[int, Mask] = {}
    for signature in branches:
        for sink in signature.sinks:
            sinks[sink.idx] = np.logical_or(sinks.get(sink.idx, False), sink.mask)
        for source in signature.sources:
            sources[source.idx] = np.logical_and(sources.get(source.idx, True), source.mask)
    forwards = set.intersection(*(set(signature.forwards) for signature in branches))
    return KeyReuseSignature(*(Sink(i + 1, np.asarray(mask)) for i, mask in sinks.items()),
                             *(Source(o, np.asarray(mask)) for o, mask in sources.items()),
                             *(Forward(i + 1, o) for i, o in forwards))


def _consumed_among(sinks: Iterator[Sink], start: int, stop: int) -> set[int]:
    """The indices (from ``start``) of the inputs in [start, stop) that ``sinks`` consume."""
    return {sink.idx - start for sink in sinks if start <= sink.idx < stop and np.any(sink.mask)}


@_rule(scan_p)
def _scan_signature(eqn: JaxprEqn) -> KeyReuseSignature:
    """A body run repeatedly may consume no constant key, and only the carried keys it replaces by fresh ones."""
    body = eqn.params["jaxpr"].jaxpr
    n_consts, n_carry = eqn.params["num_consts"], eqn.params["num_carry"]
    signature = jaxpr_type_signature(body)
    fresh = {source.idx for source in signature.sources if source.idx < n_carry and np.any(source.mask)}
    if _consumed_among(signature.sinks, 0, n_consts):
        why = "key constants are repeatedly consumed"
    elif not _consumed_among(signature.sinks, n_consts, n_consts + n_carry) <= fresh:
        why = "consumed inputs don't match sourced outputs"
    else:
        return signature
    raise KeyReuseError(f"scan body function leads to key reuse when repeatedly executed, because {why}:\n"
                        f"  signature={signature}\n  eqn={eqn}\n  jaxpr={body}")


@_rule(while_p)
def _while_signature(eqn: JaxprEqn) -> KeyReuseSignature:
    """Neither function may consume a constant key, or a carried key the body does not replace by a fresh one;
    the two may not consume the same carried key."""
    p = eqn.params
    cond, body = jaxpr_type_signature(p["cond_jaxpr"].jaxpr), jaxpr_type_signature(p["body_jaxpr"].jaxpr)
    n_cond, n_body = p["cond_nconsts"], p["body_nconsts"]
    cond_carry = {sink.idx - n_cond for sink in cond.sinks if sink.idx >= n_cond}
    body_carry = {sink.idx - n_body for sink in body.sinks if sink.idx >= n_body}
    fresh = {source.idx for source in body.sources}

    def repeated(which: str, signature: KeyReuseSignature) -> KeyReuseError:
        return KeyReuseError(f"while_loop {which} function leads to key reuse when repeatedly executed:   "
                             f"{which}_signature={signature}\n  eqn={eqn}")

    if _consumed_among(cond.sinks, 0, n_cond):
        raise repeated("cond", cond)
    if _consumed_among(body.sinks, 0, n_body):
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


def _check_and_run(signature: KeyReuseSignature, function: str, run: Callable[[], list], inputs: Sequence[Any],
                   fresh_results: bool = True) -> list:
    """Refuse a consumed key among ``inputs`` that ``signature`` consumes, ``run()`` (the results, a list), then
    record what the call consumed and made fresh. With ``fresh_results``, an operand returned as it is becomes a
    new array first, as JAX's results are (JAX's ``consume`` and ``assert_consumed`` return the operand itself)."""
    signature.check_signature(*inputs, funcname=function)
    outs = run()
    if fresh_results:
        given = {id(x) for x in inputs}
        outs = [type(out)(out.aval, out.physical) if isinstance(out, PRNGKeyArray) and id(out) in given else out
                for out in outs]
    signature.update_consumption(list(inputs), outs, user_traceback())
    return outs


def call_impl_with_key_reuse_checks(primitive: Primitive, raw_impl: Callable[..., Any], *args: Any,
                                    **params: Any) -> Any:
    """``raw_impl(*args, **params)``, an eager application of ``primitive`` checked as JAX's checker checks one:
    ``KeyReuseError`` where it consumes a key array already consumed, then the keys it consumes (among ``args``, and
    the consts of a ``jit``'s jaxpr) marked consumed and its key results marked as its signature says. A primitive
    without a signature runs unchecked."""
    if primitive not in key_reuse_signatures:
        return raw_impl(*args, **params)
    signature = key_reuse_signature_from_primitive(primitive, *args, **params)
    consts = list(params["jaxpr"].consts) if primitive is jit_p else []
    funcname = "jit-compiled function" if primitive is jit_p else str(primitive)
    signature.check_signature(*args, *consts, funcname=funcname)
    result = raw_impl(*args, **params)
    signature.update_consumption([*args, *consts], result if primitive.multiple_results else [result])
    return result


def key_reuse_error_with_source_traceback(message: str, traceback: Any) -> KeyReuseError:
    """A ``KeyReuseError`` of ``message``; given ``traceback`` (where the key was first used: a Python traceback, or
    an object whose ``as_python_traceback()`` gives one), caused by an error carrying it, as the checker's are."""
    error = KeyReuseError(message)
    if traceback is not None and hasattr(traceback, "as_python_traceback"):
        traceback = traceback.as_python_traceback()
    if traceback is not None:
        error.__cause__ = KeyReuseError(FIRST_USE).with_traceback(traceback)
    return error


# Eager primitives of jaxle's that JAX computes with a jitted function instead, named as JAX's error names them.
_EAGER_NAMES = {structural.stack_p: "jit-compiled function"}
# Primitives whose eager result is their operand itself, as in JAX.
operand_results: set[Primitive] = set()


class _Checker:
    """The checker core's eager and jit paths call while ``jax_debug_key_reuse`` is on."""

    def apply(self, run: Callable[[], Any], primitive: Primitive, args: Sequence[Any], params: dict) -> Any:
        if primitive not in key_reuse_signatures:  # as JAX: eagerly, a primitive without a signature is not checked
            return run()
        if primitive is jit_p:
            return self.call_jit(run, params["jaxpr"], args)
        signature = key_reuse_signature_from_primitive(primitive, *args, **params)
        name = _EAGER_NAMES.get(primitive, primitive.name)
        fresh = primitive not in operand_results
        if primitive.multiple_results:
            return _check_and_run(signature, name, lambda: list(run()), args, fresh)
        return _check_and_run(signature, name, lambda: [run()], args, fresh)[0]

    def call_jit(self, run: Callable[[], list], closed: Any, args: Sequence[Any]) -> list:
        return _check_and_run(jaxpr_type_signature(closed.jaxpr), "jit-compiled function", lambda: list(run()),
                              [*args, *closed.consts])

    def check_jaxpr(self, jaxpr: Jaxpr) -> None:
        jaxpr_type_signature(jaxpr)


execution_checks.key_reuse = _Checker()
