"""Differentiating a ``composite`` is an error, as in JAX: its decomposition need not be what a compiler
runs, so its derivative is not the decomposition's. ``custom_jvp`` around it gives one."""

from __future__ import annotations

from jaxle_core.ad.jvp import jvp_rules
from jaxle_core.lax.composite import composite_p


def _composite_jvp(primals, tangents, **params):
    raise ValueError("JVP rule for composite not implemented. You can use `jax.custom_jvp` to add support. See "
                     "https://docs.jax.dev/en/latest/_autosummary/jax.custom_jvp.html")


jvp_rules[composite_p] = _composite_jvp
