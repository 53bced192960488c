"""Unreduced and reduced axes in types: over a mesh of Explicit axes (``f32[4@x,2]{U:y}``, ``{R:y}``), and over
the manual axes inside a ``shard_map`` checking types (``f32[16]{R:i}``).

A value *unreduced* over mesh axes is a partial sum: each device along those axes holds a part, and the value is
their sum (a contraction over a split dimension gives one when its ``out_sharding`` says so). A value *reduced*
over axes is the same on every device along them, like a replicated one, but its cotangent is unreduced (and an
unreduced value's cotangent is reduced). ``reshard`` changes either into the other or into a plain layout; the
partitioner inserts the reduction.

The layout's ``PartitionSpec`` carries both sets. ``sharding_types.typed_results`` asks ``result_axes`` for the
sets of a primitive's results once an operand carries one (or its ``out_sharding`` names one): linear operations
keep them, ``add`` needs its operands unreduced alike, ``mul`` an unreduced operand times one reduced over the same
axes, and other operations refuse unreduced operands and need every operand reduced alike (JAX's errors).

Inside a ``shard_map`` the aval's own ``unreduced`` and ``reduced`` fields carry the manual axes; staging asks the
same rules (through ``vma.result_reductions``), and the collectives of ``lax/parallel.py`` that make or consume
such values have rules of their own here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from jaxle_core import core, sharding_types, vma
from jaxle_core.ad.jvp import add_any_p
from jaxle_core.avals import get_aval
from jaxle_core.lax import cumulative, elementwise, parallel, reductions, slicing, sorting, structural
from jaxle_core.lax.dot import dot_general_p
from jaxle_core.lax.identity import copy_p, stop_gradient_p
from jaxle_core.lax.placement import reshard_p
from jaxle_core.mesh import PartitionSpec
from jaxle_core.sharding import NamedSharding
from jaxle_core.sharding_types import ShardingTypeError
from jaxle_core.staging import staging_rewrites

__all__ = ["Axes", "Operands", "carries_axes", "manual_axes", "operand_axes", "result_axes"]

Axes = tuple[frozenset, frozenset]  # (unreduced, reduced)
_NO_AXES: frozenset = frozenset()
_NONE: Axes = (_NO_AXES, _NO_AXES)


def operand_axes(aval: Any) -> Axes:
    """The Explicit mesh axes ``aval``'s layout is unreduced and reduced over (empty when it has no layout)."""
    sharding = getattr(aval, "explicit_sharding", None)
    if sharding is None:
        return _NONE
    return sharding.spec.unreduced, sharding.spec.reduced


def manual_axes(aval: Any) -> Axes:
    """The manual mesh axes ``aval`` (inside a ``shard_map`` checking types) is unreduced and reduced over."""
    return getattr(aval, "unreduced", _NO_AXES), getattr(aval, "reduced", _NO_AXES)


def carries_axes(avals: Sequence[Any]) -> bool:
    """Whether any of ``avals`` is laid out unreduced or reduced over some Explicit axis."""
    for aval in avals:
        sharding = getattr(aval, "explicit_sharding", None)
        if sharding is not None and (sharding.spec.unreduced or sharding.spec.reduced):
            return True
    return False


class Operands:
    """A primitive's array operands with their (unreduced, reduced) axes, Explicit or manual ones."""

    def __init__(self, avals: Sequence[Any], manual: bool):
        self.avals = [a for a in avals if hasattr(a, "shape")]
        self.manual = manual
        self.axes = [(manual_axes if manual else operand_axes)(a) for a in self.avals]

    def subset(self, start: int) -> Operands:
        subset = object.__new__(Operands)
        subset.avals, subset.manual, subset.axes = self.avals[start:], self.manual, self.axes[start:]
        return subset


# ``rule(name, operands, params)``: the (unreduced, reduced) axes of every result.
AxesRule = Callable[[str, Operands, dict], Axes]
_rules: dict[core.Primitive, AxesRule] = {}


def _short(aval: Any) -> str:
    return aval.str_short()


