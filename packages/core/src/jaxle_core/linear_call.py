"""``linear_call`` (``jax.custom_derivatives.linear_call``): a function linear in some of its arguments, with
the transpose its user gives.

``linear_call(fun, fun_transpose, residual_args, linear_args)`` stages ``fun(residual_args, linear_args)`` as a
``linear_call`` equation: its jaxpr (``callee``, its constants first among the operands) and a
``transpose_thunk`` that traces ``fun_transpose(residual_args, cotangents)`` when the equation is transposed.
Differentiating treats the residuals as constants; transposing gives another ``linear_call`` whose own transpose
is the original (see ``ad/linear_call.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jaxle_tree as tree
from jaxle_core import core
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import ClosedJaxpr, Primitive
from jaxle_core.staging import DebugInfo, flatten_fun, trace_to_jaxpr

__all__ = ["linear_call", "linear_call_p"]

linear_call_p = Primitive("linear_call")
linear_call_p.multiple_results = True


@linear_call_p.def_abstract_eval
def _linear_call_avals(*avals: ShapedArray, callee: ClosedJaxpr, **params: Any) -> list[ShapedArray]:
    return list(callee.out_avals)


@linear_call_p.def_impl
def _linear_call_impl(*args: Any, callee: ClosedJaxpr, **params: Any) -> list[Any]:
    return core.eval_jaxpr(callee.jaxpr, callee.consts, *args)


def trace_callee(fun: Callable, res_tree: Any, res_avals: Sequence[ShapedArray], lin_tree: Any,
                 lin_avals: Sequence[ShapedArray]) -> tuple[ClosedJaxpr, list[Any], Any]:
    """``fun(residuals, linear)`` traced: its jaxpr over (constants, residual leaves, linear leaves), its
    constants and its output tree."""
    in_tree = tree.tree_structure((tree.tree_unflatten(res_tree, [0] * res_tree.num_leaves),
                                   tree.tree_unflatten(lin_tree, [0] * lin_tree.num_leaves)))
    flat, out_tree = flatten_fun(lambda res, lin: fun(res, lin), in_tree,
                                 DebugInfo("linear_call", fun, ["residual_args", "linear_args"]))
    closed = trace_to_jaxpr(flat, [*res_avals, *lin_avals])
    jaxpr = closed.jaxpr
    hoisted = jaxpr.replace(constvars=[], invars=jaxpr.constvars + jaxpr.invars)
    return ClosedJaxpr(hoisted, []), list(closed.consts), out_tree()


def _memoize(thunk: Callable[[], Any]) -> Callable[[], Any]:
    """``thunk`` run once, its result kept."""
    results: list[Any] = []

    def memoized() -> Any:
        if not results:
            results.append(thunk())
        return results[0]

    return memoized


def transpose_thunk_of(fun_transpose: Callable, res_tree: Any, res_avals: Sequence[ShapedArray], out_tree: Any,
                       out_avals: Sequence[ShapedArray], lin_tree: Any) -> Callable[[], tuple[ClosedJaxpr, list]]:
    """A thunk tracing ``fun_transpose(residuals, cotangents)`` (once): its jaxpr and constants."""

    def trace() -> tuple[ClosedJaxpr, list]:
        def checked(res, cts):
            result = fun_transpose(res, cts)
            if tree.tree_structure(result) != lin_tree:
                raise TypeError("transpose output pytree structure must match that of linear inputs, got output "
                                f"structure {tree.tree_structure(result)} and input structure {lin_tree}.")
            return result

        closed, consts, _ = trace_callee(checked, res_tree, res_avals, out_tree, out_avals)
        return closed, consts

    return _memoize(trace)


def linear_call(fun: Callable, fun_transpose: Callable, residual_args: Any, linear_args: Any) -> Any:
    """``fun(residual_args, linear_args)``, where ``fun`` is linear in ``linear_args`` and
    ``fun_transpose(residual_args, cotangents)`` is its transpose (used when it is differentiated in reverse
    mode)."""
    res_leaves, res_tree = tree.tree_flatten(residual_args)
    lin_leaves, lin_tree = tree.tree_flatten(linear_args)
    res_avals, lin_avals = [get_aval(x) for x in res_leaves], [get_aval(x) for x in lin_leaves]
    callee, consts, out_tree = trace_callee(fun, res_tree, res_avals, lin_tree, lin_avals)
    thunk = transpose_thunk_of(fun_transpose, res_tree, res_avals, out_tree, callee.out_avals, lin_tree)
    outs = linear_call_p.bind(*consts, *res_leaves, *lin_leaves, callee=callee, num_callee_consts=len(consts),
                              num_res=len(res_leaves), transpose_thunk=thunk)
    return tree.tree_unflatten(out_tree, outs)
