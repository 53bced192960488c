"""Derivative rules of the named-axis collectives (``lax/parallel.py``).

``psum``, ``all_gather``, ``reduce_scatter``, ``all_to_all``, ``ppermute`` and
``pbroadcast`` are linear, ``ragged_all_to_all`` in its operand and output. Their
transposes, as JAX's: ``psum`` is its own transpose over the named axes (positional
axes transpose to a broadcast), ``all_gather`` and ``reduce_scatter`` transpose to
each other, ``all_to_all`` swaps its split and concat axes, ``ppermute`` applies the
inverse permutation, ``pbroadcast`` gives the source member the sum of the (scalar)
cotangents, ``ragged_all_to_all`` sends cotangents back with the offsets exchanged.
``pmax``/``pmin`` have no derivative rule, as in JAX; ``axis_index`` takes no operand. Inside a ``shard_map``
checking types, ``pvary`` and ``psum_invariant`` are linear and each other's transpose.
"""

from __future__ import annotations

import numpy as np

from jaxle_core.ad.rule_helpers import deflinear, deflinear_first
from jaxle_core.ad.transpose import is_undefined, transpose_rules
from jaxle_core.avals import get_aval
from jaxle_core.lax import cumulative as lax_cumulative
from jaxle_core.lax import elementwise as lax_elementwise
from jaxle_core.lax import parallel as lax_parallel
from jaxle_core.lax import slicing as lax_slicing
from jaxle_core.lax import structural as lax_structural

for _primitive in (lax_parallel.psum_p, lax_parallel.all_gather_p, lax_parallel.reduce_scatter_p,
                   lax_parallel.all_to_all_p, lax_parallel.ppermute_p, lax_parallel.pbroadcast_p,
                   lax_parallel.pvary_p, lax_parallel.psum_invariant_p, lax_parallel.all_gather_invariant_p,
                   lax_parallel.all_gather_reduced_p, lax_parallel.unreduced_reduce_scatter_p, lax_parallel.preduced_p,
                   lax_parallel.unreduced_psum_p, lax_parallel.reduced_vary_cast_p, lax_parallel.vary_unreduced_cast_p):
    deflinear(_primitive)


def _psum_transpose(ct, x, *, axes, axis_index_groups):
    named, positional = lax_parallel.split_axes(axes)
    if positional:
        kept = tuple(np.int64(i) for i in range(len(x.aval.shape)) if i not in positional)
        ct = lax_structural.broadcast_in_dim_p.bind(ct, shape=x.aval.shape, broadcast_dimensions=kept, sharding=None)
    return [lax_parallel.psum_p.bind(ct, axes=named, axis_index_groups=axis_index_groups)]


def _all_gather_transpose(ct, x, *, all_gather_dimension, axis_name, axis_index_groups, axis_size, tiled):
    return [lax_parallel.reduce_scatter_p.bind(ct, axis_name=axis_name, scatter_dimension=all_gather_dimension,
                                               axis_index_groups=axis_index_groups, axis_size=axis_size, tiled=tiled)]


def _all_gather_invariant_transpose(ct, x, *, all_gather_dimension, axis_name, axis_size, tiled):
    # Every member holds the whole cotangent: each takes back its own block (slicing at its varying index casts
    # the cotangent to vary, as the operand did).
    index = lax_parallel.axis_index(axis_name)
    if not tiled:
        return [lax_slicing.dynamic_index_in_dim(ct, index, all_gather_dimension, keepdims=False)]
    block = x.aval.shape[all_gather_dimension]
    start = lax_elementwise.mul(index, np.int32(block))
    return [lax_slicing.dynamic_slice_in_dim(ct, start, block, all_gather_dimension)]


def _reduce_scatter_transpose(ct, x, *, axis_name, scatter_dimension, axis_index_groups, axis_size, tiled):
    return [lax_parallel.all_gather_p.bind(ct, all_gather_dimension=scatter_dimension, axis_name=axis_name,
                                           axis_index_groups=axis_index_groups, axis_size=axis_size, tiled=tiled)]


def _all_to_all_transpose(ct, x, *, split_axis, concat_axis, axis_name, axis_index_groups, tiled):
    return [lax_parallel.all_to_all_p.bind(ct, split_axis=concat_axis, concat_axis=split_axis, axis_name=axis_name,
                                           axis_index_groups=axis_index_groups, tiled=tiled)]


def _pbroadcast_transpose(ct, x, *, axis_name, source):
    # The source member receives every member's cotangent, the others nothing. JAX 0.10.2 builds the result with
    # lax.full, so only scalar cotangents transpose; others raise its TypeError.
    shape = get_aval(ct).shape
    if shape:
        raise TypeError(f"full must be called with scalar fill_value, got fill_value.shape {shape}.")
    is_source = lax_elementwise.eq(lax_parallel.axis_index(axis_name), source)
    total = lax_parallel.psum_p.bind(ct, axes=lax_parallel.axis_names(axis_name), axis_index_groups=None)
    if x.aval.weak_type:  # filled like the operand, whose weak type it keeps
        total = lax_structural.convert_keeping_weak_type(total, x.aval.dtype, True)
    return [lax_structural.select_n(is_source, np.zeros((), x.aval.dtype), total)]


def _ppermute_transpose(ct, x, *, axis_name, perm):
    return [lax_parallel.ppermute_p.bind(ct, axis_name=axis_name, perm=tuple((j, i) for i, j in perm))]