def _reduced_alike(name: str, operands: Operands, params: dict) -> Axes:
    """The rule of most operations: no operand unreduced, every operand reduced over the same axes (those of the
    result); over Explicit axes, scalars aside."""
    if any(unreduced for unreduced, _ in operands.axes):
        raise NotImplementedError(f"unreduced rule for {name} is not implemented. Please file an issue at "
                                  "https://github.com/jax-ml/jax/issues")
    reduced = frozenset().union(*(r for _, r in operands.axes))
    for aval, (_, mine) in zip(operands.avals, operands.axes):
        # over Explicit axes a scalar joins reduced operands as one reduced alike (staged, it is resharded first)
        if reduced and mine != reduced and (mine or aval.ndim or operands.manual):
            raise ShardingTypeError("Inputs cannot be replicated on the same axes that another input is reduced on. "
                                    f"Got input type: {_short(aval)} and reduced spec: {reduced}")
    return frozenset(), reduced


def _linear(name: str, operands: Operands, params: dict) -> Axes:
    """Operations linear in their one operand (and moving data only): the operand's axes."""
    return operands.axes[0]


def _alike(name: str, operands: Operands, params: dict) -> Axes:
    """Operations picking among operands (``concatenate``, ``select_n``'s cases): every array operand's axes,
    which must agree."""
    states = set(operands.axes)
    return states.pop() if len(states) == 1 else _reduced_alike(name, operands, params)


def _select_n(name: str, operands: Operands, params: dict) -> Axes:
    return _alike(name, operands.subset(1), params)


def _add(name: str, operands: Operands, params: dict) -> Axes:
    """A sum of partial sums is a partial sum: both operands unreduced over the same axes, or neither."""
    (lhs_u, _), (rhs_u, _) = operands.axes
    if lhs_u != rhs_u:
        side, other = ("lhs", "rhs") if lhs_u else ("rhs", "lhs")
        raise ShardingTypeError(f"{side} is unreduced while {other} is not. `{name}` operation does not allow this "
                                f"because there will be implicit communication. Please reduce {side} via "
                                f"`reshard` before calling `{name}`.")
    if lhs_u:
        return lhs_u, frozenset()
    return _reduced_alike(name, operands, params)


def _mul(name: str, operands: Operands, params: dict) -> Axes:
    """A partial sum times a value the same on every device is a partial sum: one operand unreduced over axes the
    other is reduced over."""
    lhs, rhs = operands.avals
    (lhs_u, lhs_r), (rhs_u, rhs_r) = operands.axes
    if lhs_u and rhs_u:
        raise ShardingTypeError(f"lhs and rhs to `{name}` cannot be unreduced since {name} is bilinear. Got "
                                f"lhs={lhs_u}, rhs={rhs_u}")
    if lhs_u and not lhs_u <= rhs_r:
        raise ShardingTypeError(f"RHS should be reduced along the same axes LHS is unreduced on. Got lhs={_short(lhs)}"
                                f" and rhs={_short(rhs)}")
    if rhs_u and not rhs_u <= lhs_r:
        raise ShardingTypeError(f"LHS should be reduced along the same axes RHS is unreduced on. Got lhs={_short(lhs)}"
                                f" and rhs={_short(rhs)}")
    if lhs_u or rhs_u:
        return lhs_u | rhs_u, frozenset()
    return _reduced_alike(name, operands, params)


def _spec_unpacked(name: str, operands: Operands, params: dict) -> Axes:
    """Operations whose layout JAX 0.10.2 builds from the operand's entries alone: they refuse (un)reduced ones."""
    if operands.manual:
        return _reduced_alike(name, operands, params)
    raise ValueError("Using *pspec is dangerous when PartitionSpec has non-empty unreduced/reduced set. Please use "
                     "*spec.partitions")


def _spec_indexed(name: str, operands: Operands, params: dict) -> Axes:
    """Operations whose layout JAX 0.10.2 builds by indexing the operand's entries: they refuse (un)reduced ones."""
    if operands.manual:
        return _reduced_alike(name, operands, params)
    raise sharding_types.spec_indexed_error()


