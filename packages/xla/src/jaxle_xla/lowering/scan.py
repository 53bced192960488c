"""Lowering of ``scan``: a ``stablehlo.while`` loop over a step counter, as JAX writes it.

The loop state is the xs and the consts (unchanged by the loop), the counter,
the carry and one buffer per y. Each step reads slice ``i`` of every x
(``length - i - 1`` when ``reverse``) with a call of ``@dynamic_index_in_dim``,
calls the body as a private function (``@closed_call``) and writes the ys into
their buffers there with calls of ``@dynamic_update_index_in_dim`` (jitted
helpers, so each is one function per operand types; every helper, the unrolled scan's slicing and stacking too, is
traced once per operand types and static arguments, not on every lowering). With ``unroll`` k, as JAX's: each trip
reads a block of k slices of every x (the xs reshaped to trips of k), calls the body on each static slice in turn and
writes the k ys stacked; the steps left over run after the loop, on the xs' tail (their head when ``reverse``), and
one trip of all the steps runs without a loop.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from typing import Any

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_core.core import ClosedJaxpr
from jaxle_core.jaxpr_util import jaxpr_ordered_effects
from jaxle_core.lax.control_flow.scan import scan_p, split_scan_args
from jaxle_core.lax.slicing import dynamic_index_in_dim, dynamic_update_index_in_dim, index_in_dim, slice_in_dim
from jaxle_core.lax.structural import concatenate, expand_dims, reshape
from jaxle_core.lax.tokens import abstract_token
from jaxle_core.memory_spaces import MemorySpace
from jaxle_core.mesh import PartitionSpec
from jaxle_core.sharding import NamedSharding
from jaxle_xla.lowering import dimensions as dimension_forms
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.locations import HelperSite
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.typed_layouts import constrain_to_type, constrains_types

_INDEX = ShapedArray((), np.int32)


def _read_slice(x: Any, index: Any) -> Any:
    return dynamic_index_in_dim(x, index, keepdims=False, allow_negative_indices=False)


def _write_slice(buffer: Any, y: Any, index: Any) -> Any:
    return dynamic_update_index_in_dim(buffer, y, index, 0, allow_negative_indices=False)


@lru_cache(maxsize=1024)
def _bound(fun: Callable[..., Any], **params: Any) -> Callable[..., Any]:
    """``fun`` with the static ``params`` bound, one object for each: a helper whose trace is reused (``reuse``
    of ``_Layout.helper``) on the same avals."""
    return partial(fun, **params)


class _Layout:
    """The constraints a scan over values typed with layouts (over Explicit mesh axes) puts on the values of its
    loop, as JAX's lowering does: the slices and stacked outputs laid out as their types, the step counter
    replicated. Elsewhere it constrains nothing."""

    def __init__(self, ctx: LoweringContext):
        typed = [a.explicit_sharding for a in (*ctx.avals_in, *ctx.avals_out)
                 if getattr(a, "explicit_sharding", None) is not None]
        self.mesh = typed[0].mesh if typed and constrains_types(ctx) else None

    def of(self, ctx: LoweringContext, value: Value, aval: Any) -> Value:
        """``value`` constrained to the layout of ``aval``'s type (if any)."""
        sharding = getattr(aval, "explicit_sharding", None)
        if self.mesh is None or sharding is None:
            return value
        return constrain_to_type(ctx, value, sharding)

    def replicated(self, ctx: LoweringContext, value: Value) -> Value:
        if self.mesh is None:
            return value
        return constrain_to_type(ctx, value, NamedSharding(self.mesh, PartitionSpec()))

    def helper(self, ctx: LoweringContext, fun: Callable[..., Any], *args: Value, reuse: bool = False) -> Value:
        """The result of the jitted helper ``fun`` called on ``args``: traced as typed under the mesh where one of
        them is typed over it (values typed over no mesh stay so, as JAX's), and as in device memory (an offloaded y
        is written into its buffer as the loop's other values are). ``reuse``: as ``LoweringContext.lower_fun``'s
        (for this module's own functions and ``_bound``'s, not a ``partial`` made per call)."""
        args = tuple(Value(a.name, a.aval.update(memory_space=MemorySpace.Device), a.type)
                     if getattr(a.aval, "memory_space", None) not in (None, MemorySpace.Device) else a for a in args)
        if self.mesh is None or all(getattr(a.aval, "explicit_sharding", None) is None for a in args):
            return ctx.lower_fun(fun, *args, reuse=reuse)[0]
        return ctx.lower_typed_fun(fun, self.mesh, *args, reuse=reuse)[0]


def _call_body(ctx: LoweringContext, jaxpr: ClosedJaxpr, args: list[Value], ordered_effects: Sequence[Any]
               ) -> list[Value]:
    """A call of the private function computing the body (threading this block's tokens of its ordered effects
    through it, first)."""
    callee = ctx.module.function(jaxpr, "closed_call", effects=tuple(ordered_effects))
    outs = ctx.op("func.call", [*ctx.tokens(ordered_effects), *args],
                  [abstract_token] * len(ordered_effects) + list(jaxpr.out_avals), {"callee": f"@{callee}"})
    return ctx.continue_tokens(ordered_effects, outs)


