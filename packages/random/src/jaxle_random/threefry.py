"""The threefry2x32 block cipher as a primitive.

``threefry2x32_p(k1, k2, x1, x2)`` encrypts the counter pairs ``(x1, x2)`` with the key ``(k1, k2)``
(four uint32 arrays of one shape) and returns the two uint32 words of the result. The hash is written
once over a small table of operations, so the NumPy reference implementation and the lowering (traced
with lax) are the same code. The lowering is registered with jaxle_xla only once jaxle_xla is loaded:
this package never imports it, and runs on core's reference backend alone.
"""

from __future__ import annotations

import math
import sys
from types import SimpleNamespace
from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.batching.trace import batching_rules, move_dim
from jaxle_core.core import Primitive

__all__ = ["threefry2x32_p", "threefry_2x32"]

_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
_PARITY = np.uint32(0x1BD11BDA)

_NUMPY_OPS = SimpleNamespace(add=np.add, xor=np.bitwise_xor, shift_left=np.left_shift,
                             shift_right=np.right_shift, or_=np.bitwise_or)
_LAX_OPS = SimpleNamespace(add=lax.add, xor=lax.bitwise_xor, shift_left=lax.shift_left,
                           shift_right=lax.shift_right_logical, or_=lax.bitwise_or)


def _hash(ops: SimpleNamespace, k1: Any, k2: Any, x1: Any, x2: Any) -> list[Any]:
    """Twenty rounds of threefry2x32, with a key injection after every four."""

    def rotate_left(x: Any, r: int) -> Any:
        return ops.or_(ops.shift_left(x, np.uint32(r)), ops.shift_right(x, np.uint32(32 - r)))

    schedule = (k1, k2, ops.xor(ops.xor(k1, k2), _PARITY))
    x1, x2 = ops.add(x1, k1), ops.add(x2, k2)
    for group in range(5):
        for r in _ROTATIONS[group % 2]:
            x1 = ops.add(x1, x2)
            x2 = ops.xor(rotate_left(x2, r), x1)
        x1 = ops.add(x1, schedule[(group + 1) % 3])
        x2 = ops.add(ops.add(x2, schedule[(group + 2) % 3]), np.uint32(group + 1))
    return [x1, x2]


def _abstract_eval(*avals: ShapedArray) -> list[ShapedArray]:
    if any(a.dtype != np.uint32 for a in avals):
        raise TypeError(f"threefry2x32 requires uint32 arguments, got {[str(a.dtype) for a in avals]}")
    try:
        shape = np.broadcast_shapes(*(a.shape for a in avals))
    except ValueError:
        raise TypeError(f"threefry2x32 requires arguments of broadcast-compatible shapes, got "
                        f"{[a.shape for a in avals]}") from None
    return [ShapedArray(shape, np.dtype(np.uint32))] * 2


threefry2x32_p = Primitive("threefry2x32")
threefry2x32_p.multiple_results = True
threefry2x32_p.def_abstract_eval(_abstract_eval)
threefry2x32_p.def_impl(lambda *words: [np.broadcast_to(w, np.broadcast_shapes(*map(np.shape, words))).copy()
                                         for w in _hash(_NUMPY_OPS, *(np.asarray(w, np.uint32) for w in words))])


def _batching_rule(vals, dims):
    # Elementwise with broadcasting: every operand gets the batch dimension in front and the full batched shape.
    size = next(get_aval(v).shape[d] for v, d in zip(vals, dims) if d is not None)
    lined = [move_dim(v, d, 0) if d is not None else v for v, d in zip(vals, dims)]
    shape = np.broadcast_shapes(*(get_aval(v).shape[1:] if d is not None else get_aval(v).shape
                                  for v, d in zip(lined, dims)))
    full = (size,) + shape
    lined = [lax.broadcast_in_dim(v, full, (0,) + tuple(range(len(full) - get_aval(v).ndim + 1, len(full))))
             if d is not None else lax.broadcast_in_dim(v, full, tuple(range(len(full) - get_aval(v).ndim, len(full))))
             for v, d in zip(lined, dims)]
    return threefry2x32_p.bind(*lined), [0, 0]


batching_rules[threefry2x32_p] = _batching_rule

_lowering_registered = False


