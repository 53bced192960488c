"""XLA lowerings of ``threefry2x32_p`` and ``iota_2x32_shape_p``, written as JAX 0.10.2 writes them on CPU.

The hash is a function of its own (``@threefry2x32``, written once per operand types and called wherever they
recur): the key schedule, then the five groups of four rounds as one loop of five trips, each trip calling
``@closed_call`` with the group's index, the two words, the key schedule and the two rotation tables (the
schedule and the tables rotated by one place per trip). The counters are computed as 64-bit row-major indices
and split into their high and low words. The same program as JAX's, so XLA compiles and fuses it as JAX's.
Imported by ``jaxle_random.threefry`` once jaxle_xla is loaded.
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.mesh import PartitionSpec
from jaxle_core.sharding import NamedSharding
from jaxle_random.threefry import _PARITY, _ROTATIONS, iota_2x32_shape_p, threefry2x32_p
from jaxle_xla.lowering.context import LoweringContext, Value, i64
from jaxle_xla.lowering.dimensions import is_static
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.typed_layouts import constrain_to_types, constrains_types, leave_unconstrained

_GROUPS = 5  # groups of four rounds, each followed by a key injection


@register_lowering(threefry2x32_p)
def _threefry_lowering(ctx: LoweringContext, *words: Value) -> list[Value]:
    k1, k2 = words[:2]
    if k1.aval.shape != k2.aval.shape:  # the loop carries the key words rotated: they need one shape (JAX's fails)
        shape = np.broadcast_shapes(k1.aval.shape, k2.aval.shape)
        words = (ctx.broadcast_to(k1, shape), ctx.broadcast_to(k2, shape), *words[2:])
    sharding = getattr(ctx.avals_out[0], "explicit_sharding", None)
    mesh = sharding.mesh if sharding is not None and constrains_types(ctx) else None
    avals = [w.aval for w in words]
    if not all(is_static(a.shape) for a in avals):  # inline where sizes are symbolic (its values are the caller's)
        return _threefry_function(ctx, list(words), mesh)
    key = ("threefry2x32", *avals, mesh, tuple(map(id, ctx.module.manual_regions)))
    callee = ctx.module.written_function("threefry2x32", avals, partial(_threefry_function, mesh=mesh), key)
    return ctx.op("func.call", list(words), ctx.avals_out, {"callee": f"@{callee}"})


# as JAX's, the call's results are not constrained (the function constrains its own values)
leave_unconstrained(threefry2x32_p)


def _threefry_function(ctx: LoweringContext, words: list[Value], mesh: Any) -> list[Value]:
    """The hash's operations. Over a ``mesh`` of Explicit axes (the results typed over it) every value is typed and
    constrained to its type, as JAX traces and lowers its helpers there: the loop's counters and results too."""
    def lower(inner: LoweringContext, fun: Any, *args: Value) -> list[Value]:
        return inner.lower_fun(fun, *args) if mesh is None else inner.lower_typed_fun(fun, mesh, *args)

    rotations = [ctx.constant(np.array(r, np.uint32)) for r in _ROTATIONS]
    k1, k2 = words[:2]
    k3, x1, x2 = lower(ctx, _key_schedule, *words)
    group_index, trips = ctx.constant(0, np.int32), ctx.constant(0, np.int32)
    state = [group_index, x1, x2, k2, k3, k1, *rotations]
    static = all(is_static(v.aval.shape) for v in state)
    group = static and ctx.module.written_function("closed_call", [v.aval for v in state],
                                                   lambda inner, args: lower(inner, _group, *args))

    def cond(inner: LoweringContext, loop: list[Value]) -> list[Value]:
        return lower(inner, lambda trip: lax.lt(trip, np.int32(_GROUPS)), loop[0])

    def body(inner: LoweringContext, loop: list[Value]) -> list[Value]:
        carried = (inner.op("func.call", loop[1:], [v.aval for v in loop[1:]], {"callee": f"@{group}"}) if static
                   else lower(inner, _group, *loop[1:]))
        return [*lower(inner, lambda trip: lax.add(trip, np.int32(1)), loop[0]), *carried]

    outs = ctx.while_loop([trips, *state], cond, body)
    if mesh is not None:  # typed as a trip leaves them (JAX's loop types its results so): the counters over the
        # mesh, the key schedule rotated by one place, the rotation tables (constants) over none
        counter = ShapedArray((), np.dtype(np.int32), sharding=NamedSharding(mesh, PartitionSpec()))
        outs = constrain_to_types(ctx, [counter, counter, x1.aval, x2.aval, k3.aval, k1.aval, k2.aval], outs)
    return outs[2:4]


