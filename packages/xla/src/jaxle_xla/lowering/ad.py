"""Lowering of the primitives automatic differentiation introduces (``add_any``: the sum of two tangents)."""

from __future__ import annotations

from jaxle_core.ad import add_any_p
from jaxle_xla.lowering.module import elementwise_op

elementwise_op(add_any_p, "stablehlo.add")
