"""Lowering of the debug callbacks (``debug_callback``, ``debug_print``): a side-effecting host callback with no
results (see lowering/callbacks.py), ordered through the block's token of the effect when it is ordered."""

from __future__ import annotations

from jaxle_core.callbacks import call_host
from jaxle_core.debugging import debug_callback_p, debug_print_p, host_runners, ordered_debug_effect
from jaxle_core.jaxpr_util import ordered_effect_rules
from jaxle_xla.lowering.callbacks import as_array, emit_host_callback
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering


@register_lowering(debug_callback_p, debug_print_p)
def _debug_lowering(ctx: LoweringContext, *args: Value, **params) -> list[Value]:
    run = host_runners[ctx.eqn.primitive]
    avals_in = ctx.avals_in
    effect = ordered_effect_rules[ctx.eqn.primitive](params)
    if effect is not None and ctx.module.mesh is not None:  # as JAX, which keeps ordered io_callbacks there
        raise ValueError("The following ordered effects are not supported for more than 1 device: "
                         f"[{ordered_debug_effect!r}]")

    def host_function(*values):
        arrays = [as_array(v, a) for v, a in zip(values, avals_in)]
        call_host(lambda *xs: run(*xs, **params), arrays, (), "debug.callback")
        return ()

    return emit_host_callback(ctx, host_function, args, [], has_side_effect=True, effect=effect,
                              placed=effect is None)
