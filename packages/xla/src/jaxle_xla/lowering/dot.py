"""Lowering of dot_general to ``stablehlo.dot_general`` (with XLA's ``algorithm`` for a dot algorithm preset)."""

from __future__ import annotations

import ml_dtypes
import numpy as np

from jaxle_core.lax.dot import Precision, dot_general_p
from jaxle_core.lax.dot_algorithm import DotAlgorithmPreset, algorithm_types, check_runs_on_cpu
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering


def precision_config(precision) -> str:
    """The ``precision_config`` attribute of a contraction (DEFAULT for both operands unless ``precision`` is a pair
    of Precisions: a dot algorithm is an attribute of its own)."""
    pair = precision if isinstance(precision, tuple) else (Precision.DEFAULT, Precision.DEFAULT)
    return "[" + ", ".join(f"#stablehlo<precision {p.name}>" for p in pair) + "]"


# Mixed pairs of these are contracted as they are (XLA upcasts them itself); JAX does the same.
_FLOAT8 = {np.dtype(t) for t in (ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2, ml_dtypes.float8_e4m3fnuz,
                                 ml_dtypes.float8_e5m2fnuz, ml_dtypes.float8_e3m4, ml_dtypes.float8_e4m3,
                                 ml_dtypes.float8_e8m0fnu)}


def dot_dimension_numbers(dimension_numbers: tuple) -> str:
    """The ``#stablehlo.dot<...>`` attribute of dot_general's ``dimension_numbers`` (empty lists left out)."""
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = dimension_numbers
    fields = {"lhs_batching": lhs_batch, "rhs_batching": rhs_batch,
              "lhs_contracting": lhs_contract, "rhs_contracting": rhs_contract}
    text = ", ".join(f"{name}_dimensions = [{', '.join(map(str, dims))}]" for name, dims in fields.items() if dims)
    return f"#stablehlo.dot<{text}>"


def _algorithm(preset: DotAlgorithmPreset) -> str:
    """The ``#stablehlo.dot_algorithm`` a preset names: its name's lhs, rhs and accumulation types, and ``_X<n>``'s
    n primitive products."""
    name, _, passes = preset.name.partition("_X")
    lhs, rhs, accumulation = name.lower().split("_")
    return (f"#stablehlo.dot_algorithm<lhs_precision_type = {lhs}, rhs_precision_type = {rhs}, accumulation_type = "
            f"{accumulation}, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = "
            f"{passes or 1}, allow_imprecise_accumulation = false>")


@register_lowering(dot_general_p)
def _dot_general(ctx: LoweringContext, lhs: Value, rhs: Value, *, dimension_numbers, precision,
                 preferred_element_type, out_sharding) -> Value:
    check_runs_on_cpu(precision)
    out_aval = ctx.avals_out[0]
    attributes = {"dot_dimension_numbers": dot_dimension_numbers(dimension_numbers),
                  "precision_config": precision_config(precision)}
    if isinstance(precision, DotAlgorithmPreset) and precision is not DotAlgorithmPreset.DEFAULT:
        lhs_type, rhs_type, produced = algorithm_types(precision, lhs.aval.dtype, rhs.aval.dtype, out_aval.dtype)
        lhs, rhs = (v if v.aval.dtype == t else ctx.op1("stablehlo.convert", [v], v.aval.update(dtype=t))
                    for v, t in ((lhs, lhs_type), (rhs, rhs_type)))
        attributes["algorithm"] = _algorithm(precision)
        result = ctx.op1("stablehlo.dot_general", [lhs, rhs], out_aval.update(dtype=produced), attributes)
        return result if produced == out_aval.dtype else ctx.op1("stablehlo.convert", [result], out_aval)
    if lhs.aval.dtype != rhs.aval.dtype and not {lhs.aval.dtype, rhs.aval.dtype} <= _FLOAT8:
        # XLA's CPU and GPU backends want operands of one element type: compute in the result's.
        lhs, rhs = (ctx.op1("stablehlo.convert", [v], v.aval.update(dtype=out_aval.dtype)) for v in (lhs, rhs))
    # (a result typed as unreduced is constrained so by typed_layouts: the partial products stay unsummed)
    return ctx.op1("stablehlo.dot_general", [lhs, rhs], out_aval, attributes)
