"""Batching of host callbacks.

``pure_callback`` follows its ``vmap_method``: ``sequential`` calls it once per batch element (a ``scan``),
the others call it once on the whole batch, moved to the leading dimension, with the unbatched arguments given
a size-1 leading dimension (``expand_dims``), broadcast to the batch (``broadcast_all``) or left as they are
(``legacy_vectorized``). An unordered ``io_callback`` is called once per element; an ordered one cannot be
batched, as in JAX.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from jaxle_core.avals import ShapedArray, get_aval
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


def batch_by_vmap_method(primitive: Primitive, vals: Sequence[Any], dims: Sequence[int | None],
                         params: dict[str, Any],
                         widen: Callable[[int, Sequence[Any], dict[str, Any]], dict[str, Any]]) -> tuple[list, list]:
    """Batch a call of ``primitive`` (``pure_callback``, ``ffi_call``) as its ``vmap_method`` param says.

    ``widen(size, args, params)`` gives the params of one call on the whole batch of ``size`` (results with a
    leading batch dimension) on the arguments ``args`` as that method prepares them."""
    vmap_method = params["vmap_method"]
    if vmap_method is None:
        raise NotImplementedError(
            f"vmap is only supported for the {primitive.name} primitive when vmap_method is one of 'sequential', "
            "'sequential_unrolled', 'expand_dims', 'broadcast_all', or 'legacy_vectorized'. Got vmap_method=None.")
    if vmap_method in ("sequential", "sequential_unrolled"):
        outs = call_per_element(primitive, vals, dims, unroll=vmap_method == "sequential_unrolled", **params)
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
    outs = primitive.bind(*args, **widen(size, args, params))
    return outs, [0] * len(outs)


def batched_result_avals(size: int, result_avals: Sequence[ShapedArray]) -> tuple[ShapedArray, ...]:
    return tuple(a.update(shape=(size, *a.shape)) for a in result_avals)


def _pure_callback_batch(vals, dims, **params):
    return batch_by_vmap_method(pure_callback_p, vals, dims, params, lambda size, args, p: {
        **p, "result_avals": batched_result_avals(size, p["result_avals"])})


def _io_callback_batch(vals, dims, *, ordered, **params):
    if ordered:
        raise ValueError("Cannot `vmap` ordered IO callback.")
    outs = call_per_element(io_callback_p, vals, dims, ordered=ordered, **params)
    return outs, [0] * len(outs)


batching_rules[pure_callback_p] = _pure_callback_batch
batching_rules[io_callback_p] = _io_callback_batch
