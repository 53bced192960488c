"""``while_loop`` and ``fori_loop``: the ``while`` primitive and the loops built on it.

A ``while`` equation carries two closed jaxprs without constants: ``cond_jaxpr``
(cond consts, carry -> bool) and ``body_jaxpr`` (body consts, carry -> carry).
Its operands are the cond consts, the body consts, then the initial carry.
Under ``vmap`` the predicate may come out batched (an array of bools): the loop
then runs while any element is true and only the elements whose predicate
holds take the body's new carry.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import jaxle_tree as tree
from jaxle_core import core, dtypes
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import ClosedJaxpr, Primitive
from jaxle_core.lax.control_flow.common import (
    TracedFunction,
    carry_name,
    check_carry,
    check_effects,
    check_returned,
    derived,
    flatten_avals,
    trace_function,
)
from jaxle_core.lax.control_flow.scan import scan
from jaxle_core.lax.elementwise import lt
from jaxle_core.lax.structural import convert_keeping_weak_type
from jaxle_core.shape_poly import is_symbolic_dim

__all__ = ["fori_loop", "while_loop", "while_p"]

while_p = Primitive("while")
while_p.multiple_results = True


def split_while_args(args: Sequence[Any], cond_nconsts: int, body_nconsts: int) -> tuple[list, list, list]:
    """Split a while's operands into cond consts, body consts and carry."""
    args = list(args)
    return args[:cond_nconsts], args[cond_nconsts:cond_nconsts + body_nconsts], args[cond_nconsts + body_nconsts:]


def while_params(cond_jaxpr: ClosedJaxpr, cond_nconsts: int, body_jaxpr: ClosedJaxpr, body_nconsts: int) -> dict:
    """The params of a ``while`` equation, in JAX 0.10.2's order."""
    return dict(cond_nconsts=cond_nconsts, cond_jaxpr=cond_jaxpr, body_nconsts=body_nconsts, body_jaxpr=body_jaxpr)


@while_p.def_abstract_eval
def _while_aval(*avals, cond_nconsts: int, cond_jaxpr: ClosedJaxpr, body_nconsts: int, body_jaxpr: ClosedJaxpr):
    return list(body_jaxpr.out_avals)


def _select_rows(pred: np.ndarray, new: np.ndarray, old: np.ndarray) -> np.ndarray:
    """Per batch element of a batched predicate (leading axes of the carry): ``new`` where it holds."""
    mask = pred.reshape(pred.shape + (1,) * (np.ndim(old) - pred.ndim))
    return np.where(mask, new, old)


@while_p.def_impl
def _while_impl(*args, cond_nconsts: int, cond_jaxpr: ClosedJaxpr, body_nconsts: int, body_jaxpr: ClosedJaxpr):
    cconsts, bconsts, carry = split_while_args(args, cond_nconsts, body_nconsts)
    carry = [np.asarray(c) for c in carry]
    while True:
        pred = np.asarray(core.eval_jaxpr(cond_jaxpr.jaxpr, cond_jaxpr.consts, *cconsts, *carry)[0])
        if not pred.any():
            return carry
        new = [np.asarray(c) for c in core.eval_jaxpr(body_jaxpr.jaxpr, body_jaxpr.consts, *bconsts, *carry)]
        carry = new if pred.ndim == 0 else [_select_rows(pred, n, o) for n, o in zip(new, carry)]


# ---------------------------------------------------------------- while_loop


def _check_cond(traced: TracedFunction) -> None:
    if not tree.treedef_is_leaf(traced.out_tree) or traced.out_tree.num_leaves != 1:
        raise TypeError(f"cond_fun must return a boolean scalar, but got pytree {traced.out_tree}.")
    aval = traced.out_avals[0]
    if aval.shape != () or aval.dtype != np.dtype(bool):
        raise TypeError(f"cond_fun must return a boolean scalar, but got output type(s) {[aval]}.")


