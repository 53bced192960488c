"""Lowering of ``shard_map``.

In a program partitioned over the shard_map's mesh, it is a Shardy manual
computation (``sdy.manual_computation``): XLA's partitioner hands each device
its blocks, the body runs once per device, its collectives are XLA collectives
between the devices of the mesh axes they name (``lowering/parallel.py``), and
the results are the blocks assembled along the output specs. In a program on
one device, every device's block is computed there instead: the body batched
along the mesh axes, the collectives acting across the batch (as under a named
``vmap``), which gives the same values; over a mesh of that one device the body
is the program's own code (its collectives between one partition).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_core.jaxpr_util import jaxpr_ordered_effects
from jaxle_core.lax.tokens import abstract_token
from jaxle_core.mesh import AbstractMesh, AxisType, Mesh, PartitionSpec
from jaxle_core.shard_map import block_aval, evaluate_shard_map, manual_names, shard_map_p
from jaxle_core.sharding import NamedSharding
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.typed_layouts import sharding_text
from jaxle_xla.sharding import sdy_sharding_text

__all__ = ["ManualRegion", "manual_computation", "manual_region"]

# A token's sharding is written as a scalar's.
_TOKEN_AVAL = ShapedArray((), np.dtype(np.bool_))


class ManualRegion:
    """The mesh whose axes a manual computation being lowered maps, for the collectives inside it: device ``d``
    of the mesh (row-major) is partition ``d`` of the program, or with ``replicas`` replica ``d`` (the older
    replicated programs of ``xla_computation(axis_env=...)``, whose collectives name replica ids). ``manual``: the
    mesh axes manual there (this computation's and the enclosing ones'; default: all)."""

    def __init__(self, mesh: Mesh | AbstractMesh, replicas: bool = False, manual: frozenset | None = None):
        self.mesh = mesh
        self.replicas = replicas
        self.manual = frozenset(mesh.axis_names) if manual is None else manual

    @property
    def automatic_axes(self) -> tuple:
        """The mesh axes not manual in this computation, in mesh order (the partitioner's to lay out)."""
        return tuple(n for n in self.mesh.axis_names if n not in self.manual)

    def groups(self, axes: Sequence[Any], axis_index_groups: Any = None) -> list[list[int]]:
        """The partitions that communicate over ``axes``: one group per position along the other mesh axes,
        its members in the order of ``axes`` (row-major), or split by ``axis_index_groups`` (indices along the
        axes)."""
        names = list(self.mesh.axis_names)
        sizes = self.mesh.axis_sizes
        positions = [names.index(a) for a in axes]
        others = [i for i in range(len(names)) if i not in positions]
        ids = np.arange(self.mesh.size).reshape(sizes).transpose(others + positions)
        rows = ids.reshape(-1, int(np.prod([sizes[p] for p in positions], dtype=np.int64)))
        if axis_index_groups is None:
            return rows.tolist()
        return [[int(row[i]) for i in group] for row in rows for group in axis_index_groups]

    def axis_stride(self, name: Any) -> int:
        """How many partitions apart neighbours along mesh axis ``name`` are."""
        names = list(self.mesh.axis_names)
        return int(np.prod(self.mesh.axis_sizes[names.index(name) + 1:], dtype=np.int64))


@contextlib.contextmanager
def manual_region(ctx: LoweringContext, mesh: Mesh, manual: frozenset | None = None) -> Iterator[ManualRegion]:
    """The manual computation of ``mesh``'s ``manual`` axes (default: all) being lowered, within the enclosing
    ones."""
    enclosing = ctx.module.manual_regions
    outer = enclosing[-1].manual if enclosing and enclosing[-1].mesh.shape_tuple == mesh.shape_tuple else frozenset()
    region = ManualRegion(mesh, manual=None if manual is None else outer | manual)
    ctx.module.manual_regions.append(region)
    try:
        yield region
    finally:
        ctx.module.manual_regions.pop()


def _per_value(specs: Sequence[PartitionSpec], avals: Sequence[Any], mesh: Mesh, symbol: str,
               open_over: Mesh | AbstractMesh | None = None) -> str:
    """Each value's sharding; with ``open_over`` (the shard_map's mesh, when it leaves axes to the partitioner)
    every dimension is left open to further splitting and the Explicit axes the spec does not name are listed as
    replicated, as JAX writes them."""
    prefix = "#sdy.sharding"
    if open_over is None:
        texts = [sdy_sharding_text(NamedSharding(mesh, s), a.ndim, symbol) for s, a in zip(specs, avals)]
    else:
        texts = [sharding_text(NamedSharding(open_over, s), a.ndim, symbol) for s, a in zip(specs, avals)]
    return f"#sdy.sharding_per_value<[{', '.join(t[len(prefix):] for t in texts)}]>"


def manual_computation(ctx: LoweringContext, args: Sequence[Value], block_avals: Sequence[Any],
                       out_avals: Sequence[Any], manual: Sequence[Any], in_shardings: str, out_shardings: str,
                       body: Callable[[LoweringContext, list[Value]], list[Value]]) -> list[Value]:
    """An ``sdy.manual_computation`` making the mesh axes ``manual`` manual: ``args`` split into blocks of
    ``block_avals`` as ``in_shardings`` say, ``body(inner, blocks)`` lowering its region, the results assembled as
    ``out_shardings`` say."""
    names = ", ".join(f'"{n}"' for n in manual)
    attributes = {"in_shardings": in_shardings, "out_shardings": out_shardings,
                  "manual_axes": f"#sdy<manual_axes{{{names}}}>"}
    return ctx.op("sdy.manual_computation", args, out_avals, attributes,
                  regions=[ctx.region(block_avals, body, terminator="sdy.return")])


def _lowering_mesh(ctx: LoweringContext, mesh: Mesh | AbstractMesh) -> Mesh | None:
    """The mesh to lower a ``shard_map`` over ``mesh`` with: ``mesh`` itself when the partitioned program runs over
    its devices (in that order, whatever the program's own axes are called: an argument laid out over another mesh
    of the same devices), the program's mesh for an abstract ``mesh`` of its axes; None otherwise."""
    program = ctx.module.mesh
    if program is None:
        return None
    if isinstance(mesh, AbstractMesh):
        return program if program.shape_tuple == mesh.shape_tuple else None
    return mesh if program._flat_devices_tuple == mesh._flat_devices_tuple else None


@register_lowering(shard_map_p)
def _shard_map_lowering(ctx: LoweringContext, *args: Value, jaxpr, mesh, in_specs, out_specs, newly_manual_axes,
                        **params) -> list[Value]:
    program_mesh = _lowering_mesh(ctx, mesh)
    if program_mesh is None and mesh.size == 1:  # the one device's blocks are the whole values
        with manual_region(ctx, mesh):
            return ctx.lower_jaxpr(jaxpr.jaxpr, jaxpr.consts, list(args))
    if program_mesh is None:
        return ctx.lower_fun(lambda *xs: evaluate_shard_map(xs, jaxpr=jaxpr, mesh=mesh, in_specs=in_specs,
                                                            out_specs=out_specs,
                                                            newly_manual_axes=newly_manual_axes, **params), *args)
    # Over a mesh with Auto axes, some axes left to the partitioner: every dimension is left open to their
    # splitting, as JAX writes it.
    open_over = (mesh if AxisType.Auto in mesh.axis_types and len(newly_manual_axes) < len(mesh.axis_names)
                 else None)
    mesh = program_mesh
    symbol = ctx.module.mesh_symbol(mesh)
    block_avals = [block_aval(a.aval, s, mesh) for a, s in zip(args, in_specs)]
    # The body's ordered effects continue this block's tokens of them: passed in first, replicated, and returned
    # first, as JAX threads them.
    effects = jaxpr_ordered_effects(jaxpr.jaxpr)
    tokens = ctx.tokens(effects)
    token_specs = [PartitionSpec()] * len(tokens)

    def body(inner: LoweringContext, blocks: list[Value]) -> list[Value]:
        inner.ordered_tokens = dict(zip(effects, blocks))
        with manual_region(ctx, mesh, newly_manual_axes):
            outs = inner.lower_jaxpr(jaxpr.jaxpr, jaxpr.consts, blocks[len(tokens):])
        return [*inner.tokens(effects), *outs]

    outs = manual_computation(
        ctx, [*tokens, *args], [abstract_token] * len(tokens) + block_avals,
        [abstract_token] * len(tokens) + list(ctx.avals_out), manual_names(mesh, newly_manual_axes),
        _per_value([*token_specs, *in_specs], [*([_TOKEN_AVAL] * len(tokens)), *(a.aval for a in args)], mesh,
                   symbol, open_over),
        _per_value([*token_specs, *out_specs], [*([_TOKEN_AVAL] * len(tokens)), *ctx.avals_out], mesh, symbol,
                   open_over), body)
    return ctx.continue_tokens(effects, outs)