def _trips(length: Any, unroll: int) -> tuple[Any, int]:
    """How many trips the loop makes and how many steps run after it, as JAX splits a scan unrolling ``unroll``
    steps in each trip (``0``: all of them; one trip of all the steps runs without a loop)."""
    if unroll == 1:
        return length, 0
    trips, remainder = (0, length) if unroll == 0 else divmod(length, unroll)
    if trips == 1 and remainder == 0:
        return 0, length
    return trips, remainder


def _buffer_aval(y: ShapedArray, prefix: tuple[int, ...]) -> ShapedArray:
    """The aval of the buffer stacking ``y`` over the leading axes ``prefix`` (laid out as ``y`` on its own axes)."""
    sharding = y.explicit_sharding
    if sharding is not None:
        sharding = NamedSharding(sharding.mesh, PartitionSpec(*[None] * len(prefix), *sharding.spec))
    return y.update(shape=(*prefix, *y.shape), sharding=sharding)


class _Steps:
    """The steps of one scan: the body's calls, one at a time (``unroll`` 1) or ``n`` of them over a block of
    ``n`` slices, as JAX's lowering unrolls them."""

    def __init__(self, jaxpr: ClosedJaxpr, num_carry: int, reverse: bool, unroll: int, layout: _Layout):
        self.jaxpr, self.num_carry, self.reverse, self.unroll, self.layout = jaxpr, num_carry, reverse, unroll, layout
        self.ordered_effects = jaxpr_ordered_effects(jaxpr.jaxpr)

    def call(self, ctx: LoweringContext, consts: list[Value], carry: list[Value],
             xs: list[Value]) -> tuple[list[Value], list[Value]]:
        outs = _call_body(ctx, self.jaxpr, [*consts, *carry, *xs], self.ordered_effects)
        return outs[:self.num_carry], outs[self.num_carry:]

    def block(self, ctx: LoweringContext, n: int, consts: list[Value], carry: list[Value], xs: list[Value],
              site: HelperSite | None, scope: str, depth: int) -> tuple[list[Value], list[Value]]:
        """``n`` steps over the blocks ``xs`` of ``n`` slices: the carry after them and the ys stacked; located at
        ``site`` as JAX's helper's operations under ``scope``, ``depth`` levels of tracing down."""
        if self.unroll == 1:
            with ctx.located_in_helper(site, f"{scope}closed_call", depth, user_function=True):
                return self.call(ctx, consts, carry, xs)
        ys = []
        for step in range(n):
            i = n - step - 1 if self.reverse else step
            with ctx.named_in_helper(site, scope, depth):
                slices = [self.layout.helper(ctx, _bound(index_in_dim, index=i, keepdims=False), x, reuse=True)
                          for x in xs]
            with ctx.located_in_helper(site, f"{scope}closed_call", depth, user_function=True):
                carry, y = self.call(ctx, consts, carry, slices)
            ys.append(y)
        if self.reverse:
            ys.reverse()
        with ctx.named_in_helper(site, scope, depth):
            return carry, [self.layout.helper(ctx, _stack, *column, reuse=True) for column in zip(*ys)]


def _stack(*ys: Any) -> Any:
    return concatenate([expand_dims(y, (0,)) for y in ys], 0)


def _concat(a: Any, b: Any) -> Any:
    return concatenate([a, b], 0)


def _blocks(ctx: LoweringContext, layout: _Layout, xs: list[Value], trips: int, remainder: int, unroll: int,
            reverse: bool) -> tuple[list[Value], list[Value]]:
    """The xs of an unrolled scan split as JAX's lowering splits them: the loop's, reshaped to ``trips`` blocks of
    ``unroll`` slices, and the ``remainder`` slices left over (the tail, or the head when ``reverse``). (The caller
    locates the ops, see ``named_in_helper``.)"""
    rest = []
    if remainder:
        split = trips * unroll if not reverse else remainder
        heads, tails = [], []
        for x in xs:
            heads.append(layout.helper(ctx, _bound(slice_in_dim, start_index=0, limit_index=split), x, reuse=True))
            tails.append(layout.helper(ctx, _bound(slice_in_dim, start_index=split, limit_index=x.aval.shape[0]),
                                       x, reuse=True))
        xs, rest = (heads, tails) if not reverse else (tails, heads)
    if trips:
        xs = [layout.helper(ctx, _bound(reshape, new_sizes=(trips, unroll, *x.aval.shape[1:])), x, reuse=True)
              for x in xs]
    return xs, rest


