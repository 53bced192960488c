"""Forward-mode AD of ``scan``: a scan of the body's JVP.

The new scan's operands are the consts, their nonzero tangents, the carry, its
tangents, the xs and their nonzero tangents; it returns the carry, its
tangents, the ys and their nonzero tangents. Which carry tangents are nonzero
is a fixed point: a carry whose tangent the body makes nonzero gets a
(zero-instantiated) tangent on the way in too.
"""

from __future__ import annotations

from collections.abc import Sequence

from jaxle_core import core
from jaxle_core.ad.jvp import Zero, instantiate, jvp_flat, jvp_rules, tangent_aval
from jaxle_core.core import ClosedJaxpr
from jaxle_core.lax.control_flow.scan import scan_p, scan_params, split_scan_args, stacked_aval
from jaxle_core.staging import trace_to_jaxpr


def scan_jvp_jaxpr(closed: ClosedJaxpr, num_consts: int, num_carry: int, nonzero: Sequence[bool],
                   ) -> tuple[ClosedJaxpr, list[bool], list[bool]]:
    """The body's JVP in scan order (consts, const tangents, carry, carry tangents, xs, x tangents -> carry,
    carry tangents, ys, y tangents), with only the ``nonzero`` input tangents; carry tangents flagged in
    ``nonzero`` are always returned. Also returns which carry and y tangents the body makes nonzero."""
    groups = split_scan_args(range(len(closed.in_avals)), num_consts, num_carry)
    carry_nonzero = split_scan_args(nonzero, num_consts, num_carry)[1]
    out_nonzero: list[bool] = []

    def fun(*args):
        given = iter(args)
        primals: list = [None] * len(closed.in_avals)
        tangents: list = [None] * len(closed.in_avals)
        for group in groups:
            for i in group:
                primals[i] = next(given)
            for i in group:
                tangents[i] = next(given) if nonzero[i] else Zero(tangent_aval(closed.in_avals[i]))
        outs, tangents_out, _ = jvp_flat(lambda *xs: (core.eval_jaxpr(closed.jaxpr, closed.consts, *xs), None),
                                         primals, tangents)
        out_nonzero.extend(type(t) is not Zero for t in tangents_out)
        carry_t = [instantiate(t) for t, nz in zip(tangents_out[:num_carry], carry_nonzero) if nz]
        y_t = tangents_out[num_carry:]
        return outs[:num_carry] + carry_t + outs[num_carry:] + [t for t in y_t if type(t) is not Zero]

    in_avals = []
    for group in groups:
        in_avals += [closed.in_avals[i] for i in group]
        in_avals += [tangent_aval(closed.in_avals[i]) for i in group if nonzero[i]]
    body = trace_to_jaxpr(fun, in_avals, closed.jaxpr.debug_info)
    return body, out_nonzero[:num_carry], out_nonzero[num_carry:]


def _scan_jvp(primals, tangents, *, reverse: bool, length: int, jaxpr: ClosedJaxpr, num_consts: int,
              num_carry: int, unroll: int):
    nonzero = [type(t) is not Zero for t in tangents]
    const_nz, carry_nz, xs_nz = split_scan_args(nonzero, num_consts, num_carry)
    while True:
        nonzero = const_nz + carry_nz + xs_nz
        body, carry_out_nz, y_nonzero = scan_jvp_jaxpr(jaxpr, num_consts, num_carry, nonzero)
        if all(a or not b for a, b in zip(carry_nz, carry_out_nz)):
            break
        carry_nz = [a or b for a, b in zip(carry_nz, carry_out_nz)]
    tangents = [instantiate(t) if nz else t for t, nz in zip(tangents, nonzero)]
    operands = []
    for prim_group, tan_group in zip(split_scan_args(primals, num_consts, num_carry),
                                     split_scan_args(tangents, num_consts, num_carry)):
        operands += prim_group + [t for t in tan_group if type(t) is not Zero]
    n_carry_t = sum(carry_nz)
    outs = scan_p.bind(*operands, **scan_params(body, length, num_consts + sum(const_nz), num_carry + n_carry_t,
                                                reverse, unroll))
    carry, carry_t = outs[:num_carry], iter(outs[num_carry:num_carry + n_carry_t])
    n_ys = len(jaxpr.out_avals) - num_carry
    ys, ys_t = outs[num_carry + n_carry_t:num_carry + n_carry_t + n_ys], iter(outs[num_carry + n_carry_t + n_ys:])
    out_avals = jaxpr.out_avals
    carry_tangents = [next(carry_t) if nz else Zero(tangent_aval(a)) for nz, a in zip(carry_nz, out_avals)]
    y_tangents = [next(ys_t) if nz else Zero(tangent_aval(stacked_aval(a, length)))
                  for nz, a in zip(y_nonzero, out_avals[num_carry:])]
    return list(carry) + list(ys), carry_tangents + y_tangents


jvp_rules[scan_p] = _scan_jvp
