"""The threefry2x32 block cipher as a primitive.

``threefry2x32_p(k1, k2, x1, x2)`` encrypts the counter pairs ``(x1, x2)`` with the key ``(k1, k2)``
(four uint32 arrays of one shape) and returns the two uint32 words of the result. The hash is written
once over a small table of operations, so the NumPy reference implementation and the lowering (traced
with lax) are the same code. The lowering is registered with jaxle_xla only once jaxle_xla is loaded:
this package never imports it, and runs on core's reference backend alone.
"""

from __future__ import annotations

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
    if len({a.shape for a in avals}) != 1:
        raise TypeError(f"threefry2x32 requires all arguments to have the same shape, got "
                        f"{[a.shape for a in avals]}")
    return [ShapedArray(avals[0].shape, np.dtype(np.uint32))] * 2


threefry2x32_p = Primitive("threefry2x32")
threefry2x32_p.multiple_results = True
threefry2x32_p.def_abstract_eval(_abstract_eval)
threefry2x32_p.def_impl(lambda *words: _hash(_NUMPY_OPS, *(np.asarray(w, np.uint32) for w in words)))


def _batching_rule(vals, dims):
    # Elementwise: every operand gets the batch dimension in front and the full batched shape.
    size = next(get_aval(v).shape[d] for v, d in zip(vals, dims) if d is not None)
    shape = (size,) + next(get_aval(v).shape for v, d in zip(vals, dims) if d is None) if None in dims else None
    lined = [move_dim(v, d, 0) if d is not None else v for v, d in zip(vals, dims)]
    if shape is not None:
        lined = [v if d is not None else lax.broadcast(v, (size,)) for v, d in zip(lined, dims)]
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
        return ctx.lower_fun(lambda *xs: _hash(_LAX_OPS, *xs), *words)

    _lowering_registered = True


def threefry_2x32(k1: Any, k2: Any, x1: Any, x2: Any) -> list[Any]:
    """The threefry2x32 hash of the counters ``(x1, x2)`` (uint32, one shape) under the key words ``k1, k2``."""
    _register_xla_lowering()
    shape = np.broadcast_shapes(*(np.shape(x) for x in (k1, k2, x1, x2)))
    words = [x if np.shape(x) == shape else lax.broadcast_in_dim(x, shape, tuple(range(len(shape) - np.ndim(x),
                                                                                       len(shape))))
             for x in (k1, k2, x1, x2)]
    return threefry2x32_p.bind(*words)