def _full(x: Any, shape: tuple[int, ...]) -> Any:
    """``x`` broadcast to the rank of ``shape`` (its dimensions the trailing ones); as it is when it has that rank or
    is a scalar (its operation broadcasts it, size-1 dimensions too, as JAX's lax operations do)."""
    aval = get_aval(x)
    if aval.ndim in (0, len(shape)):
        return x
    return lax.broadcast_in_dim(x, shape, tuple(range(len(shape) - aval.ndim, len(shape))))


def _key_schedule(k1: Any, k2: Any, x1: Any, x2: Any) -> list[Any]:
    """The third key word, and the counters with the first two key words added."""
    shape = np.broadcast_shapes(*(get_aval(w).shape for w in (k1, k2, x1, x2)))
    k3 = lax.bitwise_xor(lax.bitwise_xor(k1, k2), _full(_PARITY, get_aval(k1).shape))
    return [k3, lax.add(_full(x1, shape), _full(k1, shape)), lax.add(_full(x2, shape), _full(k2, shape))]


def _group(i: Any, x1: Any, x2: Any, ka: Any, kb: Any, kc: Any, rotations: Any, next_rotations: Any
           ) -> tuple[Any, ...]:
    """Group ``i`` (from 0) of four rounds and its key injection; the key schedule and the rotation tables come
    out rotated for the next group."""
    shape = get_aval(x1).shape
    next_i = lax.add(i, np.int32(1))
    for j in range(4):
        r = lax.reshape(lax.slice(rotations, (j,), (j + 1,)), ())
        x1 = lax.add(x1, x2)
        rotated = lax.bitwise_or(lax.shift_left(x2, _full(r, shape)),
                                 lax.shift_right_logical(x2, _full(lax.sub(np.uint32(32), r), shape)))
        x2 = lax.bitwise_xor(x1, rotated)
    x1 = lax.add(x1, _full(ka, shape))
    x2 = lax.add(lax.add(x2, _full(kb, shape)),
                 _full(lax.convert_element_type(lax.add(i, np.int32(1)), np.uint32), shape))
    return next_i, x1, x2, kb, kc, ka, next_rotations, rotations


@register_lowering(iota_2x32_shape_p)
def _iota_2x32_shape_lowering(ctx: LoweringContext, *, shape: tuple[int, ...]) -> list[Value]:
    if not shape:
        return [ctx.constant(0, np.uint32), ctx.constant(0, np.uint32)]
    wide = ShapedArray(shape, np.dtype(np.uint64))

    def scalar(value: int) -> Value:
        return ctx.broadcast_to(ctx.constant(value, np.uint64), shape)

    iotas = [ctx.op1("stablehlo.iota", [], wide, {"iota_dimension": i64(d)}) for d in range(len(shape))]
    strides = [math.prod(shape[d + 1:]) for d in range(len(shape))]
    terms = [ctx.op1("stablehlo.multiply", [scalar(s), iota], wide) for s, iota in zip(strides, iotas)]
    index = terms[0]
    for term in terms[1:]:
        index = ctx.op1("stablehlo.add", [index, term], wide)
    high = ctx.op1("stablehlo.shift_right_logical", [index, scalar(32)], wide)
    words = ShapedArray(shape, np.dtype(np.uint32))
    low = ctx.op1("stablehlo.convert", [index], words)
    return [ctx.op1("stablehlo.convert", [high], words), low]
