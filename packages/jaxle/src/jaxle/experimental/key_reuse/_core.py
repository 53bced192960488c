"""``jax.experimental.key_reuse._core``: the key-reuse checker's signatures and static checks, as in JAX 0.10.2.

``function_type_signature(fun, *args)`` and ``jaxpr_type_signature(jaxpr)`` give what a function (traced on its
arguments' types) or a jaxpr does to its keys, a ``KeyReuseSignature`` of ``Sink``, ``Source`` and ``Forward``
markers; ``check_key_reuse`` and ``check_key_reuse_jaxpr`` raise ``KeyReuseError`` where a key is consumed twice,
whether ``jax_debug_key_reuse`` is on or not. ``key_reuse_signatures`` maps each primitive to its signature (a
``DynamicKeyReuseSignature`` computes one from an equation); ``consume`` and ``assert_consumed`` mark keys for the
checker. ``call_impl_with_key_reuse_checks`` runs a primitive's implementation under the eager checks, and
``key_reuse_error_with_source_traceback`` makes the checker's error. The checker itself is
``jaxle_random.key_reuse``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jaxle_core.api import make_jaxpr
from jaxle_core.errors import KeyReuseError
from jaxle_random.key_consumption import (
    assert_consumed,
    assert_consumed_value_p,
    assert_effect,
    assert_unconsumed,
    consume,
    consume_effect,
    consume_p,
)
from jaxle_random.key_reuse import (
    call_impl_with_key_reuse_checks,
    jaxpr_type_signature,
    key_reuse_error_with_source_traceback,
    key_reuse_signature_from_eqn,
    key_reuse_signature_from_primitive,
    key_reuse_signatures,
    unknown_signature,
)
from jaxle_random.key_reuse_signatures import (
    DynamicKeyReuseSignature,
    Forward,
    KeyReuseSignature,
    Sink,
    Source,
    dynamic_key_reuse_signature,
)

__all__ = ["DynamicKeyReuseSignature", "Forward", "KeyReuseError", "KeyReuseSignature", "Sink", "Source",
           "assert_consumed", "assert_consumed_value_p", "assert_effect", "assert_unconsumed",
           "call_impl_with_key_reuse_checks", "check_key_reuse", "check_key_reuse_jaxpr", "consume", "consume_effect",
           "consume_p", "dynamic_key_reuse_signature", "function_type_signature", "jaxpr_type_signature",
           "key_reuse_error_with_source_traceback", "key_reuse_signature_from_eqn",
           "key_reuse_signature_from_primitive", "key_reuse_signatures", "unknown_signature"]


def function_type_signature(fun: Callable[..., Any], *args: Any) -> KeyReuseSignature:
    """The signature of ``fun`` traced on the types of ``args`` (arrays or ``ShapeDtypeStruct``s, in pytrees),
    raising ``KeyReuseError`` where it consumes a key already consumed."""
    if not callable(fun):
        raise TypeError("the first argument must be callable")
    return jaxpr_type_signature(make_jaxpr(fun)(*args).jaxpr)


def check_key_reuse_jaxpr(jaxpr: Any) -> None:
    """Raise ``KeyReuseError`` where ``jaxpr`` (or a jaxpr inside it) consumes a key already consumed."""
    jaxpr_type_signature(jaxpr)


def check_key_reuse(fun: Callable[..., Any], /, *args: Any) -> None:
    """Raise ``KeyReuseError`` where ``fun``, traced on the types of ``args``, consumes a key already consumed."""
    function_type_signature(fun, *args)
