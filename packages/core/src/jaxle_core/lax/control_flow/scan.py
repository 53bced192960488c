"""``scan`` and ``map``: loops with a carried state over the leading axis of arrays.

``scan_p`` takes ``num_consts`` loop-invariant operands, ``num_carry`` carried
values and the scanned arrays; its jaxpr maps (consts, carry, x slices) to
(new carry, y slices), and the results are the final carry and the stacked ys.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import jaxle_tree as tree
from jaxle_core import core
from jaxle_core.array import Array
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.backend import current_backend
from jaxle_core.core import ClosedJaxpr, JaxprEqn, Primitive, Var
from jaxle_core.jaxpr_util import dce_jaxpr, dce_rules, dce_rules_with_effects, jaxpr_has_effects
from jaxle_core.lax.control_flow.common import (
    TracedFunction,
    cached_trace,
    carry_name,
    check_carry,
    check_effects,
    check_returned,
    derived,
    trace_function,
)
from jaxle_core.lax.refs import is_ref_aval
from jaxle_core.lax.slicing import slice as lax_slice
from jaxle_core.lax.structural import concatenate, convert_keeping_weak_type, reshape
from jaxle_core.mesh import PartitionSpec
from jaxle_core.sharding import NamedSharding

__all__ = ["map", "scan", "scan_p"]

scan_p = Primitive("scan")
scan_p.multiple_results = True


def split_scan_args(args: Sequence[Any], num_consts: int, num_carry: int) -> tuple[list, list, list]:
    """Split a scan's operands (or its jaxpr's inputs) into consts, carry and xs."""
    args = list(args)
    return args[:num_consts], args[num_consts:num_consts + num_carry], args[num_consts + num_carry:]


def stacked_aval(aval: ShapedArray, length: int) -> ShapedArray:
    """``aval`` with a leading axis of ``length``."""
    return aval.update(shape=(length,) + tuple(aval.shape))


@scan_p.def_abstract_eval
def _scan_aval(*avals, reverse: bool, length: int, jaxpr: ClosedJaxpr, num_consts: int, num_carry: int,
               unroll: int):
    outs = jaxpr.out_avals
    return list(outs[:num_carry]) + [stacked_aval(a, length) for a in outs[num_carry:]]


@scan_p.def_impl
def _scan_impl(*args, reverse: bool, length: int, jaxpr: ClosedJaxpr, num_consts: int, num_carry: int,
               unroll: int):
    consts, carry, xs = split_scan_args(args, num_consts, num_carry)
    xs = [np.asarray(x) for x in xs]
    y_avals = jaxpr.out_avals[num_carry:]
    ys = [np.zeros((length,) + tuple(a.shape), a.dtype) for a in y_avals]
    for step in range(length):
        i = length - 1 - step if reverse else step
        outs = core.eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *consts, *carry, *[x[i] for x in xs])
        carry = outs[:num_carry]
        for buffer, y in zip(ys, outs[num_carry:]):
            buffer[i] = np.asarray(y)
    return [np.asarray(c) for c in carry] + ys


def scan_params(jaxpr: ClosedJaxpr, length: int, num_consts: int, num_carry: int, reverse: bool = False,
                unroll: int = 1) -> dict:
    """The params of a ``scan`` equation, in JAX 0.10.2's order."""
    return dict(reverse=reverse, length=length, jaxpr=jaxpr, num_consts=num_consts, num_carry=num_carry,
                unroll=unroll)


