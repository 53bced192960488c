"""Automatic differentiation: forward mode (``jvp``) with symbolic zero tangents, and the rules of each primitive."""

from jaxle_core.ad import indexing_rules, jit_rule, lax_rules, numeric_rules  # noqa: F401  (registers the rules)
from jaxle_core.ad.jvp import JVPTrace, JVPTracer, Zero, add_any_p, instantiate, jvp, jvp_rules, tangent_aval

__all__ = ["JVPTrace", "JVPTracer", "Zero", "add_any_p", "instantiate", "jvp", "jvp_rules", "tangent_aval"]
