"""The JVP of ``jit``: differentiate the inner jaxpr and keep the result behind a new ``jit`` equation."""

from __future__ import annotations

from jaxle_core import core
from jaxle_core.ad.jvp import Zero, jvp_flat, jvp_rules, tangent_aval
from jaxle_core.core import ClosedJaxpr
from jaxle_core.jit import closure_convert, jit_p, jit_params
from jaxle_core.staging import trace_to_jaxpr


def jvp_jaxpr(closed: ClosedJaxpr, nonzero: list[bool]) -> tuple[ClosedJaxpr, list[bool]]:
    """A jaxpr taking primals then the nonzero tangents, returning primals then the nonzero output tangents.

    Also returns which output tangents are nonzero.
    """
    n = len(closed.jaxpr.invars)
    out_nonzero: list[bool] = []

    def fun(*args):
        primals, given = list(args[:n]), iter(args[n:])
        tangents = [next(given) if nz else Zero(tangent_aval(aval)) for nz, aval in zip(nonzero, closed.in_avals)]
        primals_out, tangents_out, _ = jvp_flat(
            lambda *xs: (core.eval_jaxpr(closed.jaxpr, closed.consts, *xs), None), primals, tangents)
        out_nonzero.extend(type(t) is not Zero for t in tangents_out)
        return primals_out + [t for t in tangents_out if type(t) is not Zero]

    in_avals = closed.in_avals + [tangent_aval(a) for a, nz in zip(closed.in_avals, nonzero) if nz]
    return trace_to_jaxpr(fun, in_avals, closed.jaxpr.debug_info), out_nonzero


def _jit_jvp(primals, tangents, *, jaxpr: ClosedJaxpr, name: str, keep_unused: bool, inline: bool, **params):
    nonzero = [type(t) is not Zero for t in tangents]
    new_jaxpr, out_nonzero = jvp_jaxpr(jaxpr, nonzero)
    converted, extra = closure_convert(new_jaxpr)
    new_params = jit_params(converted, name, keep_unused=keep_unused, inline=inline)
    outs = jit_p.bind(*extra, *primals, *[t for t in tangents if type(t) is not Zero], **new_params)
    n_out = len(jaxpr.out_avals)
    primals_out, given = outs[:n_out], iter(outs[n_out:])
    tangents_out = [next(given) if nz else Zero(tangent_aval(aval))
                    for nz, aval in zip(out_nonzero, jaxpr.out_avals)]
    return primals_out, tangents_out


jvp_rules[jit_p] = _jit_jvp