def while_loop(cond_fun: Callable, body_fun: Callable, init_val: Any) -> Any:
    """Run ``init_val = body_fun(init_val)`` while ``cond_fun(init_val)`` is true; returns the final value."""
    if not (callable(body_fun) and callable(cond_fun)):
        raise TypeError("lax.while_loop: body_fun and cond_fun arguments should be callable.")
    init, in_tree, avals = flatten_avals(init_val)
    name = carry_name(body_fun)

    def trace_body(fun: Callable, avals: list[ShapedArray], traced_for: str) -> TracedFunction:
        args_tree = tree.tree_structure((tree.tree_unflatten(in_tree, avals),))
        return trace_function(fun, args_tree, avals, traced_for)

    body = trace_body(body_fun, avals, "while_body")
    if body.out_tree == in_tree:
        promote = [a.weak_type and a.dtype != b.dtype and a.shape == b.shape for a, b in zip(avals, body.out_avals)]
        if any(promote):
            init = [convert_keeping_weak_type(x, b.dtype, False) if p else x
                    for x, b, p in zip(init, body.out_avals, promote)]
            avals = [get_aval(x) for x in init]
            body = trace_body(body_fun, avals, "while_body")
    cond = trace_body(cond_fun, avals, "while_cond")
    _check_cond(cond)  # before the carry check: JAX reports a bad predicate first
    check_carry("while_loop", name, in_tree, avals, body.out_tree, body.out_avals)
    check_effects("while", cond, body)
    return tree.tree_unflatten(in_tree, _bind_forwarding(cond, body, init))


def _bind_forwarding(cond: TracedFunction, body: TracedFunction, init: list) -> list:
    """Bind ``while_p``, first turning carries the body passes through unchanged and the predicate does not
    read into leading body consts, as JAX does."""
    n_cc, n_bc = len(cond.consts), len(body.consts)
    fwd, new_cond, new_body = derived(body, ("while", cond), lambda: _forwarding_jaxprs(cond, body))
    fwd_init = [x for x, f in zip(init, fwd) if f]
    outs = iter(while_p.bind(*cond.consts, *fwd_init, *body.consts, *[x for x, f in zip(init, fwd) if not f],
                             **while_params(new_cond, n_cc, new_body, len(fwd_init) + n_bc)))
    return [x if f else next(outs) for x, f in zip(init, fwd)]


def _forwarding_jaxprs(cond: TracedFunction, body: TracedFunction) -> tuple[list[bool], ClosedJaxpr, ClosedJaxpr]:
    """Which carries pass through the body unread by the predicate, and the cond and body jaxprs without them."""
    cond_jaxpr, body_jaxpr = cond.jaxpr.jaxpr, body.jaxpr.jaxpr
    n_cc, n_bc = len(cond.consts), len(body.consts)
    cond_carry = cond_jaxpr.invars[n_cc:]
    read_by_cond = {a for eqn in cond_jaxpr.eqns for a in eqn.invars} | set(cond_jaxpr.outvars)
    body_carry = body_jaxpr.invars[n_bc:]
    fwd = [out is var and cv not in read_by_cond
           for out, var, cv in zip(body_jaxpr.outvars, body_carry, cond_carry)]
    if not any(fwd):  # the traced jaxprs themselves, shared with other loops of the same functions (as JAX's)
        return fwd, cond.jaxpr, body.jaxpr
    new_body = body_jaxpr.replace(
        invars=[v for v, f in zip(body_carry, fwd) if f] + body_jaxpr.invars[:n_bc]
        + [v for v, f in zip(body_carry, fwd) if not f],
        outvars=[v for v, f in zip(body_jaxpr.outvars, fwd) if not f])
    new_cond = cond_jaxpr.replace(invars=cond_jaxpr.invars[:n_cc] + [v for v, f in zip(cond_carry, fwd) if not f])
    return fwd, ClosedJaxpr(new_cond, []), ClosedJaxpr(new_body, [])


# ---------------------------------------------------------------- fori_loop


def _static_bound(x: Any) -> int | None:
    """The Python int behind a scalar loop bound, or None when it is only known at run time."""
    value = core.concrete_value(x)
    if value is None or np.ndim(value) or is_symbolic_dim(value):  # a symbolic bound is known when run
        return None
    return int(np.asarray(value))


