"""``jax.nn.dot_product_attention``: scaled dot-product attention with grouped key/value heads, bias, boolean and
causal masks, sliding windows and per-example sequence lengths, computed by XLA's ordinary operations as JAX
0.10.2's ``implementation='xla'`` does (the cuDNN kernel needs a GPU)."""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

import jaxle_numpy as jnp
from jaxle.nn.normalization import softmax
from jaxle_core import lax, vmap
from jaxle_numpy.scipy.special.log_sum_exp import logsumexp

__all__ = ["dot_product_attention"]

Array = Any
ArrayLike = Any


def _large_negative(dtype: np.dtype) -> Array:
    """The logit masked positions get: far below any real logit, yet finite so a fully masked row stays finite."""
    return jnp.asarray(-0.7 * jnp.finfo(dtype).max, dtype=dtype)


def _causal_mask(t: int, s: int) -> Array:
    return jnp.tril(jnp.ones((t, s), dtype=jnp.bool_))[None, None, :, :]


def _window_mask(t: int, s: int, window: tuple[int, int]) -> Array:
    """Keys within ``window`` (left, right) positions of each query."""
    query_pos = jnp.array(range(t))
    key_pos = jnp.array(range(s))
    left, right = window
    left_mask = query_pos[..., None] <= key_pos[..., None, :] + left
    right_mask = query_pos[..., None] >= key_pos[..., None, :] - right
    return jnp.logical_and(right_mask, left_mask)[None, None, :, :]


def _padding_mask(t: int, s: int, query_lengths: Array | None, key_value_lengths: Array | None) -> Array:
    """Per example, the (query, key) pairs both before that example's sequence lengths."""
    query_mask = key_value_mask = True
    if query_lengths is not None:
        positions = jnp.arange(0, t, dtype=query_lengths.dtype)
        query_mask = positions[None, :, None] < query_lengths[:, None, None]
    if key_value_lengths is not None:
        positions = jnp.arange(0, s, dtype=key_value_lengths.dtype)
        key_value_mask = positions[None, None, :] < key_value_lengths[:, None, None]
    return jnp.logical_and(query_mask, key_value_mask)[:, None, :, :]


def _apply_masks(logits: Array, mask: Array | None, is_causal: bool, query_lengths: Array | None,
                 key_value_lengths: Array | None, window: tuple[int, int] | None) -> Array:
    if mask is None and not is_causal and query_lengths is None and key_value_lengths is None and window is None:
        return logits
    combined = jnp.ones_like(logits, dtype=jnp.bool_)
    if mask is not None:
        combined = jnp.logical_and(combined, mask)
    t, s = logits.shape[2], logits.shape[3]
    if is_causal:
        combined = jnp.logical_and(combined, _causal_mask(t, s))
    if window is not None:
        combined = jnp.logical_and(combined, _window_mask(t, s, window))
    if query_lengths is not None or key_value_lengths is not None:
        combined = jnp.logical_and(combined, _padding_mask(t, s, query_lengths, key_value_lengths))
    return jnp.where(combined, logits, _large_negative(logits.dtype))


def _attention_one_group(query: Array, key: Array, value: Array, bias: Array | None, mask: Array | None,
                         is_causal: bool, scale: float, query_lengths: Array | None,
                         key_value_lengths: Array | None, window: tuple[int, int] | None,
                         return_residual: bool) -> Any:
    """Attention of one query group (``query`` is ``[B, T, K, H]``): logits in at least float32, softmax in
    float32, probabilities back in the keys' dtype."""
    logits_dtype = jnp.promote_types(query.dtype, jnp.float32)
    logits = jnp.einsum("BTNH,BSNH->BNTS", query, key, preferred_element_type=logits_dtype)
    logits *= jnp.array(scale, dtype=logits.dtype)
    if bias is not None:
        logits = (logits + bias).astype(logits.dtype)
    padded_logits = _apply_masks(logits, mask, is_causal, query_lengths, key_value_lengths, window)
    padded_logits = padded_logits.astype(jnp.float32)
    probs = softmax(padded_logits, axis=-1).astype(key.dtype)
    encoded = jnp.einsum("BNTS,BSNH->BTNH", probs, value)
    if query_lengths is not None and key_value_lengths is not None:
        # Queries past their example's length attended to nothing: their outputs are zeroed.
        rows = jnp.arange(0, encoded.shape[1], dtype=query_lengths.dtype)[None, :] < query_lengths[:, None]
        encoded *= rows[:, :, None, None].astype(encoded.dtype)
    if not return_residual:
        return encoded
    residual = lax.stop_gradient(jnp.transpose(logsumexp(padded_logits, axis=-1), (0, 2, 1)))
    return encoded, residual


def _grouped(t: Array | None, k: int, g: int) -> Array | None:
    """A ``[B, N, T, S]`` bias or mask as ``[B, K, G, T, S]`` (broadcast heads stay broadcast)."""
    if t is None:
        return None
    b, n, t_len, s = t.shape
    if n == 1:
        return jnp.broadcast_to(t[:, :, None, :, :], (b, n, g, t_len, s))
    return jnp.reshape(t, (b, k, g, t_len, s))


