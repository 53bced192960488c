"""Derivatives of foreign function calls: there are none, as in JAX (wrap the call in ``custom_jvp`` or
``custom_vjp`` to give it one)."""

from __future__ import annotations

from jaxle_core.ad.jvp import jvp_rules
from jaxle_core.ffi import ffi_call_p


def _ffi_call_jvp(primals, tangents, *, target_name, **params):
    raise ValueError(f"The FFI call to `{target_name}` cannot be differentiated. You can use `jax.custom_jvp` or "
                     "`jax.custom_jvp` to add support.")


jvp_rules[ffi_call_p] = _ffi_call_jvp
