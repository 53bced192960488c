"""Batching of the special functions: they are elementwise."""

from __future__ import annotations

from jaxle_core.batching.rule_helpers import register_elementwise
from jaxle_core.core import Primitive
from jaxle_core.lax import special as lax_special

register_elementwise([p for p in vars(lax_special).values() if isinstance(p, Primitive)])
