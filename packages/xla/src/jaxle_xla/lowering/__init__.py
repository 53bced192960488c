"""Lowering jaxprs to StableHLO: the rule registry, the text emitter and the rules for every core primitive."""

from jaxle_xla.lowering import (  # noqa: F401  (importing a module registers its rules)
    ad,
    approx_top_k,
    barriers,
    calls,
    composite,
    conditionals,
    convolution,
    creation,
    cumulative,
    custom_calls,
    dot,
    elementwise,
    fft,
    identity,
    parallel,
    placement,
    ragged_dot,
    random_bits,
    reductions,
    remat,
    scaled_dot,
    scan,
    slicing,
    solves,
    sorting,
    special,
    structural,
    tokens,
    while_loops,
    windowed,
)
from jaxle_xla.lowering.context import LoweringContext, Value, tensor_type
from jaxle_xla.lowering.module import elementwise_op, lower_to_text, lowering_rules, register_lowering

__all__ = ["LoweringContext", "Value", "elementwise_op", "lower_to_text", "lowering_rules", "register_lowering",
           "tensor_type"]
