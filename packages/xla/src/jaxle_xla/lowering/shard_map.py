"""Lowering of ``shard_map``: the body mapped over the mesh's devices' blocks within one program.

Every device's block is computed by the body batched along the mesh axes (the
collectives acting across the batch, as under a named ``vmap``), and the results
are assembled by their specs: the values of an SPMD run over the mesh, computed
on the program's one device.
"""

from __future__ import annotations

from jaxle_core.shard_map import evaluate_shard_map, shard_map_p
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering


@register_lowering(shard_map_p)
def _shard_map_lowering(ctx: LoweringContext, *args: Value, **params) -> list[Value]:
    return ctx.lower_fun(lambda *xs: evaluate_shard_map(xs, **params), *args)
