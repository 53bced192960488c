"""``composite``: a named operation defined by its decomposition, which compilers may replace by a
dedicated implementation.

The ``composite`` primitive holds the traced decomposition (``jaxpr``), the operation's ``name`` and
``version``, and the keyword arguments as ``attributes``: ``(name, leaves, treedef)`` triples, sorted by
name. Evaluating it evaluates the decomposition.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import jaxle_tree as tree
from jaxle_core import core
from jaxle_core.avals import get_aval
from jaxle_core.core import Primitive
from jaxle_core.staging import DebugInfo, flatten_fun, trace_to_jaxpr

__all__ = ["composite"]

composite_p = Primitive("composite")
composite_p.multiple_results = True
composite_p.def_abstract_eval(lambda *avals, name, attributes, version, jaxpr: jaxpr.out_avals)
composite_p.def_impl(lambda *args, name, attributes, version, jaxpr: core.eval_jaxpr(jaxpr.jaxpr, jaxpr.consts,
                                                                                       *args))


def composite(decomposition: Callable, name: str, version: int = 0) -> Callable:
    """``decomposition`` as one ``composite`` operation called ``name``. Positional arguments of the result
    are arrays (pytrees); keyword arguments are static attributes passed on to ``decomposition``."""

    def composite_fun(*args: Any, **kwargs: Any) -> Any:
        leaves, in_tree = tree.tree_flatten(args)
        flat_decomposition, out_tree = flatten_fun(functools.partial(decomposition, **kwargs), in_tree)
        closed = trace_to_jaxpr(flat_decomposition, [get_aval(x) for x in leaves],
                                DebugInfo("composite", decomposition, ()))
        attributes = tuple((key, tuple(tree.tree_leaves(kwargs[key])), tree.tree_structure(kwargs[key]))
                           for key in sorted(kwargs))
        outs = composite_p.bind(*leaves, name=name, attributes=attributes, version=version, jaxpr=closed)
        return tree.tree_unflatten(out_tree(), outs)

    composite_fun.__name__ = getattr(decomposition, "__name__", "composite")
    return composite_fun
