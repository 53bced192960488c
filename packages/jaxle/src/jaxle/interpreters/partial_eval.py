"""``jax.interpreters.partial_eval``: tracing wrapped functions (``jaxle.extend.linear_util``) to jaxprs.

``trace_to_jaxpr_dynamic`` stages a function on abstract inputs; ``trace_to_jaxpr_nounits`` partially evaluates
it: inputs given as known ``PartialVal``s are computed with now, and only the work that needs the unknown ones is
staged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxle.extend.linear_util import WrappedFun
from jaxle_core import core
from jaxle_core.ad.partial_eval import PartialStagingTrace
from jaxle_core.avals import AbstractValue, get_aval
from jaxle_core.core import Jaxpr
from jaxle_core.jaxpr_util import dce_jaxpr
from jaxle_core.staging import DynamicJaxprTracer, trace_to_jaxpr

__all__ = ["DynamicJaxprTracer", "PartialVal", "Val", "dce_jaxpr", "trace_to_jaxpr_dynamic", "trace_to_jaxpr_nounits"]

Val = Any


class PartialVal(tuple):
    """A value known now (``PartialVal.known(value)``: ``(None, value)``) or only by its type
    (``PartialVal.unknown(aval)``: ``(aval, None)``)."""

    def __new__(cls, xs: tuple[AbstractValue | None, Any]):
        return tuple.__new__(cls, xs)

    @classmethod
    def known(cls, const: Any) -> PartialVal:
        return cls((None, const))

    @classmethod
    def unknown(cls, aval: AbstractValue) -> PartialVal:
        return cls((aval, None))

    def is_known(self) -> bool:
        return self[0] is None

    def get_known(self) -> Any:
        """The value if known, else None."""
        return self[1] if self[0] is None else None

    def get_aval(self) -> AbstractValue:
        return get_aval(self[1]) if self[0] is None else self[0]


def trace_to_jaxpr_dynamic(fun: WrappedFun, in_avals: Sequence[AbstractValue], *, keep_inputs: Any = None,
                           lower: bool = False, auto_dce: bool = False) -> tuple[Jaxpr, list[AbstractValue], list]:
    """``(jaxpr, out_avals, consts)``: ``fun`` (flat arrays in, a flat sequence out) staged on ``in_avals``; the
    jaxpr's constvars stand for ``consts``."""
    closed = trace_to_jaxpr(lambda *args: list(fun.call_wrapped(*args)), list(in_avals), None)
    return closed.jaxpr, closed.out_avals, closed.consts


def trace_to_jaxpr_nounits(fun: WrappedFun, pvals: Sequence[PartialVal],
                           instantiate: bool | Sequence[bool] = False) -> tuple[Jaxpr, list[PartialVal], list]:
    """``(jaxpr, out_pvals, consts)``: ``fun`` run with the known ``pvals``' values, the work that needs unknown
    ones staged into ``jaxpr`` (inputs: the unknown ``pvals``; constvars: the known values it reads, ``consts``).
    An output is known unless it depends on an unknown input or ``instantiate`` says to stage it."""
    trace = PartialStagingTrace(core.current_trace())
    with core.set_current_trace(trace):
        args = [pv.get_known() if pv.is_known() else trace.new_arg(pv.get_aval()) for pv in pvals]
        outs = list(fun.call_wrapped(*args))
    trace.invalidate()
    forced = [instantiate] * len(outs) if isinstance(instantiate, bool) else list(instantiate)
    unknown = [trace.is_unknown(x) or force for x, force in zip(outs, forced)]
    closed = trace.to_closed_jaxpr([x for x, u in zip(outs, unknown) if u])
    out_pvals = [PartialVal.unknown(get_aval(x)) if u else PartialVal.known(x) for x, u in zip(outs, unknown)]
    return closed.jaxpr, out_pvals, closed.consts
