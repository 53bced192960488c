"""scaled_matmul on XLA: JAX 0.10.2 runs the block-scaled product only through cuDNN on GPUs, and its CPU
compilation refuses the primitive; jaxle's XLA backend (CPU) refuses it the same way, with JAX's error."""

from __future__ import annotations

from jaxle_core.lax.scaled_matmul import scaled_matmul_wrapper_p
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering


@register_lowering(scaled_matmul_wrapper_p)
def _scaled_matmul_lowering(ctx: LoweringContext, *operands: Value, preferred_element_type) -> Value:
    raise NotImplementedError("MLIR translation rule for primitive 'scaled_matmul' not found for platform cpu")
