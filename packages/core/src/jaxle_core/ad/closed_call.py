"""Differentiation of ``closed_call``, as JAX's: the JVP is a ``closed_call`` of the JVP of its jaxpr; linearization
splits that into a known ``closed_call`` (the residuals then the primal results, run now) and an unknown one (the
tangents, staged); transposition makes a ``closed_call`` of the transposed jaxpr."""

from __future__ import annotations

from jaxle_core.ad.jit import cached_on_jaxpr, jvp_call, partial_eval_call, transpose_call
from jaxle_core.ad.jvp import jvp_rules
from jaxle_core.ad.partial_eval import PartialStagingTrace, partial_eval_rules
from jaxle_core.ad.transpose import transpose_rules
from jaxle_core.caches import LruCache
from jaxle_core.closed_call import bind_closed_call, closed_call_p
from jaxle_core.core import ClosedJaxpr

__all__: list[str] = []

# the splits and transpositions of called jaxprs, apart from jit's
_partial_evals = LruCache()
_transposes = LruCache()
_reorderings = LruCache()


def _closed_call_jvp(primals, tangents, *, call_jaxpr: ClosedJaxpr, name: str | None = None):
    return jvp_call(primals, tangents, call_jaxpr, lambda new_jaxpr, args, _: bind_closed_call(new_jaxpr, args, name))


jvp_rules[closed_call_p] = _closed_call_jvp


def _residuals_first(known: ClosedJaxpr, n_outs: int) -> ClosedJaxpr:
    """``known`` (its ``n_outs`` outputs then the residuals it computes) returning the residuals first, as JAX's
    linearization of a call returns them."""
    outvars = known.jaxpr.outvars
    return ClosedJaxpr(known.jaxpr.replace(outvars=[*outvars[n_outs:], *outvars[:n_outs]]), known.consts)


def _closed_call_partial_eval(trace: PartialStagingTrace, args, params):
    def bind_known(known, known_args, split, literals):
        n_outs = split.out_unknowns.count(False) - len(literals)
        reordered = cached_on_jaxpr(_reorderings, known, [n_outs], lambda: _residuals_first(known, n_outs))
        outs = bind_closed_call(reordered, known_args, params.get("name"))
        n_res = len(outs) - n_outs
        return [*outs[n_res:], *outs[:n_res]]

    return partial_eval_call(trace, args, params["call_jaxpr"], closed_call_p, bind_known,
                             lambda split: dict(params, call_jaxpr=split.unknown), _partial_evals,
                             residuals_first=True, linearized_whole=True)


partial_eval_rules[closed_call_p] = _closed_call_partial_eval


def _closed_call_transpose(cts, *args, call_jaxpr: ClosedJaxpr, name: str | None = None):
    closed, inputs, placed = transpose_call(call_jaxpr, args, cts, _transposes)
    return placed(bind_closed_call(closed, inputs, name))


transpose_rules[closed_call_p] = _closed_call_transpose
