"""Lowering of conv_general_dilated to ``stablehlo.convolution``."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_core.lax.convolution import ConvDimensionNumbers, check_conv_window, conv_general_dilated_p
from jaxle_xla.lowering.context import LoweringContext, Value, i64, i64_array
from jaxle_xla.lowering.dot import precision_config
from jaxle_xla.lowering.module import register_lowering


def _layout(spec: Sequence[int], letters: str) -> str:
    """``[b, 0, 1, f]``: the role of each axis of an operand whose (batch, feature, spatial...) axes are ``spec``
    (``letters`` names the first two roles)."""
    roles = [""] * len(spec)
    for logical, axis in enumerate(spec):
        roles[axis] = letters[logical] if logical < 2 else str(logical - 2)
    return "[" + ", ".join(roles) + "]"


def conv_dimension_numbers(dnums: ConvDimensionNumbers) -> str:
    """The ``#stablehlo.conv<...>`` attribute of ``dnums``."""
    lhs, rhs, out = _layout(dnums.lhs_spec, "bf"), _layout(dnums.rhs_spec, "oi"), _layout(dnums.out_spec, "bf")
    return f"#stablehlo.conv<{lhs}x{rhs}->{out}>"


def _padding(padding: Sequence[tuple[int, int]]) -> str:
    rows = ", ".join(f"[{lo}, {hi}]" for lo, hi in padding)
    return f"dense<[{rows}]> : tensor<{len(padding)}x2xi64>" if padding else "dense<> : tensor<0x2xi64>"


def _no_reversal(spatial: int) -> str:
    """The window reversal JAX states on every convolution: no spatial axis reversed."""
    return f"array<i1: {', '.join(['false'] * spatial)}>" if spatial else "array<i1>"


def _convolution(ctx: LoweringContext, lhs: Value, rhs: Value, out_aval: ShapedArray,
                 attributes: dict[str, str]) -> Value:
    return ctx.op1("stablehlo.convolution", [lhs, rhs], out_aval, attributes)


def _complex_convolution(ctx: LoweringContext, lhs: Value, rhs: Value, out_aval: ShapedArray,
                         attributes: dict[str, str]) -> Value:
    """A complex convolution from three real ones (Gauss's product), as XLA's CPU and GPU backends want it."""
    part_dtype = np.finfo(out_aval.dtype).dtype
    a, b, c, d = (ctx.op1(f"stablehlo.{part}", [v], v.aval.update(dtype=np.finfo(v.aval.dtype).dtype))
                  for v in (lhs, rhs) for part in ("real", "imag"))

    def binary(name: str, x: Value, y: Value) -> Value:
        return ctx.op1(f"stablehlo.{name}", [x, y], x.aval)

    part_aval = out_aval.update(dtype=part_dtype)
    # (a + ib)(c + id) = (k1 - k3) + i(k1 + k2) with k1 = c(a + b), k2 = a(d - c), k3 = b(c + d).
    k1 = _convolution(ctx, binary("add", a, b), c, part_aval, attributes)
    k2 = _convolution(ctx, a, binary("subtract", d, c), part_aval, attributes)
    k3 = _convolution(ctx, b, binary("add", c, d), part_aval, attributes)
    return ctx.op1("stablehlo.complex", [binary("subtract", k1, k3), binary("add", k1, k2)], out_aval)


@register_lowering(conv_general_dilated_p)
def _conv_general_dilated(ctx: LoweringContext, lhs: Value, rhs: Value, *, window_strides, padding, lhs_dilation,
                          rhs_dilation, dimension_numbers, feature_group_count, batch_group_count, precision,
                          preferred_element_type, out_sharding) -> Value:
    window = [rhs.aval.shape[d] for d in dimension_numbers.rhs_spec[2:]]
    check_conv_window(window, window_strides, lhs_dilation, rhs_dilation)
    out_aval = ctx.avals_out[0]
    attributes = {
        "window_strides": i64_array(window_strides), "padding": _padding(padding),
        "lhs_dilation": i64_array(lhs_dilation), "rhs_dilation": i64_array(rhs_dilation),
        "window_reversal": _no_reversal(len(window)),
        "dimension_numbers": conv_dimension_numbers(dimension_numbers),
        "feature_group_count": i64(feature_group_count), "batch_group_count": i64(batch_group_count),
        "precision_config": precision_config(precision),
    }
    lower = _complex_convolution if np.issubdtype(lhs.aval.dtype, np.complexfloating) else _convolution
    return lower(ctx, lhs, rhs, out_aval, attributes)
