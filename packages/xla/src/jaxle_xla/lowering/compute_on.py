"""Lowering of ``compute_on`` (``compute_on2``): a private function computing its jaxpr, called with the marks of
its compute type (and its compiler options as a backend configuration), each result annotated with the memory it is
put in, as JAX writes it."""

from __future__ import annotations

from jaxle_core.compute_on import compute_on_p
from jaxle_core.memory_spaces import MemorySpace
from jaxle_xla.lowering.context import LoweringContext, Value, compute_attributes
from jaxle_xla.lowering.module import placed_in, register_lowering

# the memory kind each memory space puts a result in
_KINDS = {MemorySpace.Device: "device", MemorySpace.Host: "pinned_host"}


@register_lowering(compute_on_p)
def _compute_on_lowering(ctx: LoweringContext, *args: Value, jaxpr, compute_type: str, out_memory_spaces: tuple,
                         compiler_options_json) -> list[Value]:
    callee = ctx.module.function(jaxpr, "compute_on")
    # JAX keeps a call to dense compute from being inlined (a GPU stream's mark says so already)
    extra = 'inlineable = "false"' if compute_type == "device" else ""
    if compiler_options_json is not None:
        escaped = compiler_options_json.replace("\\", "\\\\").replace('"', '\\"')
        extra = ", ".join(e for e in (extra, f'backend_config = "{escaped}"') if e)
    outs = ctx.op("func.call", list(args), [v.aval for v in ctx.eqn.outvars], {
        "callee": f"@{callee}", "mhlo.frontend_attributes": compute_attributes(compute_type, extra)})
    return [placed_in(ctx, out, _KINDS[space]) if space in _KINDS else out
            for out, space in zip(outs, out_memory_spaces)]
