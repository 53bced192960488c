"""``compute_on`` equations (``jax.experimental.compute_on.compute_on2``): a function computed on a kind of compute,
its results put in the memory spaces asked for.

``call_on(fun, args, ...)`` traces ``fun`` inside ``computing_on(compute_type)`` (so its equations are marked, see
compute_types.py) into a ``compute_on`` equation whose ``jaxpr`` keeps the function's constants; each result is
typed in its ``out_memory_spaces`` entry. Its derivatives, batching and lowering are in ad/, batching/ and the XLA
backend's lowering/ (``compute_on`` modules).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import jaxle_tree as tree
from jaxle_core import core
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.compute_types import check_compute_type, computing_on
from jaxle_core.core import ClosedJaxpr, Primitive
from jaxle_core.jaxpr_util import carried_jaxpr_dce_rule, dce_rules
from jaxle_core.memory_spaces import MemorySpace, register_placing
from jaxle_core.staging import DebugInfo, flatten_fun, trace_to_jaxpr

__all__ = ["bind_compute_on", "call_on", "compute_on_p"]

compute_on_p = Primitive("compute_on")
compute_on_p.multiple_results = True
register_placing(compute_on_p)


@compute_on_p.def_abstract_eval
def _compute_on_avals(*avals: ShapedArray, jaxpr: ClosedJaxpr, out_memory_spaces: tuple, **params: Any
                      ) -> list[ShapedArray]:
    return [aval.update(memory_space=space) for aval, space in zip(jaxpr.out_avals, out_memory_spaces)]


@compute_on_p.def_impl
def _compute_on_impl(*args: Any, jaxpr: ClosedJaxpr, compute_type: str, **params: Any) -> list[Any]:
    with computing_on(compute_type):
        return core.eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *args)


dce_rules[compute_on_p] = carried_jaxpr_dce_rule(out_params=("out_memory_spaces",))


def bind_compute_on(closed: ClosedJaxpr, args: Sequence[Any], compute_type: str, out_memory_spaces: Sequence[Any],
                    compiler_options_json: str | None) -> list[Any]:
    """A ``compute_on`` equation of ``closed`` applied to ``args`` (parameters in JAX's order)."""
    return compute_on_p.bind(*args, compiler_options_json=compiler_options_json, compute_type=compute_type,
                             jaxpr=closed, out_memory_spaces=tuple(out_memory_spaces))


def call_on(fun: Callable, args: Sequence[Any], compute_type: str, out_memory_spaces: Any,
            compiler_options: dict | None) -> Any:
    """``fun(*args)`` as a ``compute_on`` equation: traced on ``compute_type``, each result in the memory space
    ``out_memory_spaces`` gives it (a tree prefix of the results)."""
    check_compute_type(compute_type)
    leaves, in_tree = tree.tree_flatten(tuple(args))
    flat, out_tree = flatten_fun(fun, in_tree, DebugInfo("compute_on", fun, [f"args[{i}]" for i in range(
        len(leaves))]))
    with computing_on(compute_type):
        closed = trace_to_jaxpr(flat, [get_aval(x) for x in leaves])
    spaces = _spaces_of(out_memory_spaces, out_tree())
    options = None if compiler_options is None else json.dumps(compiler_options)
    outs = bind_compute_on(closed, leaves, compute_type, spaces, options)
    return tree.tree_unflatten(out_tree(), outs)


def _spaces_of(spaces: Any, out_tree: Any) -> list[MemorySpace]:
    """Each result's memory space: ``spaces`` repeated over the results it is a tree prefix of (JAX's error
    otherwise)."""
    from jaxle_tree.prefix_errors import prefix_errors  # local: only an error needs it

    full = tree.tree_unflatten(out_tree, [object()] * out_tree.num_leaves)
    errors = [make("compute_on out_memory_spaces") for make in prefix_errors((), spaces, full)]
    if errors:
        details = "\n".join(f"  {error}" for error in errors)
        raise ValueError("compute_on out_memory_spaces specification must be a tree prefix of the corresponding "
                         f"value; \n  Mismatch details ({len(errors)} found):\n{details}")
    return tree.tree_leaves(tree.tree_broadcast(spaces, full))
