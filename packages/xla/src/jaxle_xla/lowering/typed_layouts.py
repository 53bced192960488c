"""Sharding in types in a partitioned program: every value whose type carries a layout over Explicit mesh axes is
constrained to it (``sdy.sharding_constraint``), as JAX lowers such programs.

The partitioner then lays each intermediate value out as its type says, so the communication it adds is the one
the types imply (a contraction over a split dimension with an ``out_sharding`` becomes a reduce-scatter or an
all-reduce there, not wherever propagation would have put it). Only programs partitioned over a mesh, traced once
sharding in types is on, take this path; the others are lowered exactly as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxle_core import core
from jaxle_core.jit import jit_p
from jaxle_core.lax.placement import reshard_p, sharding_constraint_p
from jaxle_core.mesh import AxisType, PartitionSpec
from jaxle_core.shard_map import shard_map_p
from jaxle_core.sharding import NamedSharding
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.sharding import sdy_sharding_text

__all__ = ["constrain_results", "constrain_to_type", "constrain_to_types", "constrain_untyped", "constrains_types",
           "leave_unconstrained", "lower_helper",
           "sharding_text", "typed_operand"]

# Primitives whose results are not constrained after them: the constraints themselves, calls whose callee
# constrains its own results (a nested jit) or whose body is manual (shard_map), and those lowering rules register
# with ``leave_unconstrained`` (comparisons, as JAX's lowering leaves them).
_unconstrained: set[core.Primitive] = {reshard_p, sharding_constraint_p, jit_p, shard_map_p}


def leave_unconstrained(*primitives: core.Primitive) -> None:
    """Write no constraint after the results of ``primitives``."""
    _unconstrained.update(primitives)


def lower_helper(ctx: LoweringContext, fun: Any, *args: Value, typed_by: Any = None) -> list[Value]:
    """``fun`` (written with lax) emitted inline, as JAX traces a rule's helper: where ``typed_by`` (by default the
    rule's first result) is typed over Explicit axes in a program constraining types, each value it computes typed
    and constrained."""
    sharding = getattr(ctx.avals_out[0] if typed_by is None else typed_by, "explicit_sharding", None)
    if sharding is not None and constrains_types(ctx):
        return ctx.lower_typed_fun(fun, sharding.mesh, *args)
    return ctx.lower_fun(fun, *args)


def constrains_types(ctx: LoweringContext) -> bool:
    """Whether values written into ``ctx`` are constrained to their types: a partitioned program traced with
    sharding in types on, outside any ``shard_map`` body, or in a body where only some mesh axes are manual (whose
    values without a layout in their type are left open to the other axes, as JAX writes them)."""
    module = ctx.module
    if module.mesh is None:
        return False
    if module.manual_regions:
        return bool(module.manual_regions[-1].automatic_axes)
    return core.type_shardings is not None


def _open_to_automatic_axes(ctx: LoweringContext, value: Value) -> Value:
    """``value`` constrained to no layout of its own along the mesh axes not manual in this body (every dimension
    left open to them)."""
    mesh = ctx.module.manual_regions[-1].mesh
    text = sdy_sharding_text(NamedSharding(mesh, PartitionSpec()), value.aval.ndim, ctx.module.mesh_symbol(mesh),
                             frozenset(range(value.aval.ndim)))
    return ctx.op1("sdy.sharding_constraint", [value], value.aval, {"sharding": text})


def constrain_untyped(ctx: LoweringContext, value: Value) -> Value:
    """``value`` (without a layout in its type) as JAX writes it in a body where only some mesh axes are manual:
    left open to the others; elsewhere as it is."""
    if ctx.module.mesh is None or not ctx.module.manual_regions or not ctx.module.manual_regions[-1].automatic_axes:
        return value
    return _open_to_automatic_axes(ctx, value)


def sharding_text(sharding: Any, ndim: int, mesh_symbol: str) -> str:
    """The Shardy sharding of a type's layout: each dimension closed over the Explicit axes naming it, and, over a
    mesh with Auto axes too, open to those (the Explicit axes no dimension names listed as replicated)."""
    mesh = sharding.mesh
    if AxisType.Auto not in mesh.axis_types:
        return sdy_sharding_text(sharding, ndim, mesh_symbol)
    text = sdy_sharding_text(sharding, ndim, mesh_symbol, frozenset(range(ndim)))
    used = {a for axes in sharding.dimension_axes(ndim) for a in axes}
    replicated = ", ".join(f'"{a}"' for a in mesh.explicit_axes if a not in used)
    # Shardy lists the replicated axes right after the dimensions (before any unreduced ones)
    return text.replace("]", f"], replicated={{{replicated}}}", 1) if replicated else text


def constrain_to_type(ctx: LoweringContext, value: Value, sharding: Any) -> Value:
    """``value`` constrained to the layout ``sharding`` (a type's, over a mesh with Explicit axes)."""
    text = sharding_text(sharding, value.aval.ndim, ctx.module.mesh_symbol(sharding.mesh))
    return ctx.op1("sdy.sharding_constraint", [value], value.aval, {"sharding": text})


def constrain_results(ctx: LoweringContext, eqn: core.JaxprEqn, outs: list[Value]) -> list[Value]:
    """``eqn``'s results, each constrained to the layout its type carries (if any)."""
    if eqn.primitive in _unconstrained:
        return outs
    return constrain_to_types(ctx, [var.aval for var in eqn.outvars], outs)


def constrain_to_types(ctx: LoweringContext, avals: Sequence[Any], values: Sequence[Value]) -> list[Value]:
    """Each of ``values`` constrained to the layout of the type at its position in ``avals`` (if any)."""
    constrained = []
    for aval, value in zip(avals, values):
        sharding = getattr(aval, "explicit_sharding", None)
        constrained.append(constrain_untyped(ctx, value) if sharding is None else
                           constrain_to_type(ctx, value, sharding))
    return constrained


def typed_operand(ctx: LoweringContext, value: Value, index: int, broadcast: Value) -> Value:
    """The ``index``-th operand of an elementwise equation, ``broadcast`` to its result's shape: constrained to the
    result's layout when it was broadcast or its type's layout is another (a literal's, which has none), as JAX
    makes an operand of another type fit its result."""
    if not constrains_types(ctx):
        return broadcast
    sharding = getattr(ctx.avals_out[0], "explicit_sharding", None)
    if sharding is None:
        return broadcast if broadcast is value else constrain_untyped(ctx, broadcast)
    if broadcast is value and getattr(ctx.avals_in[index], "explicit_sharding", None) == sharding:
        return broadcast
    return constrain_to_type(ctx, broadcast, sharding)
