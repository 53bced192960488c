"""Derivative rules of the structural primitives (``lax/structural.py``): conversions, selection, clamping and
shape changes.

The shape changes are linear; each transposes to the change that undoes it (a pad to a crop, a concatenate to
a split, a broadcast to a sum). The equations match those JAX 0.10.2 emits.
"""

from __future__ import annotations

import numpy as np

from jaxle_core import lax
from jaxle_core.ad.jvp import Zero, add_tangents, instantiate, jvp_rules, tangent_aval
from jaxle_core.ad.rule_helpers import (
    auto_layout,
    broadcast_to_aval,
    const,
    deflinear,
    defzero,
    full_like,
    operand_aval,
    transposed_layout,
)
from jaxle_core.ad.transpose import is_undefined, transpose_rules
from jaxle_core.avals import get_aval
from jaxle_core.lax.reductions import reduce_sum_p
from jaxle_core.lax.slicing import slice_p
from jaxle_core.lax.structural import (
    bitcast_convert_type_p,
    broadcast_in_dim_p,
    clamp_p,
    concatenate_p,
    convert_element_type_p,
    iota_p,
    pad_p,
    reduce_precision_p,
    reshape_p,
    rev_p,
    select_n_p,
    split_p,
    squeeze_p,
    stack_p,
    tile_p,
    transpose_p,
    unstack_p,
)
from jaxle_core.mesh import PartitionSpec
from jaxle_core.sharding import NamedSharding

# ---------------------------------------------------------------- derivative zero and linear

for _p in (iota_p, bitcast_convert_type_p):
    defzero(_p)
for _p in (broadcast_in_dim_p, reshape_p, squeeze_p, transpose_p, rev_p, reduce_precision_p,
           split_p, unstack_p, tile_p):
    deflinear(_p)
deflinear(concatenate_p, instantiate_zeros=True)
deflinear(stack_p, instantiate_zeros=True)
deflinear(pad_p, instantiate_zeros=True)


def _convert_element_type_jvp(primals, tangents, **params):
    (x,), (t,) = primals, tangents
    ans = convert_element_type_p.bind(x, **params)
    out_aval = tangent_aval(get_aval(ans))
    if out_aval.dtype != get_aval(ans).dtype:
        return ans, Zero(out_aval)
    return ans, convert_element_type_p.bind(t, **params)


jvp_rules[convert_element_type_p] = _convert_element_type_jvp


def _select_n_jvp(primals, tangents):
    which, *cases = primals
    ans = select_n_p.bind(which, *cases)
    case_tangents = tangents[1:]
    if all(type(t) is Zero for t in case_tangents):
        return ans, Zero(tangent_aval(get_aval(ans)))
    # JAX makes the zeros standing for the zero tangents once, like the first other tangent, even when no
    # tangent is zero (a dead array of zeros, in the jaxpr)
    zero = instantiate(Zero(get_aval(next(t for t in case_tangents if type(t) is not Zero))))
    return ans, select_n_p.bind(which, *[zero if type(t) is Zero else t for t in case_tangents])


jvp_rules[select_n_p] = _select_n_jvp


def _clamp_jvp(primals, tangents):
    lo, x, hi = primals
    ans = clamp_p.bind(lo, x, hi)
    out_aval = get_aval(ans)
    zeros = full_like(ans, 0.0)
    total = Zero(tangent_aval(out_aval))
    t_lo, t_x, t_hi = (t if type(t) is Zero else broadcast_to_aval(t, out_aval) for t in tangents)
    if type(t_lo) is not Zero:
        total = add_tangents(total, lax.select_n(lax.lt(x, lo), zeros, t_lo))
    if type(t_x) is not Zero:
        inside = lax.bitwise_and(lax.gt(x, lo), lax.lt(x, hi))
        total = add_tangents(total, lax.select_n(inside, zeros, t_x))
    if type(t_hi) is not Zero:
        total = add_tangents(total, lax.select_n(lax.lt(hi, x), zeros, t_hi))
    return ans, total


jvp_rules[clamp_p] = _clamp_jvp


# ---------------------------------------------------------------- transposes: conversion


def _convert_element_type_transpose(ct, x, *, sharding, **params):
    # A complex cotangent of a real operand is converted directly (keeping its real part), as JAX does; one that
    # laid its operand out is laid out back as the operand's type.
    aval = x.aval
    back = None if sharding is None else aval.sharding
    ct_aval = get_aval(ct)
    if back is not None and (ct_aval.dtype, ct_aval.weak_type, ct_aval.sharding) == (aval.dtype, aval.weak_type, back):
        return [ct]  # already of the operand's type: forwarded, as JAX forwards the conversion
    return [convert_element_type_p.bind(ct, new_dtype=aval.dtype, weak_type=aval.weak_type, sharding=back)]


transpose_rules[convert_element_type_p] = _convert_element_type_transpose
transpose_rules[reduce_precision_p] = lambda ct, x, **params: [reduce_precision_p.bind(ct, **params)]


# ---------------------------------------------------------------- transposes: shapes


def _broadcast_in_dim_transpose(ct, x, *, shape, broadcast_dimensions, sharding):
    # As JAX: every size-1 operand dimension is summed and put back (whether or not it was broadcast), and the
    # sum is staged even over no axes (the transpose of an identity broadcast linear_transpose records)
    expanded = tuple(i for i, d in enumerate(x.aval.shape) if d == 1)
    new_dims = [i for i in range(len(shape)) if i not in broadcast_dimensions]
    summed = tuple(sorted(new_dims + [broadcast_dimensions[i] for i in expanded]))
    reduced = lax.reduce_sum(ct, summed, out_sharding=transposed_layout(x.aval, x.aval.ndim - len(expanded), expanded))
    # The kept dimensions come out in output order; permuted ``broadcast_dimensions`` need them put back in
    # operand order. (JAX 0.10.2 skips this and rejects the cotangent's shape; see docs/core.md.)
    kept_out_dims = [d for i, d in enumerate(broadcast_dimensions) if i not in expanded]
    order = tuple(int(i) for i in np.argsort(np.argsort(kept_out_dims)))
    if order != tuple(range(len(order))):
        reduced = lax.transpose(reduced, order)
    return [lax.expand_dims(reduced, expanded) if expanded else reduced]