def _attention_xla(query: Array, key: Array, value: Array, bias: Array | None, mask: Array | None,
                   is_causal: bool, scale: float, query_lengths: Array | None, key_value_lengths: Array | None,
                   window: tuple[int, int] | None, return_residual: bool) -> Any:
    """Grouped-query attention: the query heads split into ``K`` groups sharing each key/value head, the groups
    mapped over with vmap."""
    b, t, n, h = query.shape
    k = key.shape[2]
    g = n // k
    query = jnp.reshape(query, (b, t, k, g, h))
    bias, mask = _grouped(bias, k, g), _grouped(mask, k, g)
    per_group = vmap(_attention_one_group, in_axes=(3, None, None, 2, 2, None, None, None, None, None, None),
                     out_axes=3)
    out = per_group(query, key, value, bias, mask, is_causal, scale, query_lengths, key_value_lengths, window,
                    return_residual)
    if return_residual:
        encoded, residual = out
        return jnp.reshape(encoded, (b, t, n, h)), jnp.reshape(residual, (b, t, n))
    return jnp.reshape(out, (b, t, n, h))


def _check_shape_and_dtype(t: Array | None, shape: list[int], dtype: Any, name: str) -> None:
    if t is None:
        return
    if t.ndim != len(shape):
        raise ValueError(f"{name} ndim should be {len(shape)}, but got {t.ndim}")
    if dtype is not None and t.dtype != dtype:
        raise ValueError(f"{name} dtype should be {np.dtype(dtype)}, but got {t.dtype}")
    for expected, actual in zip(shape, t.shape):
        if expected != -1 and expected != actual:
            raise ValueError(f"{name} shape should be {shape}: but got {t.shape}")


def _as_4d(t: ArrayLike) -> Array:
    t = jnp.asarray(t)
    missing = 4 - t.ndim
    return jnp.expand_dims(t, axis=tuple(range(missing))) if missing > 0 else t


def dot_product_attention(query: ArrayLike, key: ArrayLike, value: ArrayLike, bias: ArrayLike | None = None,
                          mask: ArrayLike | None = None, *, scale: float | None = None, is_causal: bool = False,
                          query_seq_lengths: ArrayLike | None = None,
                          key_value_seq_lengths: ArrayLike | None = None,
                          local_window_size: int | tuple[int, int] | None = None,
                          implementation: Literal["xla", "cudnn"] | None = None,
                          return_residual: bool = False) -> Any:
    """``softmax(query @ key^T * scale + bias, masked) @ value`` over ``[batch, length, heads, head_dim]`` arrays
    (the batch dimension may be left out): ``N`` query heads share ``K`` key/value heads when ``K`` divides ``N``;
    ``mask`` (boolean), ``is_causal``, ``local_window_size`` and the per-example sequence lengths exclude keys;
    ``scale`` defaults to ``1/sqrt(head_dim)``. With ``return_residual``, also the logsumexp of each query's
    logits (``[batch, length, heads]``)."""
    output_shape = jnp.asarray(query).shape
    query_arr, key_arr, value_arr = _as_4d(query), _as_4d(key), _as_4d(value)
    bias = None if bias is None else _as_4d(bias)
    mask = None if mask is None else _as_4d(mask)
    query_lengths = None if query_seq_lengths is None else jnp.asarray(query_seq_lengths)
    key_value_lengths = None if key_value_seq_lengths is None else jnp.asarray(key_value_seq_lengths)
    window = (local_window_size, local_window_size) if isinstance(local_window_size, int) else local_window_size

    b, s, k, h = key_arr.shape
    _check_shape_and_dtype(value_arr, [b, s, k, h], key_arr.dtype, "value")
    _check_shape_and_dtype(query_arr, [b, -1, -1, h], key_arr.dtype, "query")
    _check_shape_and_dtype(mask, [-1] * 4, jnp.bool_, "mask")
    _check_shape_and_dtype(bias, [-1] * 4, None, "bias")
    _check_shape_and_dtype(query_lengths, [b], jnp.int32, "query_seq_lengths")
    _check_shape_and_dtype(key_value_lengths, [b], jnp.int32, "key_value_seq_lengths")
    if query_arr.shape[-2] % k != 0:
        raise ValueError("The number of query heads must be a multiple of key/value heads, but got "
                         f"{query_arr.shape[-2]} vs {k}")
    scale_value = 1.0 / np.sqrt(h) if scale is None else scale

    if implementation == "cudnn":
        raise RuntimeError("cuDNN is not detected.")
    if implementation not in (None, "xla"):
        raise ValueError(f"Unsupported implementation option: {implementation}")
    out = _attention_xla(query_arr, key_arr, value_arr, bias, mask, is_causal, scale_value, query_lengths,
                         key_value_lengths, window, return_residual)
    if return_residual:
        encoded, residual = out
        return jnp.reshape(encoded, output_shape), jnp.reshape(residual, output_shape[:-1])
    return jnp.reshape(out, output_shape)


