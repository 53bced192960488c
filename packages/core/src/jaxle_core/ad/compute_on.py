"""Differentiation of ``compute_on``, as JAX's: every derivative stays behind ``compute_on`` equations on the same
compute. The JVP differentiates its jaxpr into a new ``compute_on`` computing the primal and tangent results;
linearization (``grad``, ``vjp``, ``linearize``) splits that into a known ``compute_on`` (the primal results and the
residuals, run now) and an unknown one (the tangents, staged); transposition turns a linear ``compute_on`` into a
``compute_on`` of the transposed jaxpr."""

from __future__ import annotations

from jaxle_core.ad.jit import jvp_call, partial_eval_call, transpose_call
from jaxle_core.ad.jvp import jvp_rules
from jaxle_core.ad.partial_eval import PartialStagingTrace, partial_eval_rules
from jaxle_core.ad.transpose import transpose_rules
from jaxle_core.caches import LruCache
from jaxle_core.compute_on import bind_compute_on, compute_on_p
from jaxle_core.compute_types import computing_on
from jaxle_core.core import ClosedJaxpr

__all__: list[str] = []

# the splits and transpositions of compute_on jaxprs, apart from jit's (a jaxpr traced on a compute is its own)
_partial_evals = LruCache()
_transposes = LruCache()


def _compute_on_jvp(primals, tangents, *, jaxpr: ClosedJaxpr, compute_type: str, out_memory_spaces: tuple,
                    compiler_options_json):
    def bind(new_jaxpr, args, out_nonzero):
        spaces = (*out_memory_spaces, *[s for s, nz in zip(out_memory_spaces, out_nonzero) if nz])
        return bind_compute_on(new_jaxpr, args, compute_type, spaces, compiler_options_json)

    return jvp_call(primals, tangents, jaxpr, bind, context=lambda: computing_on(compute_type))


jvp_rules[compute_on_p] = _compute_on_jvp


def _compute_on_partial_eval(trace: PartialStagingTrace, args, params):
    compute_type, spaces, options = params["compute_type"], params["out_memory_spaces"], params["compiler_options_json"]

    def bind_known(known, known_args, split, literals):
        # its results: the known ones in their memory spaces (but those that are literals), then the residuals it
        # computes, where they were computed
        results = [space for i, (space, unknown) in enumerate(zip(spaces, split.out_unknowns))
                   if not unknown and i not in literals]
        residuals = [aval.memory_space for aval in known.out_avals[len(results):]]
        return bind_compute_on(known, known_args, compute_type, [*results, *residuals], options)

    def unknown_params(split):
        return dict(params, jaxpr=split.unknown,
                    out_memory_spaces=tuple(s for s, unknown in zip(spaces, split.out_unknowns) if unknown))

    return partial_eval_call(trace, args, params["jaxpr"], compute_on_p, bind_known, unknown_params, _partial_evals)


partial_eval_rules[compute_on_p] = _compute_on_partial_eval


def _compute_on_transpose(cts, *args, jaxpr: ClosedJaxpr, compute_type: str, out_memory_spaces: tuple,
                          compiler_options_json):
    with computing_on(compute_type):
        closed, inputs, placed = transpose_call(jaxpr, args, cts, _transposes)
    # each cotangent in the memory space of the argument it is the cotangent of
    spaces = [aval.memory_space for aval in closed.out_avals]
    return placed(bind_compute_on(closed, inputs, compute_type, spaces, compiler_options_json))


transpose_rules[compute_on_p] = _compute_on_transpose
