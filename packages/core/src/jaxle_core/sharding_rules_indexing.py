"""Sharding rules of the primitives that pick, place, join, order or pool elements (gather, scatter, dynamic slices,
pad, split, concatenate, stack, unstack, tile, select_n, clamp, sort, top_k, window reductions, bitcasts), as
JAX 0.10.2's types say (see sharding_types.py).

Each keeps its operands' layout where every device already holds what it needs, and refuses (JAX's
ShardingTypeError) where the result would need values from other devices: indices split over a mesh axis, an
operand split along a dimension that is indexed, sorted or cut unevenly, or operands laid out differently.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxle_core.lax import slicing, sorting, structural, windowed
from jaxle_core.lax.approx_top_k import approx_top_k_p
from jaxle_core.mesh import PartitionSpec
from jaxle_core.sharding import NamedSharding
from jaxle_core.sharding_types import ShardingTypeError, check_divisible, register_rule, same_as_operand

__all__ = ["select_which_error"]


def _sharding_text(mesh, spec: tuple) -> str:
    return repr(NamedSharding(mesh, PartitionSpec(*spec)))


def _typed_text(aval, mesh) -> str:
    """An aval with the types of its mesh's axes, as JAX's dynamic_update_slice message prints it (no axes for a
    value typed over no mesh)."""
    groups: dict[str, list[str]] = {}
    typed = getattr(aval, "explicit_sharding", None) is not None
    for name, axis_type in zip(mesh.axis_names, mesh.axis_types) if typed else ():
        groups.setdefault(repr(axis_type), []).append(name)
    kinds = ", ".join(f"{kind}: {tuple(names)!r}" for kind, names in groups.items())
    return f"{aval.str_short()}({{{kinds}}})"


# ---------------------------------------------------------------- gather and scatter


def _batch_entry(operand_entry, indices_entry) -> tuple[bool, Any]:
    """A batching dimension's entry from the operand's and the indices' (one split, or both alike)."""
    if operand_entry is None or indices_entry is None or operand_entry == indices_entry:
        return True, operand_entry if operand_entry is not None else indices_entry
    return False, None


def _indexed_entries(operand, operand_spec, indices_spec, window_sizes, dropped, operand_batching_dims,
                     indices_batching_dims) -> tuple[list, list] | None:
    """The entries of an indexing's batch dimensions (one per dimension of the indices but the index vector) and of
    its window dimensions (one per operand dimension not dropped); None when a device would need another's values:
    split indices (but for their batching dimensions), a split operand dimension not taken whole, or batching
    dimensions split differently."""
    if any(e is not None for d, e in enumerate(indices_spec) if d not in indices_batching_dims):
        return None
    if any(e is not None and d not in operand_batching_dims and window_sizes[d] != operand.shape[d]
           for d, e in enumerate(operand_spec)):
        return None
    batch = []
    for d in range(len(indices_spec) - 1):
        if d not in indices_batching_dims:
            batch.append(None)
            continue
        ok, entry = _batch_entry(operand_spec[operand_batching_dims[indices_batching_dims.index(d)]], indices_spec[d])
        if not ok:
            return None
        batch.append(entry)
    window = [e for d, e in enumerate(operand_spec) if d not in dropped]
    return batch, window


def _interleaved(window_dims: Sequence[int], window: list, batch: list) -> tuple:
    """Window entries at ``window_dims``, batch entries in the other dimensions, in order."""
    window_entries, batch_entries = iter(window), iter(batch)
    return tuple(next(window_entries) if d in window_dims else next(batch_entries)
                 for d in range(len(window) + len(batch)))


def _gather(avals, specs, outs, mesh, params):
    dn = params["dimension_numbers"]
    operand, indices = avals
    entries = _indexed_entries(operand, specs[0], specs[1], params["slice_sizes"],
                               set(dn.collapsed_slice_dims) | set(dn.operand_batching_dims),
                               dn.operand_batching_dims, dn.start_indices_batching_dims)
    if entries is None:
        raise ShardingTypeError(
            "Use `.at[...].get(out_sharding=)` to provide output PartitionSpec for the gather indexing as out "
            "sharding could not be resolved unambiguously (or would require collectives on inputs). Got "
            f"operand={operand!r}, indices={indices!r}")
    batch, window = entries
    return [_interleaved(dn.offset_dims, window, batch)]


