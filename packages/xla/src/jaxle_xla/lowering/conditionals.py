"""Lowering of ``cond`` (``stablehlo.case`` with one region per branch) and of its ``empty2`` placeholder.

A ``cond`` of ``platform_dependent`` is resolved here, as JAX resolves it: only the branch of the platform compiled
for is emitted (in a case of one region, chosen by a case mapping every branch number to 0), and ``platform_index``
is that branch's number.
"""

from __future__ import annotations

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_core.core import ClosedJaxpr
from jaxle_core.jaxpr_util import jaxpr_ordered_effects
from jaxle_core.lax.control_flow.conditionals import cond_p, empty2_p, platform_branch, platform_index_p
from jaxle_core.lax.tokens import abstract_token
from jaxle_xla.clients import default_backend
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.typed_layouts import leave_unconstrained


@register_lowering(cond_p)
def _cond_lowering(ctx: LoweringContext, index: Value, *args: Value,
                   branches: tuple[ClosedJaxpr, ...], branches_platforms: tuple | None = None) -> list[Value]:
    if branches_platforms is not None:
        # as JAX's: a case numbering each branch among those kept (the one of the platform compiled for), then
        # the case over those
        kept = platform_branch(branches_platforms, default_backend())
        index_aval = ShapedArray((), np.dtype(np.int32))
        renumbered = ctx.region([], lambda inner, _: [inner.constant(0, np.int32)])
        index = ctx.op("stablehlo.case", [index], [index_aval], regions=[renumbered] * len(branches))[0]
        branches = (branches[kept],)

    # Branches with ordered effects continue this block's tokens of them, and the case returns the tokens they end
    # with (first, as JAX's).
    effects = jaxpr_ordered_effects(*(b.jaxpr for b in branches))
    tokens = ctx.tokens(effects)

    def region(i: int, branch: ClosedJaxpr) -> str:
        def body(inner: LoweringContext, _: list[Value]) -> list[Value]:
            inner.ordered_tokens = dict(zip(effects, tokens))
            outs = inner.lower_jaxpr(branch.jaxpr, branch.consts, args)
            return [*inner.tokens(effects), *outs]

        return ctx.region([], body, name=f"branch_{i}_fun")

    outs = ctx.op("stablehlo.case", [index], [abstract_token] * len(effects) + ctx.avals_out,
                  regions=[region(i, b) for i, b in enumerate(branches)])
    return ctx.continue_tokens(effects, outs)


@register_lowering(empty2_p)
def _empty2_lowering(ctx: LoweringContext, *, dtype, memory_space) -> Value:
    return ctx.full_like(0, ctx.avals_out[0])


@register_lowering(platform_index_p)
def _platform_index_lowering(ctx: LoweringContext, *, platforms: tuple) -> Value:
    return ctx.full_like(platform_branch(platforms, default_backend()), ctx.avals_out[0])


leave_unconstrained(platform_index_p)  # as JAX's: a constant of no layout
