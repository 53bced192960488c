"""The sharding rules of the common primitives: how each lays out its results over a mesh of Explicit axes, as
JAX 0.10.2's types say (see sharding_types.py).

Elementwise primitives (every operand of rank > 0 shaped as the result) combine their operands' layouts; the
structural ones move them with the dimensions; reductions drop the reduced dimensions' axes; a contraction keeps
the batch and free dimensions' axes and needs ``out_sharding`` when a contracting dimension is split. Primitives
without a rule (nor an inner jaxpr typing their results) give replicated results.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from jaxle_core import core, sharding_types
from jaxle_core.callbacks import io_callback_p, pure_callback_p
from jaxle_core.lax import cumulative, reductions, slicing, structural
from jaxle_core.lax.barriers import optimization_barrier_p
from jaxle_core.lax.control_flow.scan import scan_p
from jaxle_core.lax.control_flow.solves import linear_solve_p
from jaxle_core.lax.dot import dot_general_p
from jaxle_core.lax.placement import device_put_p, reshard_p, sharding_constraint_p
from jaxle_core.lax.random_bits import rng_bit_generator_p
from jaxle_core.mesh import PartitionSpec, get_abstract_mesh
from jaxle_core.sharding import NamedSharding, Sharding
from jaxle_core.sharding_types import (
    UNTYPED,
    ShardingTypeError,
    check_divisible,
    elementwise_specs,
    explicit_mesh_of,
    given_spec,
    merged_specs,
    register_rule,
    same_as_operand,
    type_spec,
)

__all__: list[str] = []


# ---------------------------------------------------------------- elementwise (the default for same-shaped results)


def _is_elementwise(avals, outs) -> bool:
    """Whether every result has one shape that each operand of rank > 0 has, up to dimensions of size 1 (which
    lax's elementwise operations stretch); results of rank > 0 made from scalars alone are not."""
    if not outs or any(getattr(o, "shape", None) != outs[0].shape for o in outs):
        return False
    shape = outs[0].shape
    if shape and not any(getattr(a, "shape", ()) for a in avals):
        return False
    return all(len(a.shape) == len(shape) and all(d in (1, s) for d, s in zip(a.shape, shape))
               for a in avals if getattr(a, "shape", ()))


def _elementwise(primitive: core.Primitive):
    def rule(avals, specs, outs, mesh, params):
        sharding = params.get("sharding")
        if sharding is not None and not isinstance(sharding, (NamedSharding, PartitionSpec)):
            return [(None,) * outs[0].ndim] * len(outs)  # to devices (``jnp.asarray(device=)``): unsplit, as JAX's
        given = given_spec(sharding, outs[0].ndim) if sharding is not None else None
        if given is not None:
            return [given] * len(outs)
        shape = outs[0].shape
        # a stretched dimension of size 1 says nothing of the result's layout
        stretched = [tuple(None if getattr(a, "shape", ())[d:d + 1] == (1,) and shape[d] != 1 else e
                           for d, e in enumerate(spec)) for a, spec in zip(avals, specs)]
        result = elementwise_specs(primitive.name, stretched, avals)
        _check_axes_used_once(primitive.name, avals, outs[0], mesh, result)
        return [result] * len(outs)

    return rule


def _check_axes_used_once(name: str, avals, out, mesh, result: tuple) -> None:
    """JAX's ShardingTypeError for a result whose layout would name one mesh axis in two dimensions."""
    used = [a for e in result if e is not None for a in (e if isinstance(e, tuple) else (e,))]
    if len(used) != len(set(used)):
        illegal = out.update(sharding=_sharding(mesh, result))
        raise ShardingTypeError(
            f"{name} operation with inputs: {', '.join(a.str_short(short_dtypes=True) for a in avals)} produces an "
            f"illegally sharded result: {illegal.str_short(short_dtypes=True)}")


def _fallback(primitive, avals, specs, outs, mesh, params):
    """Elementwise for primitives whose results are shaped as every array operand; None (replicated) otherwise."""
    if _is_elementwise(avals, outs):
        return _elementwise(primitive)(avals, specs, outs, mesh, params)
    return None


sharding_types.fallback_rule = _fallback


# ---------------------------------------------------------------- structural


def _broadcast_in_dim(avals, specs, outs, mesh, params):
    shape, broadcast_dimensions, sharding = params["shape"], params["broadcast_dimensions"], params["sharding"]
    if isinstance(sharding, NamedSharding) and sharding.mesh.empty:  # over no mesh (vmap's broadcast of a constant)
        return [UNTYPED]
    given = given_spec(sharding, len(shape))
    if given is not None:
        return [given]
    result: list = [None] * len(shape)
    for in_dim, out_dim in enumerate(broadcast_dimensions):
        if avals[0].shape[in_dim] == shape[out_dim]:
            result[out_dim] = specs[0][in_dim]
    return [tuple(result)]


class _Unsupported(Exception):
    """A reshape whose result's layout the rule cannot tell (it asks for ``out_sharding``)."""


def _reshape_refused(x, new_sizes) -> ShardingTypeError:
    return ShardingTypeError(
        "This reshape is not supported. Please specify the sharding of the output via the `out_sharding` argument "
        f"of jax.lax.reshape. Got operand type: {x.str_short()}, new sizes: {tuple(new_sizes)}")


def _one_dimension_cut(short: tuple, long: tuple) -> list | None:
    """JAX's reading of a reshape from ``short`` to the longer ``long`` as one dimension of ``short`` cut into
    several: for each dimension of ``short``, its size when ``long`` keeps it or the list of ``long``'s sizes it
    is cut into (the dimensions of size 1 that follow the cut's last piece join it, unless the next dimensions match
    again). None when the shapes do not read so; ``_Unsupported`` when a second dimension would be cut or the walk
    runs out of dimensions (where JAX's rule fails)."""
    if len(long) <= len(short):
        return None
    ones = 0  # pairs of trailing dimensions of size 1, set aside
    while ones < len(short) and short[-1 - ones] == 1 and long[-1 - ones] == 1:
        ones += 1
    short, long = short[:len(short) - ones], long[:len(long) - ones]
    reading: list = []
    cut = False
    i = j = 0
    while j < len(long):
        if i == len(short):
            raise _Unsupported
        if short[i] == long[j]:
            reading.append(short[i])
        elif cut:
            raise _Unsupported
        else:
            cut, pieces = True, [long[j]]
            while math.prod(pieces) != short[i] or (j + 1 < len(long) and long[j + 1] == 1):
                if math.prod(pieces) > short[i]:
                    return None
                if math.prod(pieces) == short[i] and i + 1 < len(short) and long[j + 1] == short[i + 1]:
                    break
                j += 1
                if j == len(long):
                    return None
                pieces.append(long[j])
            reading.append(pieces)
        i += 1
        j += 1
    if i != len(short):
        raise _Unsupported
    return reading + [1] * ones


def _axes_onto(mesh, axes: list, sizes: Sequence[int]) -> list:
    """The mesh ``axes`` (in order) dealt onto dimensions of ``sizes``: each takes axes while its size left is
    above 1, each dividing it; ``_Unsupported`` when one does not, or when axes are left over."""
    left = iter(axes)
    entries = []
    for size in sizes:
        taken = []
        while size > 1:
            axis = next(left, None)
            if axis is None:
                break
            size, rest = divmod(size, mesh.shape[axis])
            if rest:
                raise _Unsupported
            taken.append(axis)
        entries.append(None if not taken else taken[0] if len(taken) == 1 else tuple(taken))
    if next(left, None) is not None:
        raise _Unsupported
    return entries


def _entry_axes(entry) -> list:
    return [] if entry is None else list(entry) if isinstance(entry, tuple) else [entry]


def _reshape_entries(mesh, shape: tuple, spec: tuple, new_sizes: tuple, permuted: bool) -> tuple:
    """JAX's layout of a reshape of ``shape`` laid out as ``spec`` (every entry kept in order when only dimensions
    of size 1 come or go; else one dimension cut into several, its axes dealt onto them, or several merged into
    one, their axes, leading dimensions first, joined); ``_Unsupported`` otherwise, and for a cut or merge of split
    dimensions when ``permuted`` (a reshape given ``dimensions``)."""
    if [s for s in shape if s != 1] == [s for s in new_sizes if s != 1]:
        kept = iter(e for s, e in zip(shape, spec) if s != 1)
        return tuple(None if s == 1 else next(kept) for s in new_sizes)
    cut = _one_dimension_cut(shape, new_sizes)
    if cut is not None:
        result: list = []
        for entry, piece in zip(spec, cut):
            if not isinstance(piece, list):
                result.append(entry)
            elif entry is None:
                result.extend([None] * len(piece))
            elif permuted:
                raise _Unsupported
            else:
                result.extend(_axes_onto(mesh, _entry_axes(entry), piece))
        return tuple(result)
    merge = _one_dimension_cut(new_sizes, shape)
    if merge is None:
        raise _Unsupported
    entries, result = iter(spec), []
    for size, pieces in zip(new_sizes, merge):
        if not isinstance(pieces, list):
            result.append(next(entries))
            continue
        merged = [next(entries) for _ in pieces]
        axes = [a for e in merged for a in (e if isinstance(e, tuple) else (e,))]
        while axes and axes[-1] is None:
            axes.pop()
        if not axes:
            result.append(None)
        elif permuted or None in axes:
            raise _Unsupported
        else:
            result.extend(_axes_onto(mesh, axes, [size]))
    return tuple(result)


def _reshape(avals, specs, outs, mesh, params):
    new_sizes, dimensions, sharding = params["new_sizes"], params["dimensions"], params["sharding"]
    given = given_spec(sharding, len(new_sizes))
    if given is not None:
        return [given]
    x, spec = avals[0], specs[0]
    if not any(spec):
        return [(None,) * len(new_sizes)]
    try:
        return [_reshape_entries(mesh, tuple(x.shape), tuple(spec), tuple(new_sizes), dimensions is not None)]
    except _Unsupported:
        raise _reshape_refused(x, new_sizes) from None


def _transpose(avals, specs, outs, mesh, params):
    return [tuple(specs[0][d] for d in params["permutation"])]


def _squeeze(avals, specs, outs, mesh, params):
    return [tuple(e for d, e in enumerate(specs[0]) if d not in params["dimensions"])]


def _iota(avals, specs, outs, mesh, params):
    ndim = len(params["shape"])
    return [given_spec(params["sharding"], ndim) or (None,) * ndim]


def _slice(avals, specs, outs, mesh, params):
    check_divisible("slicing", avals[0], specs[0], outs[0].shape, mesh)
    return [specs[0]]


# ---------------------------------------------------------------- reductions


def _reduction(avals, specs, outs, mesh, params):
    given = given_spec(params.get("out_sharding"), outs[0].ndim)
    if given is not None:
        return [given]
    return [tuple(e for d, e in enumerate(specs[0]) if d not in params["axes"])]


def _cumulative(avals, specs, outs, mesh, params):
    axis = params["axis"]
    if specs[0][axis] is not None:
        raise ShardingTypeError(f"Input should be unsharded over the axis being reduced. Got input "
                                f"type={avals[0].str_short()} and axis={axis}")
    return [specs[0]]


# ---------------------------------------------------------------- contractions


def _dot_general(avals, specs, outs, mesh, params):
    given = given_spec(params["out_sharding"], outs[0].ndim)
    if given is not None:
        return [given]
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = params["dimension_numbers"]
    lhs, rhs = specs
    lhs_contracting = tuple(lhs[d] for d in lhs_contract)
    rhs_contracting = tuple(rhs[d] for d in rhs_contract)
    # one side split alone is gathered by the partitioner; both split leaves the result's layout open
    if any(a is not None and b is not None for a, b in zip(lhs_contracting, rhs_contracting)):
        raise ShardingTypeError(
            "Contracting dimensions are sharded and it is ambiguous how the output should be sharded. Please "
            "specify the output sharding via the `out_sharding` parameter. Got "
            f"lhs_contracting_spec={lhs_contracting} and rhs_contracting_spec={rhs_contracting}")
    batch = merged_specs("dot_general", [tuple(lhs[d] for d in lhs_batch), tuple(rhs[d] for d in rhs_batch)])
    free = tuple(lhs[d] for d in range(len(lhs)) if d not in lhs_batch + lhs_contract) + tuple(
        rhs[d] for d in range(len(rhs)) if d not in rhs_batch + rhs_contract)
    result = tuple(batch) + free
    _check_axes_used_once("dot_general", avals, outs[0], mesh, result)
    return [result]


def _sharding(mesh, entries):
    # a NamedSharding that skips the duplicate check: only printed in the error about that very duplicate
    sharding = object.__new__(NamedSharding)
    sharding.mesh, sharding.spec, sharding._memory_kind = mesh, PartitionSpec(*entries), None
    return sharding


# ---------------------------------------------------------------- placement


def _to_destination(key: str):
    """The layout a placement asks for, as JAX types it: its NamedSharding's, typed over that sharding's mesh
    (untyped when the mesh has no Explicit axis, as for a sharding of another kind); a device (or memory space)
    keeps the operand's."""
    def rule(avals, specs, outs, mesh, params):
        destination = params[key]
        result = []
        for aval, spec, sharding in zip(avals, specs, list(destination) if key == "devices" else [destination]):
            if not isinstance(sharding, Sharding):
                result.append(spec)
            elif not isinstance(sharding, NamedSharding) or explicit_mesh_of(sharding.mesh) is None:
                result.append(UNTYPED)
            else:
                target = explicit_mesh_of(sharding.mesh)
                result.append(NamedSharding(target, type_spec(target, sharding.spec, aval.ndim)))
        return result

    return rule


def _constrained(avals, specs, outs, mesh, params):
    """A sharding constraint over a mesh with Explicit axes names only its Auto axes (as JAX requires): the value
    keeps its type; over a mesh of Auto axes it is untyped, as any placement there."""
    sharding = params["sharding"]
    if not isinstance(sharding, NamedSharding) or explicit_mesh_of(sharding.mesh) is None:
        return _to_destination("sharding")(avals, specs, outs, mesh, params)
    return same_as_operand(avals, specs, outs, mesh, params)


register_rule(structural.broadcast_in_dim_p, _broadcast_in_dim, per_dimension=True)
register_rule(structural.reshape_p, _reshape)
register_rule(structural.transpose_p, _transpose)
register_rule(structural.squeeze_p, _squeeze)
register_rule(structural.iota_p, _iota, per_dimension=True)
register_rule(structural.rev_p, same_as_operand)
register_rule(slicing.slice_p, _slice)
for _reduce in (reductions.reduce_sum_p, reductions.reduce_prod_p, reductions.reduce_max_p, reductions.reduce_min_p,
                reductions.reduce_and_p, reductions.reduce_or_p, reductions.reduce_xor_p, reductions.argmax_p,
                reductions.argmin_p):
    register_rule(_reduce, _reduction)
for _cumulative_p in (cumulative.cumsum_p, cumulative.cumprod_p, cumulative.cummax_p, cumulative.cummin_p,
                      cumulative.cumlogsumexp_p):
    register_rule(_cumulative_p, _cumulative)
register_rule(dot_general_p, _dot_general)


def _rng_bit_generator(avals, specs, outs, mesh, params):
    """The new state laid out as the old; the bits as ``out_sharding`` says (replicated when not given). As JAX's,
    outside any mesh of Explicit axes an untyped state gives untyped results whatever ``out_sharding`` says."""
    if explicit_mesh_of(get_abstract_mesh()) is None and avals[0].explicit_sharding is None:
        return [UNTYPED, UNTYPED]
    bits = outs[1].ndim
    return [specs[0], given_spec(params["out_sharding"], bits) or (None,) * bits]


def _each_as_its_operand(avals, specs, outs, mesh, params):
    return list(specs)


register_rule(rng_bit_generator_p, _rng_bit_generator)
register_rule(optimization_barrier_p, _each_as_its_operand)


def _as_given(avals, specs, outs, mesh, params):
    """The results of a host callback typed as the callback's own result types say (over no mesh), as JAX's."""
    return [UNTYPED] * len(outs)


register_rule(pure_callback_p, _as_given)
register_rule(io_callback_p, _as_given)


def _scan(avals, specs, outs, mesh, params):
    """The carries as the body types them; each stacked output laid out as the body's, its new leading dimension
    whole (a value the body types over no mesh, a constant, stays so)."""
    jaxpr, num_carry = params["jaxpr"], params["num_carry"]
    carries = [a.explicit_sharding or UNTYPED for a in jaxpr.out_avals[:num_carry]]
    return carries + [UNTYPED if a.explicit_sharding is None else (None, *a.explicit_sharding.spec)
                      for a in jaxpr.out_avals[num_carry:]]


register_rule(scan_p, _scan)


def _linear_solve(avals, specs, outs, mesh, params):
    """The solution typed as ``b`` (untyped when ``b`` is: a host value given to a jitted solve), as JAX types it;
    auxiliary outputs as ``solve`` types them."""
    n_b = len(avals) - sum(params["const_lengths"])
    b = zip(avals[-n_b:], specs[-n_b:]) if n_b else ()
    return [spec if a.explicit_sharding is not None else UNTYPED for a, spec in b] + [None] * (len(outs) - n_b)


register_rule(linear_solve_p, _linear_solve)
register_rule(reshard_p, _to_destination("dst_sharding"), places=True)
register_rule(sharding_constraint_p, _constrained, places=True)
register_rule(device_put_p, _to_destination("devices"), places=True)
