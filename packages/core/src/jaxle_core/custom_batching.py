"""``jax.custom_batching``: functions with their own batching rule (``custom_vmap``, ``sequential_vmap``).

A ``custom_vmap`` function is staged as a ``custom_vmap_call`` equation carrying the jaxpr of the function and its
rule. Evaluated or compiled, the jaxpr runs; under ``vmap`` the rule runs instead:
``rule(axis_size, in_batched, *args) -> (out, out_batched)``, where ``in_batched`` holds, per argument, a pytree of
bools saying which arguments carry the batch (at axis 0), and ``out_batched`` is a pytree prefix of ``out`` saying
which outputs do. Under ``jvp`` the equation stays a ``custom_vmap_call`` of the differentiated function, whose rule
differentiates the user's rule; reverse mode is not supported, as in JAX.

The rules live in ``jaxle_core.batching.custom_batching`` and ``jaxle_core.ad.custom_batching``.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any

import jaxle_tree as tree
from jaxle_core import core
from jaxle_core.avals import get_aval
from jaxle_core.core import ClosedJaxpr, Primitive
from jaxle_core.staging import DebugInfo, flatten_fun, trace_to_jaxpr

__all__ = ["BatchingRule", "custom_vmap", "custom_vmap_call_p", "sequential_vmap"]

custom_vmap_call_p = Primitive("custom_vmap_call")
custom_vmap_call_p.multiple_results = True


@custom_vmap_call_p.def_abstract_eval
def _custom_vmap_call_avals(*avals: Any, call: ClosedJaxpr, **params: Any) -> list:
    return call.out_avals


@custom_vmap_call_p.def_impl
def _custom_vmap_call_impl(*args: Any, call: ClosedJaxpr, **params: Any) -> list:
    return core.eval_jaxpr(call.jaxpr, call.consts, *args)


class BatchingRule:
    """A ``custom_vmap_call``'s rule: ``apply`` maps flat values and their batched flags (batch at axis 0) to flat
    outputs and theirs. Printed as JAX prints the function it wraps (its address masked)."""

    def __init__(self, apply: Callable[[int, list, list], tuple[list, list]], name: str):
        self.apply = apply
        self.name = name

    def __repr__(self) -> str:
        return f"<function {self.name} at 0xXXXXXXXXXXXX>"


def user_rule(rule: Callable, in_tree: Any, out_tree: Any) -> BatchingRule:
    """The rule of a ``custom_vmap`` function: its arguments unflattened from ``in_tree`` (``([], args)``)."""

    def apply(axis_size: int, values: list, batched: list) -> tuple[list, list]:
        _, args = tree.tree_unflatten(in_tree, values)
        _, args_batched = tree.tree_unflatten(in_tree, batched)
        out, out_batched = rule(axis_size, list(args_batched), *args)
        outs, structure = tree.tree_flatten(out)
        if structure != out_tree:
            raise ValueError(f"structure of output value {structure} did not match the output of the custom_vmap "
                             f"function {out_tree}")
        return outs, tree.tree_leaves(tree.tree_broadcast(out_batched, out))

    return BatchingRule(apply, getattr(rule, "__qualname__", repr(rule)))


class custom_vmap:  # noqa: N801  (JAX's name)
    """A function whose batching rule is given by ``def_vmap``."""

    def __init__(self, fun: Callable):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.vmap_rule: Callable | None = None

    def def_vmap(self, vmap_rule: Callable) -> Callable:
        """Set the rule ``vmap_rule(axis_size, in_batched, *args) -> (out, out_batched)``; returns it."""
        self.vmap_rule = vmap_rule
        return vmap_rule

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        name = getattr(self.fun, "__name__", repr(self.fun))
        if self.vmap_rule is None:
            raise AttributeError(f"No batching rule defined for custom_vmap function {name} using def_vmap.")
        if kwargs:
            args = inspect.signature(self.fun).bind(*args, **kwargs).args
        flat, in_tree = tree.tree_flatten(([], tuple(args)))
        flat_fun, out_tree = flatten_fun(lambda _, call_args: self.fun(*call_args), in_tree)
        call = trace_to_jaxpr(flat_fun, [get_aval(x) for x in flat],
                              DebugInfo("custom_vmap", self.fun, [f"args[{i}]" for i in range(len(flat))]))
        outs = custom_vmap_call_p.bind(*flat, call=call, in_tree=in_tree, out_tree=out_tree(),
                                       rule=user_rule(self.vmap_rule, in_tree, out_tree()))
        return tree.tree_unflatten(out_tree(), outs)


def sequential_vmap(f: Callable) -> custom_vmap:
    """``f`` as a ``custom_vmap`` function whose batching maps it over the batch one element at a time
    (``lax.map``), the unbatched arguments shared."""
    from jaxle_core.lax.control_flow.scan import map as lax_map  # local: lax's control flow imports tracing

    f = custom_vmap(f)

    @f.def_vmap
    def rule(axis_size: int, in_batched: Sequence[Any], *args: Any) -> tuple[Any, bool]:
        leaves, structure = tree.tree_flatten(args)
        batched = tree.tree_leaves(tree.tree_broadcast(list(in_batched), list(args)))
        mapped = [x for x, b in zip(leaves, batched) if b]

        def one(mapped_leaves: list) -> Any:
            it, shared = iter(mapped_leaves), iter(x for x, b in zip(leaves, batched) if not b)
            return f(*tree.tree_unflatten(structure, [next(it) if b else next(shared) for b in batched]))

        return lax_map(one, mapped), True

    return f