def _scatter(avals, specs, outs, mesh, params):
    dn = params["dimension_numbers"]
    operand, indices, updates = avals
    window_sizes = slicing.scatter_window_sizes(operand.ndim, updates.shape, dn)
    entries = _indexed_entries(operand, specs[0], specs[1], window_sizes,
                               set(dn.inserted_window_dims) | set(dn.operand_batching_dims),
                               dn.operand_batching_dims, dn.scatter_indices_batching_dims)
    # the updates must already sit where the windows they are written to live
    if entries is None or _interleaved(dn.update_window_dims, entries[1], entries[0]) != specs[2]:
        raise ShardingTypeError(
            "Use `.at[...].set/add/mul/...(out_sharding=)` to provide output PartitionSpec for the scatter update "
            "as out sharding could not be resolved unambiguously (or would require collectives on inputs). Got "
            f"operand={operand!r}, indices={indices!r}, updates={updates!r}")
    return [specs[0]]


# ---------------------------------------------------------------- slices, padding and pieces


def _resized(operation: str):
    """The operand's layout, for a result resized along dimensions its mesh axes must still divide evenly (the
    result's shape in the error as its ``slice_sizes`` spell it, when it has them: NumPy integers, say)."""
    def rule(avals, specs, outs, mesh, params):
        check_divisible(operation, avals[0], specs[0], params.get("slice_sizes", outs[0].shape), mesh)
        return [specs[0]] * len(outs)

    return rule


def _pad(avals, specs, outs, mesh, params):
    # the padded shape as JAX's message prints it: computed from the padding as given (NumPy integers stay so)
    shape = tuple(low + high + size + max(size - 1, 0) * interior
                  for size, (low, high, interior) in zip(avals[0].shape, params["padding_config"]))
    check_divisible("padding", avals[0], specs[0], shape, mesh)
    return [specs[0]]


def _split(avals, specs, outs, mesh, params):
    x, axis = avals[0], params["axis"]
    for size in params["sizes"]:  # each piece's shape as its size was given (JAX's message prints it so)
        check_divisible("split", x, specs[0], x.shape[:axis] + (size,) + x.shape[axis + 1:], mesh)
    return [specs[0]] * len(outs)


def _unstack(avals, specs, outs, mesh, params):
    axis = params["axis"]
    if specs[0][axis] is not None:
        raise ShardingTypeError(f"unstack operand cannot be sharded on the unstacking axis {axis}. Got operand "
                                f"type={avals[0].str_short(short_dtypes=True)}")
    return [specs[0][:axis] + specs[0][axis + 1:]] * len(outs)


def _tile(avals, specs, outs, mesh, params):
    reps = params["reps"]
    for d, (entry, rep) in enumerate(zip(specs[0], reps)):
        if entry is not None and rep != 1:
            raise ShardingTypeError(f"Operand cannot be sharded on dimension {d} when the tiling is non-trivial. Got "
                                    f"input type: {avals[0].str_short()} with reps: {reps}")
    return [specs[0]]


def _bitcast_convert_type(avals, specs, outs, mesh, params):
    # a narrower type adds a whole minor dimension, a wider one drops it
    spec, ndim = specs[0], outs[0].ndim
    return [spec + (None,) if ndim > len(spec) else spec[:ndim]]


def _dynamic_update_slice(avals, specs, outs, mesh, params):
    # as JAX's, a value typed over no mesh (an uncommitted array) does not take an update typed over one
    typed = [getattr(a, "explicit_sharding", None) is not None for a in avals[:2]]
    if specs[0] != specs[1] or typed[0] != typed[1]:
        raise ShardingTypeError(
            f"dynamic_update_slice operand sharding must be equal to update sharding, got operand sharding "
            f"{_typed_text(avals[0], mesh)} and update sharding {_typed_text(avals[1], mesh)}.")
    return [specs[0]]


def _same_layouts(avals, specs, mesh) -> tuple:
    if any(spec != specs[0] for spec in specs[1:]):
        raise ShardingTypeError("All operands should have the same sharding. Got shardings "
                                + ", ".join(_sharding_text(mesh, spec) for spec in specs))
    return specs[0]


def _concatenate(avals, specs, outs, mesh, params):
    return [_same_layouts(avals, specs, mesh)]


def _stack(avals, specs, outs, mesh, params):
    spec = _same_layouts(avals, specs, mesh)
    axis = params["axis"]
    return [spec[:axis] + (None,) + spec[axis:]]