def _counter_type(lower: Any, upper: Any) -> np.dtype:
    """The dtype of a loop counter running over traced bounds, with JAX's error for bounds of different types: a
    weakly typed signed integer (a Python int) takes the other bound's signed integer type."""
    lower_dtype, upper_dtype = (dtypes.canonicalize_dtype(dtypes.dtype(x)) for x in (lower, upper))
    lower_weak, upper_weak = get_aval(lower).weak_type, get_aval(upper).weak_type
    if lower_dtype == upper_dtype:
        return lower_dtype
    signed = [dtypes.issubdtype(d, np.signedinteger) for d in (lower_dtype, upper_dtype)]
    if all(signed) and (lower_weak or upper_weak):
        return upper_dtype if lower_weak else lower_dtype
    raise TypeError(f"lower and upper arguments to fori_loop must have equal types, got {lower_dtype} and "
                    f"{upper_dtype}")


def fori_loop(lower: Any, upper: Any, body_fun: Callable, init_val: Any, *, unroll: int | bool | None = None) -> Any:
    """Run ``val = body_fun(i, val)`` for ``i`` in ``range(lower, upper)``; returns the final value.

    Static (concrete) bounds make a ``scan`` of ``upper - lower`` steps, which reverse mode can differentiate;
    traced bounds make a ``while``.
    """
    if not callable(body_fun):
        raise TypeError("lax.fori_loop: body_fun argument should be callable.")
    dtype = _counter_type(lower, upper)
    lo, hi = _static_bound(lower), _static_bound(upper)
    if lo is not None and hi is not None:
        # As JAX's, static bounds of any type count with a Python int: a weakly typed int32 counter.
        (_, result), _ = scan(_loop_body(body_fun, _scan_steps, _scan_step), (lo, init_val), None,
                              length=max(hi - lo, 0), unroll=1 if unroll is None else unroll)
        return result
    if unroll is not None and unroll is not False and unroll != 1:
        raise ValueError("Can only use `unroll` in `fori_loop` if the loop bounds are statically known.")
    # As JAX's, only a bound of another type is converted (to a strong type): a Python int bound beside an int32
    # one stays weak, and so does the counter that starts from it.
    lower, upper = (x if dtypes.canonicalize_dtype(dtypes.dtype(x)) == dtype
                    else convert_keeping_weak_type(x, dtype, False) for x in (lower, upper))
    _, _, result = while_loop(_below_upper, _loop_body(body_fun, _while_bodies, _while_body),
                              (lower, upper, init_val))
    return result


# fori_loop's loop bodies, one per user body function: the same function makes the same body, whose trace is then
# cached as any loop body's is. A body refers to its function weakly, so that the entry (a weak key) can go.
_scan_steps: weakref.WeakKeyDictionary[Callable, Callable] = weakref.WeakKeyDictionary()
_while_bodies: weakref.WeakKeyDictionary[Callable, Callable] = weakref.WeakKeyDictionary()


def _loop_body(body_fun: Callable, made: weakref.WeakKeyDictionary,
               make: Callable[[Callable[[], Callable]], Callable]) -> Callable:
    try:
        body = made.get(body_fun)
        if body is None:
            body = made[body_fun] = make(weakref.ref(body_fun))
        return body
    except TypeError:  # not hashable or not weakly referenceable
        return make(lambda: body_fun)


def _scan_step(body_fun: Callable[[], Callable]) -> Callable:
    def step(loop_carry, _):  # named as JAX's, for carry errors
        i, x = loop_carry
        out = (i + 1, body_fun()(i, x)), None
        check_returned(out, body_fun(), "fori_loop")
        return out
    return step


def _while_body(body_fun: Callable[[], Callable]) -> Callable:
    def body(loop_carry):
        i, upper, x = loop_carry
        out = i + 1, upper, body_fun()(i, x)
        check_returned(out, body_fun(), "fori_loop")
        return out
    return body


def _below_upper(carry: tuple) -> Any:
    return lt(carry[0], carry[1])
