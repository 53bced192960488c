"""The sharding rules of the common primitives: how each lays out its results over a mesh of Explicit axes, as
JAX 0.10.2's types say (see sharding_types.py).

Elementwise primitives (every operand of rank > 0 shaped as the result) combine their operands' layouts; the
structural ones move them with the dimensions; reductions drop the reduced dimensions' axes; a contraction keeps
the batch and free dimensions' axes and needs ``out_sharding`` when a contracting dimension is split. Primitives
without a rule (nor an inner jaxpr typing their results) give replicated results.
"""

from __future__ import annotations

from jaxle_core import core, sharding_types
from jaxle_core.lax import cumulative, reductions, slicing, structural
from jaxle_core.lax.barriers import optimization_barrier_p
from jaxle_core.lax.control_flow.scan import scan_p
from jaxle_core.lax.control_flow.solves import linear_solve_p
from jaxle_core.lax.dot import dot_general_p
from jaxle_core.lax.placement import device_put_p, reshard_p, sharding_constraint_p
from jaxle_core.lax.random_bits import rng_bit_generator_p
from jaxle_core.mesh import PartitionSpec, get_abstract_mesh
from jaxle_core.sharding import NamedSharding
from jaxle_core.sharding_types import (
    UNTYPED,
    ShardingTypeError,
    axis_size,
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
    given = given_spec(sharding, len(shape))
    if given is not None:
        return [given]
    result: list = [None] * len(shape)
    for in_dim, out_dim in enumerate(broadcast_dimensions):
        if avals[0].shape[in_dim] == shape[out_dim]:
            result[out_dim] = specs[0][in_dim]
    return [tuple(result)]


def _reshape_groups(old: tuple, new: tuple) -> list[tuple[list[int], list[int]]] | None:
    """The shapes cut into runs of dimensions of equal products (old dims, new dims); None when they cannot be."""
    groups, i, j = [], 0, 0
    while i < len(old) or j < len(new):
        gi, gj = [i] if i < len(old) else [], [j] if j < len(new) else []
        po = old[i] if i < len(old) else 1
        pn = new[j] if j < len(new) else 1
        i, j = i + bool(gi), j + bool(gj)
        while po != pn:
            if po < pn and i < len(old):
                po *= old[i]
                gi.append(i)
                i += 1
            elif j < len(new):
                pn *= new[j]
                gj.append(j)
                j += 1
            else:
                return None
        groups.append((gi, gj))
    return groups


def _runs_past_unit_dims(old: tuple, new: tuple) -> list[tuple[list[int], list[int]]]:
    """``_reshape_groups`` of the dimensions of size other than 1 (which a reshape adds or drops freely), as indices
    into ``old`` and ``new``; one run of every old dimension when they cannot be grouped."""
    old_kept = [d for d, size in enumerate(old) if size != 1]
    new_kept = [d for d, size in enumerate(new) if size != 1]
    groups = _reshape_groups(tuple(old[d] for d in old_kept), tuple(new[d] for d in new_kept))
    if groups is None:
        return [(list(range(len(old))), [])]
    return [([old_kept[i] for i in old_dims], [new_kept[j] for j in new_dims]) for old_dims, new_dims in groups]


def _reshape(avals, specs, outs, mesh, params):
    new_sizes, dimensions, sharding = params["new_sizes"], params["dimensions"], params["sharding"]
    given = given_spec(sharding, len(new_sizes))
    if given is not None:
        return [given]
    x, spec = avals[0], specs[0]
    if dimensions is not None:
        spec = tuple(spec[d] for d in dimensions)
    old = x.shape if dimensions is None else tuple(x.shape[d] for d in dimensions)
    if not any(spec):
        return [(None,) * len(new_sizes)]
    result: list = [None] * len(new_sizes)
    for old_dims, new_dims in _runs_past_unit_dims(tuple(old), tuple(new_sizes)):
        entries = [spec[d] for d in old_dims]
        if not any(entries):
            continue
        first = entries[0]
        # the split dimension must lead its run, and lead the run it becomes, dividing that dimension evenly
        if (any(entries[1:]) or not new_dims or new_sizes[new_dims[0]] % axis_size(mesh, first)
                or (len(old_dims) > 1 and len(new_dims) > 1)):
            raise ShardingTypeError(
                "This reshape is not supported. Please specify the sharding of the output via the `out_sharding` "
                f"argument of jax.lax.reshape. Got operand type: {x.str_short()}, new sizes: {tuple(new_sizes)}")
        result[new_dims[0]] = first
    return [tuple(result)]


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
    """The layout a placement asks for: its NamedSharding's, typed over that sharding's mesh (untyped when the mesh
    has no Explicit axis); a device, or a sharding of another kind, replicates."""
    def rule(avals, specs, outs, mesh, params):
        destination = params[key]
        result = []
        for aval, sharding in zip(avals, list(destination) if key == "devices" else [destination]):
            if not isinstance(sharding, NamedSharding):
                result.append((None,) * aval.ndim)
            elif explicit_mesh_of(sharding.mesh) is None:
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