transpose_rules[broadcast_in_dim_p] = _broadcast_in_dim_transpose


def _reshape_transpose(ct, x, *, new_sizes, dimensions, sharding):
    # as JAX's, the cotangent is reshaped to the operand's type (its dimensions permuted when ``dimensions`` are)
    layout = getattr(x.aval, "explicit_sharding", None) or auto_layout(x.aval, x.aval.ndim)
    if dimensions is None:
        return [lax.reshape(ct, x.aval.shape, out_sharding=layout)]
    permuted = tuple(x.aval.shape[d] for d in dimensions)
    if layout is not None:
        spec = layout.spec
        layout = NamedSharding(layout.mesh, PartitionSpec(*(spec[d] for d in dimensions), unreduced=spec.unreduced,
                                                          reduced=spec.reduced))
    inverse = tuple(int(i) for i in np.argsort(dimensions))
    return [lax.transpose(lax.reshape(ct, permuted, out_sharding=layout), inverse)]


transpose_rules[reshape_p] = _reshape_transpose
transpose_rules[squeeze_p] = lambda ct, x, *, dimensions: [lax.expand_dims(ct, dimensions)]
transpose_rules[transpose_p] = lambda ct, x, *, permutation: [
    lax.transpose(ct, tuple(int(i) for i in np.argsort(permutation)))]
transpose_rules[rev_p] = lambda ct, x, *, dimensions: [lax.rev(ct, dimensions)]


# ---------------------------------------------------------------- transposes: selection


def _select_n_transpose(ct, which, *cases):
    """Each case's cotangent is ``ct`` where it was selected, else zero; as in JAX, a boolean ``which`` selects
    directly and an integer one through a mask ``which == i`` per case."""
    zeros = full_like(ct, 0)
    if operand_aval(which).dtype == np.bool_:
        return [None] + [lax.select_n(which, *[ct if j == i else zeros for j in range(len(cases))])
                         if is_undefined(case) else None for i, case in enumerate(cases)]
    return [None] + [lax.select_n(lax.eq(which, const(which, i)), zeros, ct) if is_undefined(case) else None
                     for i, case in enumerate(cases)]


transpose_rules[select_n_p] = _select_n_transpose


# ---------------------------------------------------------------- transposes: pad, concatenate, split, stack, tile


def _pad_transpose(ct, x, padding_value, *, padding_config):
    """The operand's cotangent is ``ct`` cropped and strided back; the padding value's is what is left over."""
    ndim = len(padding_config)
    low, high, interior = (np.array([c[i] for c in padding_config], np.int64) for i in range(3))
    cropped = pad_p.bind(ct, const(ct, 0), padding_config=tuple(zip(-low, -high, np.zeros_like(interior))))
    limits = tuple(int(d) for d in get_aval(cropped).shape)
    t_x = slice_p.bind(cropped, start_indices=tuple(np.zeros_like(low)), limit_indices=limits,
                       strides=tuple(interior + 1))
    t_value = None
    if is_undefined(padding_value):
        everything = tuple(range(ndim))
        t_value = lax.sub(lax.reduce_sum(ct, everything), lax.reduce_sum(t_x, everything))
    return [t_x if is_undefined(x) else None, t_value]


def _concatenate_transpose(ct, *operands, dimension):
    """The cotangent split back into the operands' pieces."""
    pieces = lax.split(ct, [operand_aval(x).shape[dimension] for x in operands], dimension)
    return [t if is_undefined(x) else None for t, x in zip(pieces, operands)]


def _split_transpose(cts, x, *, sizes, axis):
    """The cotangents joined back together, zeros standing in for symbolic zeros."""
    return [lax.concatenate([instantiate(t) for t in cts], axis)]


def _stack_transpose(ct, *operands, axis):
    """The cotangent unstacked back into the operands."""
    pieces = unstack_p.bind(ct, axis=axis)
    return [t if is_undefined(x) else None for t, x in zip(pieces, operands)]


def _unstack_transpose(cts, x, *, axis):
    """The cotangents stacked back together, zeros standing in for symbolic zeros."""
    return [stack_p.bind(*[instantiate(t) for t in cts], axis=axis)]


def _tile_transpose(ct, x, *, reps):
    """Each repetition of the cotangent summed: ``(r0, d0, r1, d1, ...)`` reduced over the ``r`` dimensions."""
    shape = x.aval.shape
    interleaved = tuple(s for r, d in zip(reps, shape) for s in (r, d))
    # bound directly: JAX emits both equations even where they change nothing (a scalar)
    parts = reshape_p.bind(ct, new_sizes=interleaved, dimensions=None, sharding=None)
    return [reduce_sum_p.bind(parts, axes=tuple(range(0, 2 * len(shape), 2)), out_sharding=None)]


transpose_rules[pad_p] = _pad_transpose
transpose_rules[concatenate_p] = _concatenate_transpose
transpose_rules[split_p] = _split_transpose
transpose_rules[stack_p] = _stack_transpose
transpose_rules[unstack_p] = _unstack_transpose
transpose_rules[tile_p] = _tile_transpose
