"""Derivative rules of the named-axis collectives (``lax/parallel.py``).

``psum``, ``all_gather``, ``reduce_scatter``, ``all_to_all``, ``ppermute`` and
``pbroadcast`` are linear. Their transposes, as JAX's: ``psum`` is its own transpose over the named
axes (positional axes transpose to a broadcast), ``all_gather`` and
``reduce_scatter`` transpose to each other, ``all_to_all`` swaps its split and
concat axes, ``ppermute`` applies the inverse permutation, ``pbroadcast`` gives the
source member the sum of the (scalar) cotangents. ``pmax``/``pmin`` have no
derivative rule, as in JAX; ``axis_index`` takes no operand.
"""

from __future__ import annotations

import numpy as np

from jaxle_core.ad.rule_helpers import deflinear
from jaxle_core.ad.transpose import transpose_rules
from jaxle_core.avals import get_aval
from jaxle_core.lax import elementwise as ew
from jaxle_core.lax import parallel as par
from jaxle_core.lax import structural as st

for _primitive in (par.psum_p, par.all_gather_p, par.reduce_scatter_p, par.all_to_all_p, par.ppermute_p,
                   par.pbroadcast_p):
    deflinear(_primitive)


def _psum_transpose(ct, x, *, axes, axis_index_groups):
    named, positional = par.split_axes(axes)
    if positional:
        kept = tuple(np.int64(i) for i in range(len(x.aval.shape)) if i not in positional)
        ct = st.broadcast_in_dim_p.bind(ct, shape=x.aval.shape, broadcast_dimensions=kept, sharding=None)
    return [par.psum_p.bind(ct, axes=named, axis_index_groups=axis_index_groups)]


def _all_gather_transpose(ct, x, *, all_gather_dimension, axis_name, axis_index_groups, axis_size, tiled):
    return [par.reduce_scatter_p.bind(ct, axis_name=axis_name, scatter_dimension=all_gather_dimension,
                                      axis_index_groups=axis_index_groups, axis_size=axis_size, tiled=tiled)]


def _reduce_scatter_transpose(ct, x, *, axis_name, scatter_dimension, axis_index_groups, axis_size, tiled):
    return [par.all_gather_p.bind(ct, all_gather_dimension=scatter_dimension, axis_name=axis_name,
                                  axis_index_groups=axis_index_groups, axis_size=axis_size, tiled=tiled)]


def _all_to_all_transpose(ct, x, *, split_axis, concat_axis, axis_name, axis_index_groups, tiled):
    return [par.all_to_all_p.bind(ct, split_axis=concat_axis, concat_axis=split_axis, axis_name=axis_name,
                                  axis_index_groups=axis_index_groups, tiled=tiled)]


def _pbroadcast_transpose(ct, x, *, axis_name, source):
    # The source member receives every member's cotangent, the others nothing. JAX 0.10.2 builds the result with
    # lax.full, so only scalar cotangents transpose; others raise its TypeError.
    shape = get_aval(ct).shape
    if shape:
        raise TypeError(f"full must be called with scalar fill_value, got fill_value.shape {shape}.")
    is_source = ew.eq(par.axis_index(axis_name), source)
    total = par.psum_p.bind(ct, axes=par.axis_names(axis_name), axis_index_groups=None)
    if x.aval.weak_type:  # filled like the operand, whose weak type it keeps
        total = st.convert_keeping_weak_type(total, x.aval.dtype, True)
    return [st.select_n(is_source, np.zeros((), x.aval.dtype), total)]


def _ppermute_transpose(ct, x, *, axis_name, perm):
    return [par.ppermute_p.bind(ct, axis_name=axis_name, perm=tuple((j, i) for i, j in perm))]


transpose_rules[par.psum_p] = _psum_transpose
transpose_rules[par.all_gather_p] = _all_gather_transpose
transpose_rules[par.reduce_scatter_p] = _reduce_scatter_transpose
transpose_rules[par.all_to_all_p] = _all_to_all_transpose
transpose_rules[par.ppermute_p] = _ppermute_transpose
transpose_rules[par.pbroadcast_p] = _pbroadcast_transpose
