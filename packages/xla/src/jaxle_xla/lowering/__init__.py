"""Lowering jaxprs to StableHLO: the rule registry, the text emitter and the rules for every core primitive."""

from jaxle_xla.lowering import (  # noqa: F401  (importing a module registers its rules)
    approx_top_k,
    barriers,
    checkpoint,
    composite,
    conditionals,
    convolution,
    creation,
    cumulative,
    custom_derivatives,
    dot,
    elementwise,
    factorizations,
    fft,
    householder,
    identity,
    jit,
    jvp,
    matrix_solves,
    parallel,
    placement,
    ragged_dot,
    random_bits,
    reductions,
    scaled_dot,
    scan,
    slicing,
    solves,
    sorting,
    special,
    structural,
    symmetric_product,
    tokens,
    while_loops,
    windowed,
)
from jaxle_xla.lowering.context import LoweringContext, Value, tensor_type
from jaxle_xla.lowering.module import elementwise_op, lower_to_text, lowering_rules, register_lowering

__all__ = ["LoweringContext", "Value", "elementwise_op", "lower_to_text", "lowering_rules", "register_lowering",
           "tensor_type"]
