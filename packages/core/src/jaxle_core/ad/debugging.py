"""Derivatives of the debug callbacks: they see primal values only and have no outputs to differentiate."""

from __future__ import annotations

from jaxle_core.ad.jvp import jvp_rules
from jaxle_core.debugging import debug_callback_p, debug_print_p


def _primal_only(primitive):
    def rule(primals, tangents, **params):
        primitive.bind(*primals, **params)
        return [], []

    return rule


jvp_rules[debug_callback_p] = _primal_only(debug_callback_p)
jvp_rules[debug_print_p] = _primal_only(debug_print_p)
