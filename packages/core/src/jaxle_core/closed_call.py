"""``closed_call``: a closed jaxpr applied to operands as one equation (JAX's ``closed_call``).

JAX stages such a call where it splits a loop inside a checkpointed function: the known part of a ``scan`` (the
loop-invariant work hoisted before the loop, then the loop) is one ``closed_call``. Evaluated, it runs its jaxpr
equation by equation; its derivatives, batching and lowering (in ad/, batching/ and the XLA backend's lowering/
``closed_call`` modules) keep the call, as JAX's do.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxle_core import core
from jaxle_core.caches import LruCache
from jaxle_core.core import ClosedJaxpr, Primitive
from jaxle_core.jaxpr_util import carried_jaxpr_dce_rule, dce_rules

__all__ = ["bind_closed_call", "closed_call_p", "with_named_calls"]


class _ClosedCallPrimitive(Primitive):
    """``closed_call``. Evaluated eagerly, its jaxpr runs equation by equation, as JAX's call does."""

    def bind(self, *args, **params):
        if core.evaluates_eagerly(args):
            closed = params["call_jaxpr"]
            return core.eval_jaxpr(closed.jaxpr, closed.consts, *args)
        return super().bind(*args, **params)


closed_call_p = _ClosedCallPrimitive("closed_call")
closed_call_p.multiple_results = True


@closed_call_p.def_abstract_eval
def _closed_call_avals(*avals: Any, call_jaxpr: ClosedJaxpr, **params: Any) -> list[Any]:
    return list(call_jaxpr.out_avals)


@closed_call_p.def_impl
def _closed_call_impl(*args: Any, call_jaxpr: ClosedJaxpr, **params: Any) -> list[Any]:
    return core.eval_jaxpr(call_jaxpr.jaxpr, call_jaxpr.consts, *args)


dce_rules[closed_call_p] = carried_jaxpr_dce_rule(jaxpr_param="call_jaxpr")


_named = LruCache()


def with_named_calls(closed: ClosedJaxpr) -> ClosedJaxpr:
    """``closed`` with every ``closed_call`` it holds (in the jaxprs its equations carry too) named
    ``eval_jaxpr``, as JAX's batching names each call it traces, batched or not."""
    named = _named.lookup(closed)
    if named is None:
        jaxpr = _named_calls_jaxpr(closed.jaxpr)
        named = _named[closed] = closed if jaxpr is closed.jaxpr else ClosedJaxpr(jaxpr, closed.consts)
    return named


def _named_calls_jaxpr(jaxpr: core.Jaxpr) -> core.Jaxpr:
    eqns = [_named_calls_eqn(eqn) for eqn in jaxpr.eqns]
    return jaxpr if all(a is b for a, b in zip(eqns, jaxpr.eqns)) else jaxpr.replace(eqns=eqns)


def _named_param(value: Any) -> Any:
    if isinstance(value, ClosedJaxpr):
        return with_named_calls(value)
    if isinstance(value, core.Jaxpr):
        return _named_calls_jaxpr(value)
    if isinstance(value, tuple):
        return tuple(_named_param(v) for v in value)
    return value


def _named_calls_eqn(eqn: core.JaxprEqn) -> core.JaxprEqn:
    params = {k: _named_param(v) for k, v in eqn.params.items()}
    if eqn.primitive is closed_call_p:
        params.setdefault("name", "eval_jaxpr")
    if params.keys() == eqn.params.keys() and all(params[k] is eqn.params[k] for k in params):
        return eqn
    return eqn.replace(params=params)


def bind_closed_call(closed: ClosedJaxpr, args: Sequence[Any], name: str | None = None) -> list[Any]:
    """A ``closed_call`` equation of ``closed`` applied to ``args``; a batched one carries a ``name`` (JAX's
    ``eval_jaxpr``, the function its batching traces), kept by the transformations after."""
    return closed_call_p.bind(*args, call_jaxpr=closed, **({} if name is None else {"name": name}))
