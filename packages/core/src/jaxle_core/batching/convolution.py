"""Batching of ``conv_general_dilated``: the batch dimension is folded into the batch or feature dimensions
(within each group when there are several) and split out of the result."""

from __future__ import annotations

from typing import Any

from jaxle_core.avals import get_aval
from jaxle_core.batching.trace import batching_rules
from jaxle_core.lax.convolution import conv_general_dilated_p
from jaxle_core.lax.structural import merge_axis, split_axis


def _regroup(x: Any, bdim: int, dim: int, groups: int) -> Any:
    """Fold batch dimension ``bdim`` into ``dim`` inside each of its ``groups`` leading groups."""
    x = split_axis(x, dim + int(bdim <= dim), groups)
    x = merge_axis(x, bdim + int(dim < bdim), dim + 1)
    return merge_axis(x, dim, dim)


def _conv_rule(vals, dims, **params):
    lhs, rhs = vals
    lhs_bdim, rhs_bdim = dims
    lhs_spec, rhs_spec, out_spec = params["dimension_numbers"]
    feature_groups, batch_groups = params["feature_group_count"], params["batch_group_count"]
    bind = conv_general_dilated_p.bind
    if lhs_bdim is not None and rhs_bdim is not None:
        size = get_aval(lhs).shape[lhs_bdim]
        if batch_groups > 1:
            new_lhs = merge_axis(lhs, lhs_bdim, lhs_spec[0])
            params = dict(params, batch_group_count=batch_groups * size)
        else:
            new_lhs = merge_axis(lhs, lhs_bdim, lhs_spec[1])
            params = dict(params, feature_group_count=feature_groups * size)
        out = bind(new_lhs, merge_axis(rhs, rhs_bdim, rhs_spec[0]), **params)
        return split_axis(out, out_spec[1], size), out_spec[1]
    if lhs_bdim is not None:
        size = get_aval(lhs).shape[lhs_bdim]
        if batch_groups == 1:
            new_lhs = merge_axis(lhs, lhs_bdim, lhs_spec[0])
        else:
            new_lhs = _regroup(lhs, lhs_bdim, lhs_spec[0], batch_groups)
        return split_axis(bind(new_lhs, rhs, **params), out_spec[0], size), out_spec[0]
    size = get_aval(rhs).shape[rhs_bdim]
    if feature_groups == 1 and batch_groups == 1:
        out = bind(lhs, merge_axis(rhs, rhs_bdim, rhs_spec[0]), **params)
        return split_axis(out, out_spec[1], size), out_spec[1]
    groups = feature_groups if feature_groups > 1 else batch_groups
    out = bind(lhs, _regroup(rhs, rhs_bdim, rhs_spec[0], groups), **params)
    out = split_axis(out, out_spec[1], groups)
    out = split_axis(out, out_spec[1] + 1, size)
    return merge_axis(out, out_spec[1], out_spec[1] + 1), out_spec[1]


batching_rules[conv_general_dilated_p] = _conv_rule
