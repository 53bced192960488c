"""Lowering jaxprs to StableHLO: the rule registry, the text emitter and the rules for every core primitive."""

from jaxle_xla.lowering import calls, elementwise  # noqa: F401  (importing registers the rules)
from jaxle_xla.lowering.context import LoweringContext, Value, tensor_type
from jaxle_xla.lowering.module import lower_to_text, lowering_rules, register_lowering, elementwise_op

__all__ = ["LoweringContext", "Value", "lower_to_text", "lowering_rules", "register_lowering", "elementwise_op",
           "tensor_type"]
