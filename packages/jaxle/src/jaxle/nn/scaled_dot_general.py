"""``jax.nn.scaled_dot_general``: a ``dot_general`` whose operands are quantized to a narrow block-scaled format
(mxfp8, nvfp4) and multiplied by ``scaled_matmul``, with a custom gradient that quantizes the cotangent too.

The operands are brought to ``[batch, rows, contracted]`` form (transposed, then reshaped), quantized block by block
along the contracted axis, multiplied, and the product reshaped to ``dot_general``'s layout. The staged program is
JAX 0.10.2's, equation for equation."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import ml_dtypes
import numpy as np

import jaxle_numpy as jnp
from jaxle.nn.scaled_matmul import BlockScaleConfig, scaled_matmul
from jaxle_core import lax
from jaxle_core.custom_derivatives import custom_vjp

__all__ = ["scaled_dot_general"]

# The exponent field of a float32 and the value 2**-127 that stands in for a zero e8m0 scale.
_F32_MANTISSA_BITS = 23
_F32_MANTISSA_MASK = (1 << _F32_MANTISSA_BITS) - 1
_F32_MANTISSA_HALF = 1 << (_F32_MANTISSA_BITS - 1)
_F32_MAX_FINITE_EXPONENT = 254
_SMALLEST_E8M0 = np.float32(2.0 ** -127)

_DimensionNumbers = tuple[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]]]


def _largest(dtype: Any) -> float:
    return float(ml_dtypes.finfo(dtype).max)


def _e8m0_exponents(scales: Any) -> Any:
    """The biased exponents (uint8) of the powers of two at or just above ``scales``: the exponent field, one up when
    any mantissa bit is set, except at the largest exponent and for subnormals at most half the smallest normal."""
    bits = lax.bitcast_convert_type(scales.astype(np.float32), np.uint32)
    exponent = bits >> _F32_MANTISSA_BITS
    mantissa = bits & _F32_MANTISSA_MASK
    round_up = (mantissa > 0) & (exponent != _F32_MAX_FINITE_EXPONENT)
    round_up = round_up & ~((exponent == 0) & (mantissa <= _F32_MANTISSA_HALF))
    return jnp.where(round_up, exponent + 1, exponent).astype(np.uint8)


def _quantize_blocks(blocks: Any, config: BlockScaleConfig) -> tuple[Any, Any]:
    """``blocks`` ``[B, M, K / block, block]`` in ``config.data_type`` and their scales ``[B, M, K / block, 1]``."""
    data_max = _largest(config.data_type)
    clip_bound = np.float32(data_max)
    if config.mode == "nvfp4":
        blocks = blocks / config.global_scale
        scales = jnp.max(jnp.abs(blocks), axis=-1, keepdims=True) / data_max
        scales = jnp.clip(scales, 0, np.float32(_largest(config.scale_type))).astype(config.scale_type)
        scales = lax.optimization_barrier(scales)
        quantized = blocks / scales.astype(np.float32)
    else:
        exponents = _e8m0_exponents(jnp.max(jnp.abs(blocks), axis=-1, keepdims=True) / data_max)
        powers = lax.bitcast_convert_type(exponents.astype(np.uint32) << _F32_MANTISSA_BITS, np.float32)
        quantized = blocks / jnp.where(powers == 0.0, _SMALLEST_E8M0, powers)
        scales = exponents
    return jnp.clip(quantized, -clip_bound, clip_bound).astype(config.data_type), scales


def _quantize(x: Any, config: BlockScaleConfig) -> tuple[Any, Any]:
    """``x`` ``[B, M, K]`` quantized per ``config``, and its scales ``[B, M, K / block]``."""
    batch, rows, depth = x.shape
    block = config.block_size
    if depth < block or depth % block:
        # JAX's type (its own check is a bare assertion), with a message that says what is wrong
        raise AssertionError(f"scaled_dot_general: the contracted size {depth} must be a multiple of the block "
                             f"size {block}")
    quantized, scales = _quantize_blocks(lax.reshape(x, (batch, rows, depth // block, block)), config)
    quantized = lax.reshape(quantized, (batch, rows, depth))
    scales = lax.reshape(scales, (batch, rows, depth // block))
    if config.mode != "nvfp4":
        scales = lax.bitcast_convert_type(scales, config.scale_type)
    return quantized, scales


def _product(lhs: Any, rhs: Any, lhs_config: BlockScaleConfig, rhs_config: BlockScaleConfig,
             preferred_element_type: Any) -> Any:
    """``lhs[B, M, K]`` times ``rhs[B, N, K]`` contracted over K, both quantized: ``[B, M, N]``."""
    lhs_q, lhs_scales = _quantize(lhs, lhs_config)
    rhs_q, rhs_scales = _quantize(rhs, rhs_config)
    out = scaled_matmul(lhs_q, rhs_q, lhs_scales, rhs_scales, preferred_element_type=preferred_element_type)
    if lhs_config.mode == "nvfp4":
        out = out * (lhs_config.global_scale * rhs_config.global_scale)
    return out


def _dequantized_product(lhs: Any, rhs: Any) -> Any:
    """``lhs[B, M, K]`` times ``rhs[B, N, K]`` contracted over K in full precision (nvfp4's gradient)."""
    return jnp.matmul(lhs, jnp.swapaxes(rhs, -1, -2))


def _sizes(shape: Sequence[int], dims: Sequence[int]) -> tuple[int, ...]:
    return tuple(shape[d] for d in dims)


def _free(ndim: int, *used: Sequence[int]) -> tuple[int, ...]:
    taken = {d for dims in used for d in dims}
    return tuple(d for d in range(ndim) if d not in taken)


def _to_3d(x: Any, batch: Sequence[int], rows: Sequence[int], depth: Sequence[int]) -> Any:
    """``x`` transposed to ``batch + rows + depth`` and reshaped to one dimension for each group."""
    x_t = lax.transpose(x, tuple(batch) + tuple(rows) + tuple(depth))
    shape = x.shape
    return lax.reshape(x_t, tuple(math.prod(_sizes(shape, dims)) for dims in (batch, rows, depth)))


def _from_3d(x: Any, shape: Sequence[int], batch: Sequence[int], rows: Sequence[int], depth: Sequence[int]) -> Any:
    """The inverse of ``_to_3d`` for an operand of ``shape``."""
    permutation = tuple(batch) + tuple(rows) + tuple(depth)
    x = lax.reshape(x, _sizes(shape, permutation))
    return lax.transpose(x, tuple(int(i) for i in np.argsort(permutation)))


class _Layout:
    """Where the batch, free and contracted dimensions of both operands, and of the result, are."""

    def __init__(self, lhs_ndim: int, rhs_ndim: int, dimension_numbers: _DimensionNumbers):
        (self.lhs_contract, self.rhs_contract), (self.lhs_batch, self.rhs_batch) = dimension_numbers
        self.lhs_free = _free(lhs_ndim, self.lhs_batch, self.lhs_contract)
        self.rhs_free = _free(rhs_ndim, self.rhs_batch, self.rhs_contract)
        n_batch, n_lhs_free = len(self.lhs_batch), len(self.lhs_free)
        self.out_batch = tuple(range(n_batch))
        self.out_lhs_free = tuple(range(n_batch, n_batch + n_lhs_free))
        self.out_rhs_free = tuple(range(n_batch + n_lhs_free, n_batch + n_lhs_free + len(self.rhs_free)))


def _forward(lhs: Any, rhs: Any, dimension_numbers: _DimensionNumbers, preferred_element_type: Any,
             configs: Sequence[BlockScaleConfig]) -> Any:
    layout = _Layout(lhs.ndim, rhs.ndim, dimension_numbers)
    lhs_3d = _to_3d(lhs, layout.lhs_batch, layout.lhs_free, layout.lhs_contract)
    rhs_3d = _to_3d(rhs, layout.rhs_batch, layout.rhs_free, layout.rhs_contract)
    out = _product(lhs_3d, rhs_3d, configs[0], configs[1], preferred_element_type)
    shape = (_sizes(lhs.shape, layout.lhs_batch) + _sizes(lhs.shape, layout.lhs_free)
             + _sizes(rhs.shape, layout.rhs_free))
    return lax.reshape(out, shape)


def _backward(dimension_numbers: _DimensionNumbers, preferred_element_type: Any,
              configs: Sequence[BlockScaleConfig], residuals: tuple[Any, Any], g: Any) -> tuple[Any, Any]:
    lhs, rhs = residuals
    lhs_config, rhs_config, g_config = configs
    layout = _Layout(lhs.ndim, rhs.ndim, dimension_numbers)
    dequantized = g_config.mode == "nvfp4"

    def product(a, b, b_config):
        if dequantized:
            return _dequantized_product(a, b)
        return _product(a, b, g_config, b_config, preferred_element_type)

    rhs_t = _to_3d(rhs, layout.rhs_batch, layout.rhs_contract, layout.rhs_free)
    g_3d = _to_3d(g, layout.out_batch, layout.out_lhs_free, layout.out_rhs_free)
    lhs_grad = _from_3d(product(g_3d, rhs_t, rhs_config), lhs.shape, layout.lhs_batch, layout.lhs_free,
                        layout.lhs_contract)
    lhs_t = _to_3d(lhs, layout.lhs_batch, layout.lhs_contract, layout.lhs_free)
    g_t = _to_3d(g, layout.out_batch, layout.out_rhs_free, layout.out_lhs_free)
    rhs_grad = _from_3d(product(g_t, lhs_t, lhs_config), rhs.shape, layout.rhs_batch, layout.rhs_free,
                        layout.rhs_contract)
    if dequantized:
        # The straight-through estimator: no gradient where the operand lay beyond the quantized range.
        lhs_grad = _within_range(lhs, lhs_config, lhs_grad)
        rhs_grad = _within_range(rhs, rhs_config, rhs_grad)
    return lhs_grad, rhs_grad


def _within_range(x: Any, config: BlockScaleConfig, grad: Any) -> Any:
    magnitude = jnp.abs(x)
    bound = config.global_scale * _largest(config.data_type) * _largest(config.scale_type)
    return jnp.where(magnitude <= bound, grad, 0)


@functools.partial(custom_vjp, nondiff_argnums=(2, 3, 4))
def scaled_dot_general_fn(lhs, rhs, dimension_numbers, preferred_element_type, configs):
    return _forward(lhs, rhs, dimension_numbers, preferred_element_type, configs)


def scaled_dot_fwd(lhs, rhs, dimension_numbers, preferred_element_type, configs):
    return _forward(lhs, rhs, dimension_numbers, preferred_element_type, configs), (lhs, rhs)


def scaled_dot_bwd(dimension_numbers, preferred_element_type, configs, residuals, g):
    return _backward(dimension_numbers, preferred_element_type, configs, residuals, g)


scaled_dot_general_fn.defvjp(scaled_dot_fwd, scaled_dot_bwd)


def _canonical_dimension_numbers(dimension_numbers: Any) -> _DimensionNumbers:
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = dimension_numbers
    return ((tuple(int(d) for d in lhs_contract), tuple(int(d) for d in rhs_contract)),
            (tuple(int(d) for d in lhs_batch), tuple(int(d) for d in rhs_batch)))


def scaled_dot_general(lhs: Any, rhs: Any, dimension_numbers: Any, preferred_element_type: Any = np.float32,
                       configs: list[BlockScaleConfig] | None = None, implementation: Any = None) -> Any:
    """``lax.dot_general(lhs, rhs, dimension_numbers)`` with both operands quantized per ``configs`` (lhs, rhs and
    the gradient's, from ``get_scaled_dot_general_config``) and multiplied by ``scaled_matmul``; ``configs=None``
    is a plain ``dot_general``. ``implementation`` is ignored."""
    del implementation
    if configs is None:
        return lax.dot_general(lhs, rhs, dimension_numbers, preferred_element_type=preferred_element_type)
    dimension_numbers = _canonical_dimension_numbers(dimension_numbers)
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = dimension_numbers
    squeeze = not lhs_batch
    if squeeze:
        # Without batch dimensions, a trailing one of size 1 is added to both operands and dropped from the result.
        lhs, rhs = jnp.expand_dims(lhs, -1), jnp.expand_dims(rhs, -1)
        dimension_numbers = ((lhs_contract, rhs_contract), ((lhs.ndim - 1,), (rhs.ndim - 1,)))
    out = scaled_dot_general_fn(lhs, rhs, dimension_numbers, np.dtype(preferred_element_type), tuple(configs))
    return lax.squeeze(out, (0,)) if squeeze else out