def _scan_dce(eqn: JaxprEqn, used_outputs: list[bool]) -> tuple[list[bool], JaxprEqn | None]:
    """Drop the ys nobody uses and the carries that neither they nor the used carries need (a body with effects,
    such as writing a reference, stays even when no output is used)."""
    params = eqn.params
    closed, num_consts, num_carry = params["jaxpr"], params["num_consts"], params["num_carry"]
    if not any(used_outputs) and not jaxpr_has_effects(closed.jaxpr):
        return [False] * len(eqn.invars), None
    used_carry, used_ys = used_outputs[:num_carry], used_outputs[num_carry:]
    while True:
        keep_in = [False] * num_consts + used_carry + [False] * (len(closed.jaxpr.invars) - num_consts - num_carry)
        body, used_inputs = dce_jaxpr(closed.jaxpr, used_carry + used_ys, instantiate=keep_in)
        carry_in = used_inputs[num_consts:num_consts + num_carry]
        if all(a or not b for a, b in zip(used_carry, carry_in)):
            break
        used_carry = [a or b for a, b in zip(used_carry, carry_in)]
    new_params = dict(params, jaxpr=ClosedJaxpr(body, closed.consts), num_consts=sum(used_inputs[:num_consts]),
                      num_carry=sum(used_carry))
    outvars = [v for v, used in zip(eqn.outvars, used_carry + used_ys) if used]
    invars = [v for v, used in zip(eqn.invars, used_inputs) if used]
    return used_inputs, eqn.replace(invars=invars, outvars=outvars, params=new_params)


dce_rules[scan_p] = _scan_dce
dce_rules_with_effects.add(scan_p)


# ---------------------------------------------------------------- the public function


def _scan_length(xs_leaves: list, length: Any) -> int:
    avals = [get_aval(x) for x in xs_leaves]
    for aval in avals:  # over Explicit mesh axes every device must hold every step (as JAX requires)
        sharding = getattr(aval, "explicit_sharding", None)
        if sharding is not None and sharding.spec[0] is not None:
            raise ValueError(f"0th dimension of all xs should be replicated. Got {sharding.spec}")
    sizes = [aval.shape[0] for aval in avals]
    if length is not None:
        length = int(core.concrete_value(length))
        if any(size != length for size in sizes):
            raise ValueError(f"scan got `length` argument of {length} which disagrees with leading axis sizes "
                             f"{sizes}.")
        return length
    if not sizes:
        raise ValueError("scan got no values to scan over and `length` not provided.")
    if len(set(sizes)) > 1:
        raise ValueError(f"scan got values with different leading axis sizes: {', '.join(str(s) for s in sizes)}.")
    return sizes[0]


@dataclass(eq=False, repr=False)
class _AvalText:
    """Prints an aval as JAX's messages print a lone one (``~`` marks a weak type)."""

    aval: ShapedArray

    def __repr__(self) -> str:
        return ("~" if self.aval.weak_type else "") + self.aval.str_short()


def _trace_body(f: Callable, init_tree: Any, carry_avals: list[ShapedArray], xs_tree: Any,
                x_avals: list[ShapedArray]) -> tuple[TracedFunction, Any, Any]:
    """Trace ``f(carry, x)``: the body (outputs: carry leaves, then y leaves) and the carry and y trees.
    Cached per ``f``."""
    key = ("scan", init_tree, tuple(carry_avals), xs_tree, tuple(x_avals))
    return cached_trace(f, key, lambda: _trace_body_once(f, init_tree, carry_avals, xs_tree, x_avals))


def _trace_body_once(f: Callable, init_tree: Any, carry_avals: list[ShapedArray], xs_tree: Any,
                     x_avals: list[ShapedArray]) -> tuple[TracedFunction, Any, Any]:
    trees = []

    def body(carry, x):
        out = f(carry, x)
        check_returned(out, f, "scan")
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            leaves, out_def = tree.tree_flatten(out)
            avals = [get_aval(v) for v in leaves]
            lone = tree.treedef_is_leaf(out_def) and out_def.num_leaves == 1
            shown = _AvalText(avals[0]) if lone else tree.tree_unflatten(out_def, avals)
            raise TypeError(f"scan body output must be a pair, got {shown!r}.")
        carry_out, y = out
        carry_leaves, carry_def = tree.tree_flatten(carry_out)
        y_leaves, y_def = tree.tree_flatten(y)
        trees.append((carry_def, y_def))
        return carry_leaves + y_leaves

    in_tree = tree.tree_structure((tree.tree_unflatten(init_tree, carry_avals), tree.tree_unflatten(xs_tree, x_avals)))
    traced = trace_function(body, in_tree, carry_avals + x_avals, "scan", cached=False)
    return traced, trees[0][0], trees[0][1]


