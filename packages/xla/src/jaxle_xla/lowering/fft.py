"""Lowering of ``fft`` to ``stablehlo.fft``."""

from __future__ import annotations

from jaxle_core.lax.fft import FftType, check_fft_supported, fft_p
from jaxle_xla.lowering.context import LoweringContext, Value, i64_array
from jaxle_xla.lowering.module import register_lowering


@register_lowering(fft_p)
def _fft_lowering(ctx: LoweringContext, x: Value, *, fft_type: FftType, fft_lengths: tuple[int, ...]) -> Value:
    # Checked here so that a transform XLA's verifier rejects fails with the message JAX shows, not a parse error.
    check_fft_supported(x.aval, fft_type, fft_lengths)
    return ctx.op1("stablehlo.fft", [x], ctx.avals_out[0],
                   {"fft_type": f"#stablehlo<fft_type {FftType(fft_type).name}>", "fft_length": i64_array(fft_lengths)})