@register_lowering(scan_p)
def _scan_lowering(ctx: LoweringContext, *args: Value, reverse: bool, length: int, jaxpr: ClosedJaxpr,
                   num_consts: int, num_carry: int, unroll: int) -> list[Value]:
    layout = _Layout(ctx)
    steps = _Steps(jaxpr, num_carry, reverse, unroll, layout)
    consts, carry, xs = split_scan_args(args, num_consts, num_carry)
    trips, remainder = _trips(length, unroll)
    site = ctx.helper_site()
    if unroll == 1:
        # the buffers typed as the stacked ys (the helpers writing into them are traced on those types)
        y_avals = ctx.avals_out[num_carry:]
    else:
        with ctx.named_in_helper(site, ""):
            xs, xs_rem = _blocks(ctx, layout, xs, trips, remainder, unroll, reverse)
        prefix = (trips, unroll) if trips else (0,)
        y_avals = [_buffer_aval(a, prefix) for a in jaxpr.out_avals[num_carry:]]
    buffers = []
    for a in y_avals:
        with ctx.located_in_helper(site, "empty2"):
            zero = ctx.constant(0, a.dtype)
        with ctx.located_in_helper(site, "broadcast_in_dim"):
            buffers.append(layout.of(ctx, ctx.broadcast_to(zero, a.shape), a))
    buffers = [Value(b.name, a, b.type) for b, a in zip(buffers, y_avals)]
    ys = buffers
    if trips:
        carry, ys = _loop(ctx, site, layout, steps, trips, consts, carry, xs, buffers)
        if unroll != 1:
            with ctx.named_in_helper(site, ""):
                ys = [layout.helper(ctx, _bound(reshape, new_sizes=(trips * unroll, *y.aval.shape[2:])), y,
                                    reuse=True) for y in ys]
    if remainder:
        carry, ys_rem = steps.block(ctx, remainder, consts, carry, xs_rem, site, "", 1)
        with ctx.named_in_helper(site, ""):
            ys = [layout.helper(ctx, _concat, *((y, r) if not reverse else (r, y)), reuse=True)
                  for y, r in zip(ys, ys_rem)]
    return carry + ys


def _loop(ctx: LoweringContext, site: HelperSite | None, layout: _Layout, steps: _Steps, trips: Any,
          consts: list[Value], carry: list[Value], xs: list[Value],
          buffers: list[Value]) -> tuple[list[Value], list[Value]]:
    """The ``stablehlo.while`` loop of ``trips`` trips, each a block of steps over one slice of every ``xs``: the
    carry after it and the filled ``buffers``; its ops located at ``site`` as those of JAX's helper ``while``."""
    num_carry = len(carry)
    n_xs, n_fixed = len(xs), len(xs) + len(consts)  # the loop's values it does not change, before its counter
    state = [*xs, *consts, ctx.constant(0, np.int32), *carry, *buffers]

    def cond(inner: LoweringContext, values: list[Value]) -> list[Value]:
        limit = dimension_forms.index_value(inner, trips)
        with inner.located_in_helper(site, "while/cond/lt", 2):
            return [inner.compare("LT", layout.replicated(inner, values[n_fixed]), layout.replicated(inner, limit))]

    def body(inner: LoweringContext, values: list[Value]) -> list[Value]:
        counter = values[n_fixed]
        carry, ys = values[n_fixed + 1:n_fixed + 1 + num_carry], values[n_fixed + 1 + num_carry:]
        index = counter
        if steps.reverse:
            limit = dimension_forms.index_value(inner, trips)
            with inner.located_in_helper(site, "while/body/sub", 2):
                last = inner.op1("stablehlo.subtract", [limit, counter], _INDEX)
            one = inner.constant(1, np.int32)
            with inner.located_in_helper(site, "while/body/sub", 2):
                index = inner.op1("stablehlo.subtract", [last, one], _INDEX)
        with inner.located_in_helper(site, "while/body/jit(dynamic_index_in_dim)", 2):
            slices = [layout.helper(inner, _read_slice, x, index, reuse=True) for x in values[:n_xs]]
        carry, new = steps.block(inner, steps.unroll, values[n_xs:n_fixed], carry, slices, site, "while/body/", 2)
        with inner.located_in_helper(site, "while/body/jit(dynamic_update_index_in_dim)", 2):
            new_ys = [layout.helper(inner, _write_slice, b, y, index, reuse=True) for b, y in zip(ys, new)]
        one = inner.constant(1, np.int32)
        count, one = layout.replicated(inner, counter), layout.replicated(inner, one)
        with inner.located_in_helper(site, "while/body/add", 2):
            step = layout.replicated(inner, inner.op1("stablehlo.add", [count, one], _INDEX))
        return [*values[:n_fixed], step, *carry, *new_ys]

    with ctx.located_in_helper(site, "while"):
        outs = ctx.while_loop(state, cond, body, steps.ordered_effects)
    layout.replicated(ctx, outs[n_fixed])  # the final count, unused (the scan's own results are constrained as typed)
    return outs[n_fixed + 1:n_fixed + 1 + num_carry], outs[n_fixed + 1 + num_carry:]
