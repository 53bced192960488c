"""``consume`` and ``assert_consumed``: JAX 0.10.2's primitives that mark keys for the key-reuse checker.

``consume(key)`` returns the key consumed (signature ``Sink(0), Forward(0, 0)``); ``assert_consumed(key, value)``
and ``assert_unconsumed(key)`` stage an equation the static check verifies (``AssertionError`` where the key's
consumption is not ``value``), and forward the key. Both compute nothing: applied eagerly they return their operand
itself, as JAX's do. Both are effectful (staged equations survive dead-code elimination), and as in JAX their
effects refuse to be lowered: a jitted function using them is refused when compiled or lowered, on XLA and on the
reference backend alike.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from jaxle_core import core, execution_checks
from jaxle_core.batching.trace import batching_rules
from jaxle_core.core import JaxprEqn, Primitive, Tracer
from jaxle_core.extended import physical_rules
from jaxle_core.ffi import HashableArray
from jaxle_random.key_reuse import consumption_checks, key_reuse_signatures, operand_results
from jaxle_random.key_reuse_signatures import Forward, KeyReuseSignature, Sink

__all__ = ["assert_consumed", "assert_consumed_value_p", "assert_effect", "assert_unconsumed", "consume",
           "consume_effect", "consume_p"]


class KeyReuseEffect:
    """The effect of an equation that marks keys for the key-reuse checker (no XLA lowering takes it)."""


consume_effect = KeyReuseEffect()
assert_effect = KeyReuseEffect()


class _MarkingPrimitive(Primitive):
    """A primitive of one operand whose value is the operand: eagerly the operand itself (through the key-reuse
    checker while ``jax_debug_key_reuse`` is on), staged an effectful equation."""

    effectful = True

    def __init__(self, name: str, effect: KeyReuseEffect):
        super().__init__(name)
        self.effect = self.unlowerable_effect = effect
        self.def_abstract_eval(lambda aval, **params: aval)
        self.def_impl(lambda x, **params: x)
        physical_rules[self] = lambda data, avals_in, avals_out, **params: [self.bind(data, **params)]
        batching_rules[self] = lambda vals, dims, **params: (self.bind(vals[0], **params), dims[0])
        operand_results.add(self)

    def bind(self, x: Any, **params: Any) -> Any:
        if isinstance(core.current_trace(), core.EvalTrace) and not isinstance(x, Tracer):
            if execution_checks.armed:
                return execution_checks.apply_checked(lambda primitive, args, params: args[0], self, (x,), params)
            return x
        _register_refusal(self)
        return super().bind(x, **params)


def _register_refusal(primitive: _MarkingPrimitive) -> None:
    """Once jaxle_xla is loaded: lowering ``primitive`` raises JAX's ValueError naming its effect."""
    if "jaxle_xla" not in sys.modules:
        return
    from jaxle_xla.lowering.module import lowering_rules

    def refuse(ctx: Any, *args: Any, **params: Any) -> Any:
        raise ValueError(f"Cannot lower jaxpr with effects: { {primitive.effect} }")

    lowering_rules.setdefault(primitive, refuse)


consume_p = _MarkingPrimitive("consume", consume_effect)
assert_consumed_value_p = _MarkingPrimitive("assert_consumed_value", assert_effect)
key_reuse_signatures[consume_p] = KeyReuseSignature(Sink(0), Forward(0, 0))
key_reuse_signatures[assert_consumed_value_p] = KeyReuseSignature(Forward(0, 0))


def consume(key: Any) -> Any:
    """``key``, consumed."""
    return consume_p.bind(key)


def assert_unconsumed(key: Any) -> None:
    """Stage a check that ``key`` is not consumed (made by the static key-reuse check)."""
    assert_consumed_value_p.bind(key, value=HashableArray(False))


def assert_consumed(key: Any, value: Any = True) -> None:
    """Stage a check that ``key`` is consumed (``value``: a bool, or one per key of an array of keys)."""
    assert_consumed_value_p.bind(key, value=HashableArray(value))


def _check_consumed_value(eqn: JaxprEqn, consumed: Any) -> None:
    expected = eqn.params["value"].value
    if np.all(consumed == expected):
        return
    if np.all(expected):
        raise AssertionError(f"Expected key to be consumed in {eqn}")
    if not np.any(expected):
        raise AssertionError(f"Expected key to not be consumed in {eqn}")
    raise AssertionError(f"Expected {expected}, got {consumed} in {eqn}")


consumption_checks[assert_consumed_value_p] = _check_consumed_value
