"""JVP of ``custom_vmap_call``: a ``custom_vmap_call`` of the differentiated function, whose rule differentiates
the function's rule (as JAX's ``custom_vmap_jvp``). There is no transpose: reverse mode fails, as in JAX."""

from __future__ import annotations

from typing import Any

import jaxle_tree as tree
from jaxle_core import core
from jaxle_core.ad.jvp import instantiate, jvp, jvp_rules
from jaxle_core.avals import get_aval
from jaxle_core.batching.trace import at_dim
from jaxle_core.core import ClosedJaxpr
from jaxle_core.custom_batching import BatchingRule, custom_vmap_call_p
from jaxle_core.staging import trace_to_jaxpr


def _jvp_of_rule(rule: BatchingRule, n: int) -> BatchingRule:
    def apply(axis_size: int, values: list, batched: list) -> tuple[list, list]:
        # Primals and tangents of an argument go through the rule together: batched if either is.
        either = [p or t for p, t in zip(batched[:n], batched[n:])]
        values = [at_dim(x, None, axis_size) if want and not has else x
                  for x, has, want in zip(values, batched, either + either)]
        out_batched: list[bool] = []

        def primal_rule(*xs: Any) -> list:
            outs, flags = rule.apply(axis_size, list(xs), either)
            out_batched[:] = flags
            return outs

        outs, tangents = jvp(primal_rule, values[:n], values[n:])
        return [*outs, *map(instantiate, tangents)], out_batched + out_batched

    return BatchingRule(apply, "custom_vmap_jvp.<locals>.jvp_of_rule_rule")


def _custom_vmap_call_jvp(primals: list, tangents: list, *, call: ClosedJaxpr, rule: BatchingRule, in_tree: Any,
                          out_tree: Any) -> tuple[list, list]:
    tangents = [instantiate(t) for t in tangents]
    n = len(primals)

    def jvp_of_call(*primals_and_tangents: Any) -> list:
        def run(*xs: Any) -> list:
            return core.eval_jaxpr(call.jaxpr, call.consts, *xs)

        outs, out_tangents = jvp(run, primals_and_tangents[:n], primals_and_tangents[n:])
        return [*outs, *map(instantiate, out_tangents)]

    jvp_call = trace_to_jaxpr(jvp_of_call, [get_aval(x) for x in (*primals, *tangents)], None)
    args = tree.tree_unflatten(in_tree, [0] * n)
    outs_structure = tree.tree_unflatten(out_tree, [0] * out_tree.num_leaves)
    outs = custom_vmap_call_p.bind(*primals, *tangents, call=jvp_call, rule=_jvp_of_rule(rule, n),
                                   in_tree=tree.tree_structure((args, args)),
                                   out_tree=tree.tree_structure((outs_structure, outs_structure)))
    m = len(outs) // 2
    return outs[:m], outs[m:]


jvp_rules[custom_vmap_call_p] = _custom_vmap_call_jvp