def _promote_weak_carry(init: list, in_avals: list[ShapedArray], out_avals: list[ShapedArray]) -> tuple[list, bool]:
    """Weakly typed initial carries take the dtype the body returns for them, as in JAX."""
    changed = False
    promoted = []
    for x, a, b in zip(init, in_avals, out_avals):
        if a.weak_type and a.dtype != b.dtype and a.shape == b.shape:
            x = convert_keeping_weak_type(x, b.dtype, b.weak_type)
            changed = True
        promoted.append(x)
    return promoted, changed


def _normalize_unroll(unroll: int | bool, length: int) -> int:
    if isinstance(unroll, bool):
        return max(length, 1) if unroll else 1
    if unroll < 0:
        raise ValueError("`unroll` must be a `bool` or a non-negative `int`.")
    return unroll


def _slice_aval(aval: ShapedArray) -> ShapedArray:
    """The type of one slice of ``xs`` along its leading axis: laid out as ``xs``'s other dimensions (over Explicit
    mesh axes; the leading one is whole), over the mesh of Auto axes ``xs``'s type names."""
    if is_ref_aval(aval):  # the body reads (and writes) a reference to each slice
        return aval.update(shape=aval.shape[1:])
    sliced = aval.update(shape=aval.shape[1:], auto_mesh=getattr(aval, "auto_mesh", None))
    sharding = aval.explicit_sharding
    if sharding is None:
        return sliced
    return sliced.update(sharding=NamedSharding(sharding.mesh, PartitionSpec(*tuple(sharding.spec)[1:])))


def scan(f: Callable, init: Any, xs: Any = None, length: int | None = None, reverse: bool = False,
         unroll: int | bool = 1, _split_transpose: bool = False) -> tuple[Any, Any]:
    """Loop ``carry, y = f(carry, x)`` over the leading axis of ``xs``; returns the final carry and stacked ys."""
    if not callable(f):
        raise TypeError("lax.scan: f argument should be a callable.")
    xs_leaves, xs_tree = tree.tree_flatten(xs)
    length = _scan_length(xs_leaves, length)
    unroll = _normalize_unroll(unroll, length)
    init_leaves, init_tree = tree.tree_flatten(init)
    x_avals = [_slice_aval(get_aval(x)) for x in xs_leaves]
    name = carry_name(f)
    carry_avals = [get_aval(x) for x in init_leaves]
    traced, carry_tree, y_tree = _trace_body(f, init_tree, carry_avals, xs_tree, x_avals)
    num_carry = len(init_leaves)
    if carry_tree == init_tree:
        init_leaves, changed = _promote_weak_carry(init_leaves, carry_avals, traced.out_avals[:num_carry])
        if changed:
            carry_avals = [get_aval(x) for x in init_leaves]
            traced, carry_tree, y_tree = _trace_body(f, init_tree, carry_avals, xs_tree, x_avals)
    check_carry("scan", name, init_tree, carry_avals, carry_tree, traced.out_avals[:carry_tree.num_leaves])
    check_effects("scan", traced)
    carry_out, ys = _bind_forwarding(traced, init_leaves, xs_leaves, length, reverse, unroll)
    return tree.tree_unflatten(init_tree, carry_out), tree.tree_unflatten(y_tree, ys)