def _without_rule(name: str, operands: Operands, params: dict) -> Axes:
    """Operations JAX 0.10.2 has no rule for on unreduced or reduced operands."""
    if any(u or r for u, r in operands.axes):
        raise NotImplementedError(f"unreduced/reduced rule for {name} is not implemented. Please file an issue at "
                                  "https://github.com/jax-ml/jax/issues")
    return _NONE


def _out_sharding_axes(out_sharding: Any) -> Axes:
    if out_sharding is None:
        return _NONE
    resolved = sharding_types.resolve_out_sharding(out_sharding)
    return resolved.spec.unreduced, resolved.spec.reduced


def _dot_general(name: str, operands: Operands, params: dict) -> Axes:
    """A contraction's result is unreduced over the axes splitting its contracting dimensions when
    ``out_sharding`` says so (the partial products are not summed); operands reduced over axes contract as
    replicated ones."""
    if operands.manual:
        return _reduced_alike(name, operands, params)
    unreduced, reduced = _out_sharding_axes(params["out_sharding"])
    if unreduced:
        (lhs_contract, rhs_contract), _ = params["dimension_numbers"]
        lhs, rhs = (sharding_types.spec_of(a) for a in operands.avals)
        lhs_spec, rhs_spec = tuple(lhs[d] for d in lhs_contract), tuple(rhs[d] for d in rhs_contract)
        if lhs_spec != rhs_spec:
            raise ShardingTypeError("lhs and rhs contracting dims should be sharded identically when out_sharding "
                                    "provided to dot_general mentions unreduced_axes. Got "
                                    f"lhs_contracting_spec={lhs_spec}, rhs_contracting_spec={rhs_spec}")
        split = {a for e in lhs_spec if e is not None for a in (e if isinstance(e, tuple) else (e,))}
        if split != unreduced:
            raise ShardingTypeError("out_sharding's unreduced axes should be equal to the contracting specs. Got "
                                    f"unreduced axes={unreduced} and contracting spec={lhs_spec}")
    if any(u for u, _ in operands.axes):
        lhs, rhs = operands.avals
        raise ShardingTypeError(f"lhs or rhs passed to dot_general cannot be unreduced. Got lhs={lhs!r} and "
                                f"rhs={rhs!r}")
    return unreduced, reduced


def result_axes(primitive: core.Primitive, avals: Sequence[Any], params: dict) -> Axes:
    """The Explicit axes ``primitive``'s results are unreduced and reduced over, checking its operands' (JAX's
    errors)."""
    return _rules.get(primitive, _reduced_alike)(primitive.name, Operands(avals, manual=False), params)


def _manual_result_axes(primitive: core.Primitive, avals: Sequence[Any], params: dict) -> Axes | None:
    """The manual axes ``primitive``'s results are unreduced and reduced over inside a ``shard_map`` checking
    types; None for primitives typed by their jaxprs."""
    if vma.holds_jaxprs(params):
        return None
    rule = _rules.get(primitive)
    if rule is None and not any(getattr(a, "unreduced", None) or getattr(a, "reduced", None) for a in avals):
        return _NONE
    return (rule or _reduced_alike)(primitive.name, Operands(avals, manual=True), params)


def _given_axes(primitive: core.Primitive, avals: Sequence[Any], params: dict) -> bool:
    """Whether the results of ``primitive`` may carry unreduced or reduced axes: an operand does, or an
    ``out_sharding`` names some."""
    if carries_axes(avals):
        return True
    out_sharding = params.get("out_sharding")
    return isinstance(out_sharding, NamedSharding) and bool(out_sharding.spec.unreduced or out_sharding.spec.reduced)


def _named(params: dict) -> frozenset:
    return frozenset(params["axes"] if "axes" in params else params["axis_name"])


def _keep(mine: frozenset, named: frozenset) -> frozenset:
    return mine


