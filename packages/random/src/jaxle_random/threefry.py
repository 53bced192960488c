"""The threefry2x32 block cipher as a primitive, and the counters it hashes.

``threefry2x32_p(k1, k2, x1, x2)`` encrypts the counter pairs ``(x1, x2)`` with the key ``(k1, k2)``
(four uint32 arrays of shapes that broadcast together) and returns the two uint32 words of the result.
``iota_2x32_shape_p`` gives the counters of a shape: each element's row-major index as a 64-bit number, split
into its high and low uint32 words. The hash is written once over a small table of operations for the NumPy
reference implementation; the XLA lowerings (``threefry_xla``, as JAX writes them) are registered with jaxle_xla
only once jaxle_xla is loaded: this package never imports it, and runs on core's reference backend alone.
"""

from __future__ import annotations

import math
import sys
from types import SimpleNamespace
from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_core.avals import ShapedArray
from jaxle_core.batching.rule_helpers import elementwise_batcher
from jaxle_core.batching.trace import batching_rules
from jaxle_core.core import Primitive
from jaxle_core.sharding_types import UNTYPED, register_rule

__all__ = ["iota_2x32_shape", "iota_2x32_shape_p", "threefry2x32_p", "threefry_2x32", "threefry_2x32_counts"]

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


_elementwise_rule = elementwise_batcher(threefry2x32_p)


def _batching_rule(vals, dims):
    # an elementwise primitive's: the operands broadcast, unbatched ones given size-1 leading dimensions
    outs, dim = _elementwise_rule(vals, dims)
    return outs, [dim, dim]


batching_rules[threefry2x32_p] = _batching_rule

iota_2x32_shape_p = Primitive("iota_2x32_shape")
iota_2x32_shape_p.multiple_results = True


@iota_2x32_shape_p.def_abstract_eval
def _iota_abstract_eval(*, shape: tuple[int, ...]) -> list[ShapedArray]:
    return [ShapedArray(shape, np.dtype(np.uint32))] * 2


# as JAX's, the counters are typed over no mesh, whatever the current one (the hash of them is typed over it)
register_rule(iota_2x32_shape_p, lambda avals, specs, outs, mesh, params: [UNTYPED] * len(outs))


@iota_2x32_shape_p.def_impl
def _iota_impl(*, shape: tuple[int, ...]) -> list[np.ndarray]:
    flat = np.arange(math.prod(shape), dtype=np.uint64).reshape(shape)
    return [(flat >> np.uint64(32)).astype(np.uint32), flat.astype(np.uint32)]


def iota_2x32_shape(shape: tuple[int, ...]) -> list[Any]:
    """The high and low uint32 words of each element's row-major index in an array of ``shape``."""
    _register_xla_lowering()
    return iota_2x32_shape_p.bind(shape=tuple(shape))


_lowering_registered = False


def _register_xla_lowering() -> None:
    """Give jaxle_xla (if it has been loaded) the lowerings of ``threefry_xla``."""
    global _lowering_registered
    if _lowering_registered or "jaxle_xla" not in sys.modules:
        return
    import jaxle_random.threefry_xla  # noqa: F401 - registers the lowerings

    _lowering_registered = True


def threefry_2x32(k1: Any, k2: Any, x1: Any, x2: Any) -> list[Any]:
    """The threefry2x32 hash of the counters ``(x1, x2)`` under the key words ``k1, k2`` (uint32, of shapes that
    broadcast together)."""
    _register_xla_lowering()
    return threefry2x32_p.bind(k1, k2, x1, x2)


def threefry_2x32_counts(keypair: Any, count: Any) -> Any:
    """The threefry2x32 hash of every element of the uint32 array ``count`` under ``keypair`` (two uint32 words),
    shaped as ``count``: its flat elements' first and second halves (zero-padded to an even size) are hashed as
    the counter pairs."""
    k1, k2 = keypair
    arg_dtypes = [np.dtype(getattr(x, "dtype", None) or np.asarray(x).dtype) for x in (k1, k2, count)]
    if any(d != np.uint32 for d in arg_dtypes):
        raise TypeError(f"threefry_2x32 requires uint32 arguments, got {arg_dtypes}")
    shape = np.shape(count)
    size = math.prod(shape)
    flat = lax.reshape(count, (size,))
    if size % 2:
        flat = lax.concatenate([flat, np.zeros(1, np.uint32)], 0)
    half = np.int64((size + 1) // 2)  # the halves' sizes are staged as NumPy integers, as in JAX's jaxpr
    hashed = lax.concatenate(threefry_2x32(k1, k2, *lax.split(flat, (half, half))), 0)
    return lax.reshape(lax.slice(hashed, (0,), (size,)) if size % 2 else hashed, shape)
