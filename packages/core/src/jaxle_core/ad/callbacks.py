"""Derivatives of host callbacks: there are none, as in JAX (a ``pure_callback`` is differentiated by wrapping
it in ``custom_jvp`` or ``custom_vjp``)."""

from __future__ import annotations

from jaxle_core.ad.jvp import jvp_rules
from jaxle_core.callbacks import io_callback_p, pure_callback_p


def _refuse(message: str):
    def rule(primals, tangents, **params):
        raise ValueError(message)

    return rule


jvp_rules[pure_callback_p] = _refuse("Pure callbacks do not support JVP. Please use `jax.custom_jvp` to use "
                                     "callbacks while taking gradients.")
jvp_rules[io_callback_p] = _refuse("IO callbacks do not support JVP.")
