"""Batching rules of the elementwise primitives: line the batch dimensions up, then apply the primitive once."""

from __future__ import annotations

from jaxle_core.batching.rule_helpers import register_elementwise
from jaxle_core.core import Primitive
from jaxle_core.lax import elementwise as lax_elementwise

register_elementwise([p for p in vars(lax_elementwise).values() if isinstance(p, Primitive)])
