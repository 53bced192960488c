"""Batching of host callbacks.

``pure_callback`` follows its ``vmap_method``: ``sequential`` calls it once per batch element (a ``scan``),
the others call it once on the whole batch, moved to the leading dimension, with the unbatched arguments given
a size-1 leading dimension (``expand_dims``), broadcast to the batch (``broadcast_all``) or left as they are
(``legacy_vectorized``). An unordered ``io_callback`` is called once per element; an ordered one cannot be
batched, as in JAX.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxle_core.avals import get_aval
from jaxle_core.batching.trace import batching_rules, move_dim
from jaxle_core.callbacks import io_callback_p, pure_callback_p
from jaxle_core.core import Primitive
from jaxle_core.lax.control_flow.scan import scan
from jaxle_core.lax.structural import broadcast_in_dim, expand_dims


def batch_size(vals: Sequence[Any], dims: Sequence[int | None]) -> int:
    return next(get_aval(v).shape[d] for v, d in zip(vals, dims) if d is not None)


def call_per_element(primitive: Primitive, vals: Sequence[Any], dims: Sequence[int | None], unroll: int | bool = 1,
                     **params: Any) -> list[Any]:
    """``primitive`` applied to each batch element in turn (a ``scan`` over the batched operands); the unbatched
    ones are the scan's constants."""
    def body(carry: Any, xs: list[Any]) -> tuple[Any, list[Any]]:
        elements = iter(xs)
        return carry, primitive.bind(*[v if d is None else next(elements) for v, d in zip(vals, dims)], **params)

    _, outs = scan(body, (), [move_dim(v, d, 0) for v, d in zip(vals, dims) if d is not None], unroll=unroll)
    return outs


def _pure_callback_batch(vals, dims, *, callback, result_avals, sharding, vmap_method):
    params = dict(callback=callback, result_avals=result_avals, sharding=sharding, vmap_method=vmap_method)
    if vmap_method is None:
        raise NotImplementedError(
            "vmap is only supported for the pure_callback primitive when vmap_method is one of 'sequential', "
            "'sequential_unrolled', 'expand_dims', 'broadcast_all', or 'legacy_vectorized'. Got vmap_method=None.")
    if vmap_method in ("sequential", "sequential_unrolled"):
        outs = call_per_element(pure_callback_p, vals, dims, unroll=vmap_method == "sequential_unrolled", **params)
        return outs, [0] * len(outs)
    size = batch_size(vals, dims)
    args = []
    for v, d in zip(vals, dims):
        if d is not None:
            args.append(move_dim(v, d, 0))
        elif vmap_method == "expand_dims":
            args.append(expand_dims(v, (0,)))
        elif vmap_method == "broadcast_all":
            shape = get_aval(v).shape
            args.append(broadcast_in_dim(v, (size, *shape), tuple(range(1, len(shape) + 1))))
        else:
            args.append(v)
    params["result_avals"] = tuple(a.update(shape=(size, *a.shape)) for a in result_avals)
    outs = pure_callback_p.bind(*args, **params)
    return outs, [0] * len(outs)


def _io_callback_batch(vals, dims, *, ordered, **params):
    if ordered:
        raise ValueError("Cannot `vmap` ordered IO callback.")
    outs = call_per_element(io_callback_p, vals, dims, ordered=ordered, **params)
    return outs, [0] * len(outs)


batching_rules[pure_callback_p] = _pure_callback_batch
batching_rules[io_callback_p] = _io_callback_batch
