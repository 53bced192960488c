"""``jax.debug.inspect_array_sharding``: call back with the sharding of a value, as the compiler lays it out.

Outside transformations the callback gets the array's sharding at once. Inside ``jit`` it is an
``inspect_sharding`` equation with no outputs, kept by dead-code elimination; the backend calls the callback
once, when it compiles the program, with the layout it chose for the value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jaxle_tree as tree
from jaxle_core.ad.jvp import jvp_rules
from jaxle_core.batching.trace import batching_rules
from jaxle_core.core import Primitive, Tracer

__all__ = ["inspect_array_sharding", "inspect_sharding_p"]

inspect_sharding_p = Primitive("inspect_sharding")
inspect_sharding_p.multiple_results = True
inspect_sharding_p.effectful = True  # no outputs, but the callback must run: dead-code elimination keeps it
inspect_sharding_p.def_abstract_eval(lambda aval, **params: [])


@inspect_sharding_p.def_impl
def _inspect_sharding_impl(x: Any, *, callback: Callable[[Any], Any]) -> list:
    callback(x.sharding)
    return []


def _inspect_sharding_jvp(primals, tangents, **params):
    return inspect_sharding_p.bind(*primals, **params), []


def _inspect_sharding_batched(vals, dims, **params):
    return inspect_sharding_p.bind(*vals, **params), []


jvp_rules[inspect_sharding_p] = _inspect_sharding_jvp
batching_rules[inspect_sharding_p] = _inspect_sharding_batched


def inspect_array_sharding(value: Any, *, callback: Callable[[Any], Any]) -> None:
    """Call ``callback`` with the sharding of each array of ``value`` (a pytree)."""
    for leaf in tree.tree_leaves(value):
        if isinstance(leaf, Tracer):
            inspect_sharding_p.bind(leaf, callback=callback)
        else:  # a concrete array: its own layout, now (compiled programs would call back only once)
            callback(leaf.sharding)