def _register_xla_lowering() -> None:
    """Give jaxle_xla (if it has been loaded) the lowering: the same hash traced with lax, emitted inline."""
    global _lowering_registered
    if _lowering_registered or "jaxle_xla" not in sys.modules:
        return
    from jaxle_xla.lowering.module import register_lowering

    @register_lowering(threefry2x32_p)
    def _lower(ctx, *words):
        return ctx.lower_fun(_rolled_hash, *words)

    _lowering_registered = True


def _rolled_hash(k1: Any, k2: Any, x1: Any, x2: Any) -> list[Any]:
    """``_hash`` as JAX lowers it on CPU: the key words unbroadcast, the five groups of four rounds as one loop whose
    state carries the key schedule and the two rotation tables, each rotated by one place per trip. XLA compiles
    the same program as JAX's, so it fuses the draws with what follows them the same way (the same bits)."""
    shape = np.broadcast_shapes(*(get_aval(w).shape for w in (k1, k2, x1, x2)))

    def full(x: Any) -> Any:
        return x if get_aval(x).shape == shape else lax.broadcast_in_dim(
            x, shape, tuple(range(len(shape) - get_aval(x).ndim, len(shape))))

    k3 = lax.bitwise_xor(lax.bitwise_xor(k1, k2), _PARITY)
    x1, x2 = lax.add(full(x1), full(k1)), lax.add(full(x2), full(k2))

    def group(_, state):
        i, x1, x2, ka, kb, kc, rotations, next_rotations = state
        for j in range(4):
            r = lax.reshape(lax.slice(rotations, (j,), (j + 1,)), ())
            x1 = lax.add(x1, x2)
            rotated = lax.bitwise_or(lax.shift_left(x2, full(r)), lax.shift_right_logical(x2, full(lax.sub(
                np.uint32(32), r))))
            x2 = lax.bitwise_xor(x1, rotated)
        i = lax.add(i, np.int32(1))
        x1 = lax.add(x1, full(ka))
        x2 = lax.add(lax.add(x2, full(kb)), full(lax.convert_element_type(i, np.uint32)))
        return i, x1, x2, kb, kc, ka, next_rotations, rotations

    tables = [np.array(r, np.uint32) for r in _ROTATIONS]
    state = lax.fori_loop(0, 5, group, (np.int32(0), x1, x2, k2, k3, k1, *tables))
    return [state[1], state[2]]


def threefry_2x32(k1: Any, k2: Any, x1: Any, x2: Any) -> list[Any]:
    """The threefry2x32 hash of the counters ``(x1, x2)`` (uint32) under the key words ``k1, k2`` (uint32, of a
    shape that broadcasts to the counters')."""
    _register_xla_lowering()
    shape = np.broadcast_shapes(*(np.shape(x) for x in (k1, k2, x1, x2)))
    counters = [x if np.shape(x) == shape else lax.broadcast_in_dim(
        x, shape, tuple(range(len(shape) - np.ndim(x), len(shape)))) for x in (x1, x2)]
    return threefry2x32_p.bind(k1, k2, *counters)


def threefry_2x32_counts(keypair: Any, count: Any) -> Any:
    """The threefry2x32 hash of every element of the uint32 array ``count`` under ``keypair`` (two uint32 words),
    shaped as ``count``: its flat elements' first and second halves (zero-padded to an even size) are hashed as
    the counter pairs."""
    k1, k2 = keypair[0], keypair[1]
    arg_dtypes = [np.dtype(getattr(x, "dtype", None) or np.asarray(x).dtype) for x in (k1, k2, count)]
    if any(d != np.uint32 for d in arg_dtypes):
        raise TypeError(f"threefry_2x32 requires uint32 arguments, got {arg_dtypes}")
    shape = np.shape(count)
    size = math.prod(shape)
    flat = lax.reshape(count, (size,))
    if size % 2:
        flat = lax.concatenate([flat, lax.full((1,), 0, np.uint32)], 0)
    half = (size + 1) // 2
    hashed = threefry_2x32(k1, k2, lax.slice_in_dim(flat, 0, half), lax.slice_in_dim(flat, half, 2 * half))
    return lax.reshape(lax.slice_in_dim(lax.concatenate(hashed, 0), 0, size), shape)
