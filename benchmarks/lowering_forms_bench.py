"""Emitting StableHLO as text against building it with jaxlib's MLIR Python bindings (jaxle only).

Usage: python lowering_forms_bench.py jaxle   (prints one JSON object per line; the jax run prints nothing)

All build the same 1,200-op module from one jaxpr: jaxle's whole lowering (rules + text), its text emitter alone,
and the MLIR bindings building the same ops; this is the measurement behind jaxle-xla's choice of text
(docs/xla.md).
"""

import json
import sys

import numpy as np

from tree_bench import sized, time_us
from xla_bench import long_function

OP_NAMES = {"sin": "stablehlo.sine", "cos": "stablehlo.cosine", "mul": "stablehlo.multiply", "add": "stablehlo.add"}


def emit_text_directly(closed, LoweringContext, ModuleBuilder, Value):
    """The same ops written by jaxle's text emitter alone, without the lowering rules (like for like)."""
    ctx = LoweringContext(ModuleBuilder("m"))
    env = {closed.jaxpr.invars[0]: Value("%arg0", closed.jaxpr.invars[0].aval)}
    for eqn in closed.jaxpr.eqns:
        env[eqn.outvars[0]] = ctx.op1(OP_NAMES[eqn.primitive.name], [env[v] for v in eqn.invars],
                                      eqn.outvars[0].aval)
    return "\n".join(ctx.lines)


def build_with_bindings(closed, ir, func):
    """The jaxpr's module built op by op with the MLIR Python bindings (elementwise ops only)."""
    names = OP_NAMES
    with ir.Location.unknown():
        module = ir.Module.create()
        tensor = ir.RankedTensorType.get([3], ir.F32Type.get())
        with ir.InsertionPoint(module.body):
            function = func.FuncOp("main", ir.FunctionType.get([tensor], [tensor]))
            block = function.add_entry_block()
        env = {closed.jaxpr.invars[0]: block.arguments[0]}
        with ir.InsertionPoint(block):
            for eqn in closed.jaxpr.eqns:
                op = ir.Operation.create(names[eqn.primitive.name], results=[tensor],
                                         operands=[env[v] for v in eqn.invars])
                env[eqn.outvars[0]] = op.result
            func.ReturnOp([env[closed.jaxpr.outvars[0]]])
    return module


def main():
    if sys.argv[1] != "jaxle":
        return
    from jaxlib.mlir import ir
    from jaxlib.mlir.dialects import func

    import jaxle_core as jc
    from jaxle_core import lax
    from jaxle_xla import _jaxlib
    from jaxle_xla.lowering import lower_to_text
    from jaxle_xla.lowering.context import LoweringContext, Value
    from jaxle_xla.lowering.module import ModuleBuilder

    closed = jc.make_jaxpr(long_function(lax, sized(1200, 12)))(np.zeros(3, np.float32))
    context = _jaxlib._mlir_context()
    cases = {
        "lower_as_text/1200_equations": lambda: lower_to_text(closed, "f"),
        "emit_text_only/1200_equations": lambda: emit_text_directly(closed, LoweringContext, ModuleBuilder, Value),
        "lower_with_mlir_bindings/1200_equations": lambda: build_with_bindings(closed, ir, func),
    }
    with context:
        for name, fn in cases.items():
            fn()
            print(json.dumps({"name": name, "value": round(time_us(fn, target_seconds=1.0, repeat=3) / 1000, 3),
                              "unit": "ms"}), flush=True)


if __name__ == "__main__":
    main()
