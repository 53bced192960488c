"""Batching of ``add_any``, the sum of tangents that AD introduces: both tangents must have the same type, so an
unbatched one is broadcast to the batched one's shape (never widened to a batch of one)."""

from __future__ import annotations

from jaxle_core.ad.jvp import add_any_p
from jaxle_core.avals import get_aval
from jaxle_core.batching.trace import batching_rules, insert_dim, move_dim


def _add_any_rule(vals, dims):
    (x, y), (x_dim, y_dim) = vals, dims
    if x_dim == y_dim:
        return add_any_p.bind(x, y), x_dim
    if x_dim is None:
        return add_any_p.bind(insert_dim(x, get_aval(y).shape[y_dim], y_dim), y), y_dim
    if y_dim is None:
        return add_any_p.bind(x, insert_dim(y, get_aval(x).shape[x_dim], x_dim)), x_dim
    return add_any_p.bind(move_dim(x, x_dim, y_dim), y), y_dim


batching_rules[add_any_p] = _add_any_rule