def _bind_forwarding(traced: TracedFunction, init: list, xs: list, length: int, reverse: bool,
                     unroll: int) -> tuple[list, list]:
    """Bind ``scan_p``, first turning carries the body passes through unchanged into consts and taking ys that
    are unchanged xs straight from the xs, as JAX does."""
    consts = list(traced.consts)
    num_consts, num_carry = len(consts), len(init)
    invariant, forwarded_x, forwarding_body = derived(traced, "scan", lambda: _forwarding_body(traced, num_carry))
    fwd_init = [x for x, inv in zip(init, invariant) if inv]
    outs = scan_p.bind(*fwd_init, *consts, *[x for x, inv in zip(init, invariant) if not inv], *xs,
                       **scan_params(forwarding_body, length, len(fwd_init) + num_consts,
                                     num_carry - len(fwd_init), reverse, unroll))
    outs = iter(outs)
    carry_out = [x if inv else next(outs) for x, inv in zip(init, invariant)]
    ys = [next(outs) if fwd is None else _as_array(xs[fwd]) for fwd in forwarded_x]
    return carry_out, ys


def _forwarding_body(traced: TracedFunction, num_carry: int) -> tuple[list[bool], list[int | None], ClosedJaxpr]:
    """Which carries the body passes through unchanged, which ys are xs (their index), and the body without them."""
    jaxpr = traced.jaxpr.jaxpr
    const_vars, carry_vars, x_vars = split_scan_args(jaxpr.invars, len(traced.consts), num_carry)
    carry_outs, y_outs = jaxpr.outvars[:num_carry], jaxpr.outvars[num_carry:]
    invariant = [out is var for out, var in zip(carry_outs, carry_vars)]
    forwarded_x = [next((i for i, v in enumerate(x_vars) if out is v), None) if isinstance(out, Var) else None
                   for out in y_outs]
    new_jaxpr = jaxpr.replace(
        invars=[v for v, inv in zip(carry_vars, invariant) if inv] + const_vars
        + [v for v, inv in zip(carry_vars, invariant) if not inv] + x_vars,
        outvars=[v for v, inv in zip(carry_outs, invariant) if not inv]
        + [v for v, fwd in zip(y_outs, forwarded_x) if fwd is None])
    return invariant, forwarded_x, ClosedJaxpr(new_jaxpr, [])


def _as_array(x: Any) -> Any:
    """An x returned as a y: an Array, as if the scan had produced it (staged values stay as they are)."""
    if isinstance(x, (core.Tracer, Array)) or not isinstance(core.current_trace(), core.EvalTrace):
        return x

    return current_backend().device_put(np.asarray(x, get_aval(x).dtype), weak_type=get_aval(x).weak_type)


# ---------------------------------------------------------------- map


def map(f: Callable, xs: Any, *, batch_size: int | None = None) -> Any:  # noqa: A001 - lax's name
    """``f`` applied to each slice of ``xs`` along its leading axis (``batch_size`` slices at a time, vmapped)."""
    if not batch_size:
        return scan(lambda _, x: ((), f(x)), (), xs)[1]
    from jaxle_core.batching import vmap  # local: batching imports lax (its rules)

    leaves, xs_tree = tree.tree_flatten(xs)
    n = _scan_length(leaves, None)
    num_batches, remainder = divmod(n, batch_size)
    if num_batches == 0:
        return vmap(f)(xs)
    main_size = num_batches * batch_size
    batched, rest = [], []
    for x in leaves:
        shape = get_aval(x).shape
        main = x if not remainder else lax_slice(x, (0,) * len(shape), (main_size,) + shape[1:])
        batched.append(reshape(main, (num_batches, batch_size) + shape[1:]))
        if remainder:
            rest.append(lax_slice(x, (main_size,) + (0,) * (len(shape) - 1), shape))
    ys = scan(lambda _, x: ((), vmap(f)(x)), (), tree.tree_unflatten(xs_tree, batched))[1]
    if not remainder:
        return tree.tree_map(lambda y: reshape(y, (main_size,) + get_aval(y).shape[2:]), ys)
    rest_ys = vmap(f)(tree.tree_unflatten(xs_tree, rest))
    return tree.tree_map(lambda y, r: concatenate([reshape(y, (main_size,) + get_aval(y).shape[2:]), r], 0),
                         ys, rest_ys)
