"""``jax.experimental.key_reuse._core``: the static check for typed PRNG keys used twice, of a function traced on
its arguments' types or of a jaxpr, whether ``jax_debug_key_reuse`` is on or not (jaxle's checker:
``jaxle_random.key_reuse``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jaxle_core.api import make_jaxpr
from jaxle_core.errors import KeyReuseError
from jaxle_random.key_reuse import jaxpr_signature

__all__ = ["KeyReuseError", "check_key_reuse", "check_key_reuse_jaxpr"]


def check_key_reuse_jaxpr(jaxpr: Any) -> None:
    """Raise ``KeyReuseError`` where ``jaxpr`` (or a jaxpr inside it) consumes a key already consumed."""
    jaxpr_signature(jaxpr)


def check_key_reuse(fun: Callable[..., Any], /, *args: Any) -> None:
    """Raise ``KeyReuseError`` where ``fun``, traced on the types of ``args`` (arrays or ``ShapeDtypeStruct``s,
    in pytrees), consumes a key already consumed."""
    if not callable(fun):
        raise TypeError("the first argument must be callable")
    check_key_reuse_jaxpr(make_jaxpr(fun)(*args).jaxpr)
