"""Differentiation of ``compute_on``: the JVP differentiates its jaxpr into a new ``compute_on`` equation computing
the primal and tangent results on the same compute (as JAX's). Linearizing (``grad``, ``vjp``) differentiates the
equations inside it instead, each staged on that compute, so their derivatives and transposes are marked for it."""

from __future__ import annotations

from jaxle_core.ad.jit import jvp_jaxpr
from jaxle_core.ad.jvp import Zero, jvp_flat, jvp_rules, tangent_aval
from jaxle_core.ad.partial_eval import PartialStagingTrace
from jaxle_core.compute_on import bind_compute_on, compute_on_p
from jaxle_core.compute_types import computing_on
from jaxle_core.core import ClosedJaxpr, current_trace, eval_jaxpr

__all__: list[str] = []


def _compute_on_jvp(primals, tangents, *, jaxpr: ClosedJaxpr, compute_type: str, out_memory_spaces: tuple,
                    compiler_options_json):
    if isinstance(current_trace(), PartialStagingTrace):
        with computing_on(compute_type):
            primals_out, tangents_out, _ = jvp_flat(lambda *xs: (eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *xs), None),
                                                    list(primals), list(tangents))
        return primals_out, tangents_out
    with computing_on(compute_type):
        new_jaxpr, out_nonzero = jvp_jaxpr(jaxpr, [type(t) is not Zero for t in tangents])
    spaces = (*out_memory_spaces, *[s for s, nz in zip(out_memory_spaces, out_nonzero) if nz])
    outs = bind_compute_on(new_jaxpr, [*primals, *[t for t in tangents if type(t) is not Zero]], compute_type,
                           spaces, compiler_options_json)
    n_out = len(jaxpr.out_avals)
    given = iter(outs[n_out:])
    return outs[:n_out], [next(given) if nz else Zero(tangent_aval(aval))
                          for nz, aval in zip(out_nonzero, jaxpr.out_avals)]


jvp_rules[compute_on_p] = _compute_on_jvp
