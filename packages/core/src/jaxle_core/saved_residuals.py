"""``print_saved_residuals``: which values reverse-mode differentiation of a function keeps for the backward pass,
and where each comes from (an argument, a constant, or the line that computed it).

The residuals are the values the linearized function closes over; the function is linearized while the source
location of each staged equation is recorded (nothing is recorded when tracing normally).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jaxle_tree as tree
from jaxle_core.ad import linearize
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.checkpoint import name_p
from jaxle_core.core import Literal, Var
from jaxle_core.jit import _signature_or_none, flat_argument_names, jit_p
from jaxle_core.lax.structural import reduce_precision_p
from jaxle_core.source_info import recording_locations, summarize
from jaxle_core.staging import trace_to_jaxpr

__all__ = ["print_saved_residuals", "saved_residuals"]


def saved_residuals(f: Callable[..., Any], *args: Any, **kwargs: Any) -> list[tuple[ShapedArray, str]]:
    """``(aval, origin)`` of each value that ``grad``/``vjp`` of ``f`` at ``args`` saves: literals first, then
    constants, arguments, and the outputs of the equations that computed the others, in program order."""
    flat_args, in_tree = tree.tree_flatten((args, kwargs))

    def linearized_residuals(*leaves: Any) -> list[Any]:
        def flat_f(*xs: Any) -> Any:
            call_args, call_kwargs = tree.tree_unflatten(in_tree, xs)
            return f(*call_args, **call_kwargs)

        return tree.tree_leaves(linearize(flat_f, *leaves)[1])

    with recording_locations() as locations:
        closed = trace_to_jaxpr(linearized_residuals, [get_aval(x) for x in flat_args])
    jaxpr = closed.jaxpr
    residuals = [v for v in jaxpr.outvars if not isinstance(v, Literal)]
    results = [(v.aval, "from a literal") for v in jaxpr.outvars if isinstance(v, Literal)]
    results += [(v.aval, "from a constant") for v in jaxpr.constvars if v in residuals]
    names = flat_argument_names(_signature_or_none(f), args, set(), kwargs)
    results += [(v.aval, f"from the argument {name}") for v, name in zip(jaxpr.invars, names) if v in residuals]
    kinds: dict[Var, str] = {}  # each equation output: what computed it
    for eqn in jaxpr.eqns:
        if eqn.primitive is reduce_precision_p and eqn.invars[0] in kinds:
            # checkpointing saves a value through a reduce_precision to its own precision: the same value (whose
            # location is the copy's: the equation computing it was re-staged with a new output)
            kinds[eqn.outvars[0]] = kinds[eqn.invars[0]]
        elif eqn.primitive is name_p:
            kinds[eqn.outvars[0]] = f"named '{eqn.params['name']}'"
        elif eqn.primitive is jit_p:
            kinds.update((v, f"output of jitted function '{eqn.params['name']}'") for v in eqn.outvars)
        else:
            kinds.update((v, f"output of {eqn.primitive.name}") for v in eqn.outvars)
        results += [(v.aval, f"{kinds[v]} from {summarize(locations[v])}") for v in eqn.outvars if v in residuals]
    return results


def print_saved_residuals(f: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
    """Print each residual that reverse-mode differentiation of ``f`` at ``args`` saves, with its origin."""
    for aval, origin in saved_residuals(f, *args, **kwargs):
        print(f"{aval.str_short(short_dtypes=True)} {origin}")
