"""Block-scaled matrix products: ``scaled_matmul`` (core's ``scaled_matmul_wrapper`` primitive) and the
configurations of JAX's narrow block-scaled formats (``get_scaled_dot_general_config``)."""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

import ml_dtypes
import numpy as np

import jaxle_numpy as jnp
from jaxle_core.lax.scaled_matmul import scaled_matmul

__all__ = ["BlockScaleConfig", "get_scaled_dot_general_config", "scaled_matmul"]


@dataclasses.dataclass
class BlockScaleConfig:
    """How one operand is quantized: ``block_size`` consecutive elements of ``data_type`` share one scale of
    ``scale_type``; nvfp4 also carries a ``global_scale`` over the whole tensor."""

    mode: str
    block_size: int
    data_type: Any
    scale_type: Any
    global_scale: Any | None
    infer_only: bool


def get_scaled_dot_general_config(mode: Literal["nvfp4", "mxfp8"], global_scale: Any | None = None) -> BlockScaleConfig:
    """The block-scaling configuration of ``mode``: 'mxfp8' (float8_e4m3fn data, float8_e8m0fnu scales per 32) or
    'nvfp4' (float4_e2m1fn data, float8_e4m3fn scales per 16, ``global_scale`` defaulting to ``[1.0]``)."""
    if mode == "mxfp8":
        return BlockScaleConfig(mode="mxfp8", block_size=32, data_type=ml_dtypes.float8_e4m3fn,
                                scale_type=ml_dtypes.float8_e8m0fnu, global_scale=None, infer_only=False)
    if mode == "nvfp4":
        if global_scale is None:
            global_scale = jnp.ones((1,), np.float32)
        return BlockScaleConfig(mode="nvfp4", block_size=16, data_type=ml_dtypes.float4_e2m1fn,
                                scale_type=ml_dtypes.float8_e4m3fn, global_scale=global_scale, infer_only=False)
    raise ValueError(f"Unsupported mode: {mode}")