transpose_rules[lax_parallel.psum_p] = _psum_transpose
transpose_rules[lax_parallel.pvary_p] = lambda ct, x, *, axes: [lax_parallel.psum_invariant_p.bind(ct, axes=axes)]
transpose_rules[lax_parallel.psum_invariant_p] = lambda ct, x, *, axes: [lax_parallel.pvary_p.bind(ct, axes=axes)]
transpose_rules[lax_parallel.all_gather_p] = _all_gather_transpose
transpose_rules[lax_parallel.all_gather_invariant_p] = _all_gather_invariant_transpose


def _all_gather_reduced_transpose(ct, x, *, all_gather_dimension, axis_name, axis_size, tiled):
    return [lax_parallel.unreduced_reduce_scatter_p.bind(ct, axis_name=axis_name, axis_size=axis_size, tiled=tiled,
                                                         scatter_dimension=all_gather_dimension)]


def _unreduced_reduce_scatter_transpose(ct, x, *, axis_name, scatter_dimension, axis_size, tiled):
    return [lax_parallel.all_gather_reduced_p.bind(ct, all_gather_dimension=scatter_dimension, axis_name=axis_name,
                                                   axis_size=axis_size, tiled=tiled)]


transpose_rules[lax_parallel.all_gather_reduced_p] = _all_gather_reduced_transpose
transpose_rules[lax_parallel.unreduced_reduce_scatter_p] = _unreduced_reduce_scatter_transpose
# A reduced value's cotangent is unreduced and back: each retyping transposes to its mirror image.
for _cast, _mirror in ((lax_parallel.preduced_p, lax_parallel.unreduced_psum_p),
                       (lax_parallel.reduced_vary_cast_p, lax_parallel.vary_unreduced_cast_p)):
    transpose_rules[_cast] = lambda ct, x, *, axes, mirror=_mirror: [mirror.bind(ct, axes=axes)]
    transpose_rules[_mirror] = lambda ct, x, *, axes, mirror=_cast: [mirror.bind(ct, axes=axes)]
transpose_rules[lax_parallel.reduce_scatter_p] = _reduce_scatter_transpose
transpose_rules[lax_parallel.all_to_all_p] = _all_to_all_transpose
transpose_rules[lax_parallel.ppermute_p] = _ppermute_transpose
transpose_rules[lax_parallel.pbroadcast_p] = _pbroadcast_transpose


# ---------------------------------------------------------------- ragged_all_to_all

deflinear_first(lax_parallel.ragged_all_to_all_p, instantiated=2)  # linear in the operand and the output jointly

_POINTS = lax_slicing.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                              scatter_dims_to_operand_dims=(0,))


def _filled(value, dtype, shape):
    return lax_structural.broadcast_in_dim(np.array(value, dtype), tuple(shape), ())


def _at_points(scatter, target, positions, value):
    """``target`` with ``value`` set/added at ``positions`` (negative ones counted from the end, out of range ones
    dropped), as JAX's indexed updates stage it."""
    extent = np.array(get_aval(target).shape[0], np.int32)
    wrapped = lax_structural.select_n(lax_elementwise.lt(positions, np.int32(0)), positions,
                                      lax_elementwise.add(positions, extent))
    indices = lax_structural.broadcast_in_dim(wrapped, (*get_aval(positions).shape, 1), (0,))
    updates = _filled(value, np.int32, get_aval(positions).shape)
    return scatter(target, indices, updates, _POINTS, mode=lax_slicing.GatherScatterMode.FILL_OR_DROP)


def _ragged_all_to_all_transpose(ct, operand, output, input_offsets, send_sizes, output_offsets, recv_sizes, *,
                                 axis_name, axis_index_groups):
    # As JAX's: the operand's cotangent travels back the way the data came (the offsets exchanged, so each member
    # reads where it wrote); the output's is the cotangent where nothing was written.
    params = dict(axis_name=axis_name, axis_index_groups=axis_index_groups)
    operand_aval = operand.aval if is_undefined(operand) else get_aval(operand)
    ct_aval = get_aval(ct)

    def exchange(offsets):
        return lax_parallel.all_to_all_p.bind(offsets, split_axis=0, concat_axis=0, tiled=True, **params)

    zeros = _filled(0, operand_aval.dtype, operand_aval.shape)
    written_at, read_at = exchange(output_offsets), exchange(input_offsets)
    operand_ct = lax_parallel.ragged_all_to_all_p.bind(ct, zeros, written_at, recv_sizes, read_at, send_sizes, **params)
    starts = _at_points(lax_slicing.scatter, _filled(0, np.int32, ct_aval.shape[:1]), written_at, 1)
    bounds = _at_points(lax_slicing.scatter_add, starts, lax_elementwise.add(written_at, recv_sizes), -1)
    written = lax_cumulative.cumsum(bounds, 0)
    if ct_aval.ndim > 1:  # a mask per row, broadcast along the row as JAX's where does
        rows = (ct_aval.shape[0],) + (1,) * (ct_aval.ndim - 1)
        written = lax_structural.broadcast_in_dim(written, rows, (0,))
        if rows != ct_aval.shape:
            written = lax_structural.broadcast_in_dim(written, ct_aval.shape, tuple(range(ct_aval.ndim)))
    output_ct = lax_structural.select_n(written, ct, _filled(0, ct_aval.dtype, ct_aval.shape))
    return [operand_ct if is_undefined(operand) else None, output_ct if is_undefined(output) else None,
            None, None, None, None]


transpose_rules[lax_parallel.ragged_all_to_all_p] = _ragged_all_to_all_transpose