def _casting(unreduced: Callable, reduced: Callable) -> AxesRule:
    """The rule of a collective changing how its operand relates to the named axes: ``unreduced(operand's,
    named)`` and ``reduced(operand's, named)`` give the result's."""
    def rule(name: str, operands: Operands, params: dict) -> Axes:
        (mine_u, mine_r), named = operands.axes[0], _named(params)
        return unreduced(mine_u, named), reduced(mine_r, named)

    return rule


def _resharding_scalars(primitive: core.Primitive, previous: Callable | None) -> Callable:
    """A staging rewrite of ``primitive`` (an elementwise one of several operands): where an operand is reduced
    over Explicit axes, a scalar operand laid out plainly is first resharded to be reduced alike (as JAX stages
    it)."""
    def rewrite(args: Sequence[Any], params: dict) -> Any:
        if core.type_shardings is not None:
            avals = [get_aval(x) for x in args]
            layout = next((a.explicit_sharding for a in avals if a.ndim and operand_axes(a)[1]), None)
            plain = [a.ndim == 0 and operand_axes(a) == _NONE for a in avals]
            if layout is not None and any(plain):
                target = NamedSharding(layout.mesh, PartitionSpec(reduced=layout.spec.reduced))
                return primitive.bind(*[reshard_p.bind(x, dst_sharding=target) if p else x
                                        for x, p in zip(args, plain)], **params)
        return previous(args, params) if previous is not None else None

    return rewrite


def _install_scalar_reshards() -> None:
    for primitive in (elementwise.add_p, elementwise.sub_p, elementwise.mul_p, elementwise.div_p, elementwise.rem_p,
                      elementwise.pow_p, elementwise.max_p, elementwise.min_p, elementwise.atan2_p,
                      elementwise.nextafter_p, elementwise.eq_p, elementwise.ne_p, elementwise.lt_p, elementwise.le_p,
                      elementwise.gt_p, elementwise.ge_p, elementwise.and_p, elementwise.or_p, elementwise.xor_p):
        staging_rewrites[primitive] = _resharding_scalars(primitive, staging_rewrites.get(primitive))


sharding_types.when_enabled(_install_scalar_reshards)
sharding_types.axes_rule = result_axes
sharding_types.may_carry_axes = _given_axes
vma.result_reductions = _manual_result_axes

for _primitive in (structural.convert_element_type_p, structural.transpose_p, structural.broadcast_in_dim_p,
                   structural.squeeze_p, structural.pad_p, slicing.slice_p, reductions.reduce_sum_p, copy_p,
                   stop_gradient_p):
    _rules[_primitive] = _linear
_rules[structural.concatenate_p] = _alike
_rules[structural.select_n_p] = _select_n
_rules[elementwise.add_p] = _add
_rules[add_any_p] = _add
_rules[elementwise.mul_p] = _mul
for _primitive in (structural.reshape_p, reductions.reduce_max_p, reductions.reduce_min_p, reductions.reduce_prod_p):
    _rules[_primitive] = _spec_unpacked
for _primitive in (reductions.argmax_p, reductions.argmin_p, sorting.sort_p, cumulative.cumsum_p, cumulative.cumprod_p,
                   cumulative.cummax_p, cumulative.cummin_p, cumulative.cumlogsumexp_p):
    _rules[_primitive] = _spec_indexed
for _primitive in (elementwise.integer_pow_p, structural.clamp_p, structural.rev_p):
    _rules[_primitive] = _without_rule
_rules[dot_general_p] = _dot_general
_rules.update({
    parallel.all_gather_reduced_p: _casting(_keep, lambda mine, named: mine | named),
    parallel.preduced_p: _casting(_keep, lambda mine, named: mine | named),
    parallel.reduced_vary_cast_p: _casting(_keep, lambda mine, named: mine - named),
    parallel.vary_unreduced_cast_p: _casting(lambda mine, named: mine | named, _keep),
    parallel.unreduced_psum_p: _casting(lambda mine, named: mine - named, _keep),
    parallel.unreduced_reduce_scatter_p: _casting(lambda mine, named: mine - named, _keep),
})
