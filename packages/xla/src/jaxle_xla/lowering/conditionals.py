"""Lowering of ``cond`` (``stablehlo.case`` with one region per branch) and of its ``empty2`` placeholder.

A ``cond`` of ``platform_dependent`` is resolved here: only the branch of the platform compiled for is
emitted, and ``platform_index`` is that branch's number.
"""

from __future__ import annotations

from jaxle_core.core import ClosedJaxpr
from jaxle_core.lax.control_flow.conditionals import cond_p, empty2_p, platform_branch, platform_index_p
from jaxle_xla.clients import default_backend
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering


@register_lowering(cond_p)
def _cond_lowering(ctx: LoweringContext, index: Value, *args: Value,
                   branches: tuple[ClosedJaxpr, ...], branches_platforms: tuple | None = None) -> list[Value]:
    if branches_platforms is not None:
        chosen = branches[platform_branch(branches_platforms, default_backend())]
        return ctx.lower_jaxpr(chosen.jaxpr, chosen.consts, args)

    def region(branch: ClosedJaxpr) -> str:
        return ctx.region([], lambda inner, _: inner.lower_jaxpr(branch.jaxpr, branch.consts, args))

    return ctx.op("stablehlo.case", [index], ctx.avals_out, regions=[region(b) for b in branches])


@register_lowering(empty2_p)
def _empty2_lowering(ctx: LoweringContext, *, dtype, memory_space) -> Value:
    return ctx.full_like(0, ctx.avals_out[0])


@register_lowering(platform_index_p)
def _platform_index_lowering(ctx: LoweringContext, *, platforms: tuple) -> Value:
    return ctx.full_like(platform_branch(platforms, default_backend()), ctx.avals_out[0])
