"""Lowering of the elementwise primitives (arithmetic, comparisons, bitwise, transcendental)."""

from __future__ import annotations

from jaxle_core.lax import elementwise as ew

from jaxle_xla.lowering.module import elementwise_op

for _primitive, _op in [
    (ew.add_p, "stablehlo.add"), (ew.sub_p, "stablehlo.subtract"), (ew.mul_p, "stablehlo.multiply"),
    (ew.sin_p, "stablehlo.sine"), (ew.cos_p, "stablehlo.cosine"), (ew.exp_p, "stablehlo.exponential"),
    (ew.neg_p, "stablehlo.negate"),
]:
    elementwise_op(_primitive, _op)
