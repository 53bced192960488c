"""Derivatives of ``linear_call``: linear in its linear operands (the residuals are constants); its transpose
is a ``linear_call`` of the user's transpose, whose own transpose is the original call."""

from __future__ import annotations

from typing import Any

from jaxle_core.ad.jvp import Zero, instantiate, jvp_rules
from jaxle_core.ad.transpose import is_undefined, transpose_rules
from jaxle_core.core import ClosedJaxpr
from jaxle_core.linear_call import linear_call_p


def _linear_call_jvp(primals, tangents, *, callee: ClosedJaxpr, num_callee_consts: int, num_res: int,
                     transpose_thunk):
    params = dict(callee=callee, num_callee_consts=num_callee_consts, num_res=num_res,
                  transpose_thunk=transpose_thunk)
    outs = linear_call_p.bind(*primals, **params)
    known = num_callee_consts + num_res
    linear_tangents = [instantiate(t) for t in tangents[known:]]
    return outs, linear_call_p.bind(*primals[:known], *linear_tangents, **params)


def _linear_call_transpose_rule(cts, *args: Any, callee: ClosedJaxpr, num_callee_consts: int, num_res: int,
                           transpose_thunk):
    residuals = args[num_callee_consts:num_callee_consts + num_res]
    if any(is_undefined(r) for r in residuals) or any(is_undefined(c) for c in args[:num_callee_consts]):
        raise TypeError("linear_call is not linear in its residual arguments")
    transposed, consts = transpose_thunk()
    original = (callee, list(args[:num_callee_consts]))

    def new_transpose_thunk() -> tuple[ClosedJaxpr, list]:
        return original

    cts = [instantiate(ct) if type(ct) is Zero else ct for ct in cts]
    cts_in = linear_call_p.bind(*consts, *residuals, *cts, callee=transposed, num_callee_consts=len(consts),
                                num_res=num_res, transpose_thunk=new_transpose_thunk)
    return [None] * (num_callee_consts + num_res) + list(cts_in)


jvp_rules[linear_call_p] = _linear_call_jvp
transpose_rules[linear_call_p] = _linear_call_transpose_rule