# ---------------------------------------------------------------- selection


def _select_n(avals, specs, outs, mesh, params):
    # as JAX's: a case not typed over the mesh (a constant broadcast by vmap) is not compared, nor is such a `which`
    # (an array on one device, outside set_mesh)
    typed = [spec for aval, spec in zip(avals[1:], specs[1:]) if aval.explicit_sharding is not None]
    which, cases = specs[0], typed or list(specs[1:])
    if any(case != cases[0] for case in cases[1:]):
        raise ShardingTypeError(f"select cases must have the same shardings, got "
                                f"[{', '.join(_sharding_text(mesh, case) for case in cases)}].")
    if avals[0].ndim and avals[0].explicit_sharding is not None and which != cases[0]:
        raise select_which_error(mesh, which, cases[0])
    return [cases[0]]


def select_which_error(mesh, which: tuple, case: tuple) -> ShardingTypeError:
    """JAX's error for a ``select_n`` whose array ``which`` is laid out otherwise than its cases."""
    return ShardingTypeError(
        f"select `which` must be scalar or have the same sharding as cases, got `which` sharding "
        f"{_sharding_text(mesh, which)} but case sharding {_sharding_text(mesh, case)}.")


def _clamp(avals, specs, outs, mesh, params):
    return [specs[1]]  # the clamped operand's; the bounds only bound it


# ---------------------------------------------------------------- ordering


def _sort(avals, specs, outs, mesh, params):
    dimension = params["dimension"]
    for spec in specs:
        if spec[dimension] is not None:
            raise ShardingTypeError(f"Arguments to sort must be unsharded over the sorting dimension. Got arg "
                                    f"sharding={_sharding_text(mesh, spec)} and sorting dimension={dimension}")
    if any(spec != specs[0] for spec in specs[1:]):
        raise ShardingTypeError("Arguments to sort must have equal shardings, got: "
                                + " ".join(_sharding_text(mesh, spec) for spec in specs))
    return list(specs)


def _approx_top_k(avals, specs, outs, mesh, params):
    dimension = params["reduction_dimension"]
    if specs[0][dimension] is not None:
        raise ShardingTypeError(f"reduction dimension {dimension} in operand {avals[0].str_short()} should be "
                                "unsharded i.e. the spec of that dim should be `None`.")
    return [specs[0]] * 2


def _top_k(avals, specs, outs, mesh, params):
    axis = params["axis"] % avals[0].ndim
    if specs[0][axis] is not None:
        raise ShardingTypeError(f"The input should be unsharded over the axis along which to compute the top_k "
                                f"values. Got input type={avals[0].str_short()} and axis={axis}")
    return [specs[0]] * 2


register_rule(slicing.gather_p, _gather)
for _scatter_p in (slicing.scatter_p, slicing.scatter_add_p, slicing.scatter_sub_p, slicing.scatter_mul_p,
                   slicing.scatter_min_p, slicing.scatter_max_p):
    register_rule(_scatter_p, _scatter)
register_rule(slicing.dynamic_slice_p, _resized("dynamic_slice"), kept_operand=0)
register_rule(slicing.dynamic_update_slice_p, _dynamic_update_slice)
register_rule(structural.pad_p, _pad, kept_operand=0)
register_rule(structural.split_p, _split)
register_rule(structural.concatenate_p, _concatenate, per_dimension=True)
register_rule(structural.stack_p, _stack)
register_rule(structural.select_n_p, _select_n, per_dimension=True)
register_rule(structural.clamp_p, _clamp, kept_operand=1)
register_rule(sorting.sort_p, _sort, operand_per_result=True)
register_rule(sorting.top_k_p, _top_k)
register_rule(approx_top_k_p, _approx_top_k)
register_rule(structural.unstack_p, _unstack)
register_rule(structural.tile_p, _tile)
register_rule(structural.bitcast_convert_type_p, _bitcast_convert_type)
for _pooling in (windowed.reduce_window_sum_p, windowed.reduce_window_max_p, windowed.reduce_window_min_p,
                 windowed.reduce_window_p, windowed.select_and_gather_add_p):
    register_rule(_pooling, _resized("reduce_window"))
# the cotangent of a pooling, spread back over its operand's windows, is laid out as the operand
register_rule(windowed.select_and_scatter_add_p, lambda avals, specs, outs, mesh, params: [specs[1]])
register_rule(windowed.select_and_scatter_p, same_as_operand)
