"""Lowering of ``add_any`` (defined beside jvp), the sum of two tangents that automatic differentiation introduces."""

from __future__ import annotations

from jaxle_core.ad.jvp import add_any_p
from jaxle_xla.lowering.module import elementwise_op

elementwise_op(add_any_p, "stablehlo.add")
