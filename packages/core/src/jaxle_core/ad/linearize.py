"""Linearization: the primal computation now, its derivative as a linear jaxpr for later.

A ``LinearizeTrace`` is a JVP trace whose rules run under a
``PartialStagingTrace`` of tangents: in every rule, what depends only on
primals (the output and the coefficients of the derivative) is computed by the
parent trace at once, and what touches a tangent is staged into one linear
jaxpr. Known values the tangent equations read become that jaxpr's residuals.
The linear jaxpr is then evaluated forward (``linearize``'s jvp function) or
transposed (``vjp``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jaxle_core import core, dtypes
from jaxle_core.ad.jvp import JVPTrace, JVPTracer, Zero, jvp_flat, rule_zeros_state, tangent_aval
from jaxle_core.ad.partial_eval import PartialStagingTrace
from jaxle_core.ad.transpose import UndefinedPrimal, backward_pass
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import ClosedJaxpr


class LinearizeTracer(JVPTracer):
    """A ``JVPTracer`` of a ``LinearizeTrace``; a class of its own, named as JAX's, which Python's "unhashable
    type" error quotes."""

    __slots__ = ()


class LinearizeTrace(JVPTrace):
    """Forward mode whose tangent work is staged into ``tangent_trace`` instead of computed."""

    def __init__(self, tangent_trace: PartialStagingTrace):
        self.tangent_trace = tangent_trace

    tracer_name = "GradTracer"  # JAX's name for a value traced by grad (its tangent is staged, not computed)
    tracer_type = LinearizeTracer
    # JAX linearizes a primitive by staging its JVP into a jaxpr inside this trace, binding it again there: what its
    # bind adds (a conversion's constraint to its sharding) is added at both levels (``convert_element_type_p.bind``),
    # and a jitted function called here is staged into another program (refused with ``compiler_options``)
    linearizes_by_staging = True

    def describe(self) -> str:
        return "a linearize trace"

    def describe_tangent(self, tangent: Any) -> str:
        return f"typeof(tangent)={tangent.aval.str_short(short_dtypes=True)}"

    def rule_trace(self) -> core.Trace:
        return self.tangent_trace


@dataclass(eq=False)
class Linearization:
    """A function's derivative at a point: a linear jaxpr and the residuals it reads.

    ``jaxpr`` takes the residuals, then the tangents of the inputs in ``in_nonzero``, and returns the
    tangents of the outputs in ``out_nonzero`` (other inputs and outputs have zero tangents).
    """

    jaxpr: ClosedJaxpr
    residuals: list[Any]
    in_avals: list[ShapedArray]
    in_nonzero: list[bool]
    out_avals: list[ShapedArray]
    out_nonzero: list[bool]

    def jvp(self, residuals: Sequence[Any], tangents: Sequence[Any]) -> list[Any]:
        """The output tangents (``Zero`` where known to be zero) for input ``tangents``."""
        given = [t for t, nz in zip(tangents, self.in_nonzero) if nz]
        outs = iter(core.eval_jaxpr(self.jaxpr.jaxpr, self.jaxpr.consts, *residuals, *given))
        return [next(outs) if nz else Zero(tangent_aval(a)) for a, nz in zip(self.out_avals, self.out_nonzero)]

    def vjp(self, residuals: Sequence[Any], cotangents: Sequence[Any]) -> list[Any]:
        """The input cotangents (``Zero`` where zero) for output ``cotangents`` (which may be ``Zero``)."""
        linear = [UndefinedPrimal(tangent_aval(a)) for a, nz in zip(self.in_avals, self.in_nonzero) if nz]
        cts = [ct for ct, nz in zip(cotangents, self.out_nonzero) if nz]
        computed = iter(backward_pass(self.jaxpr.jaxpr, self.jaxpr.consts, [*residuals, *linear], cts,
                                      transform_stack=True)[len(residuals):])
        return [next(computed) if nz else Zero(tangent_aval(a)) for a, nz in zip(self.in_avals, self.in_nonzero)]


def differentiable(aval: ShapedArray) -> bool:
    """Whether values of ``aval`` have tangents other than ``float0`` zeros."""
    return dtypes.issubdtype(aval.dtype, np.inexact)


def linearize_flat(fun: Callable[..., tuple[Sequence[Any], Any]],
                   primals: Sequence[Any]) -> tuple[list[Any], Linearization, Any]:
    """Run ``fun`` (flat in, ``(flat_outs, extra)`` out) at ``primals``, staging its derivative.

    Returns the primal outputs, the ``Linearization`` and ``extra`` (stripped of tangents).
    """
    in_avals = [get_aval(p) for p in primals]
    tangent_trace = PartialStagingTrace(core.current_trace())
    tangent_trace.name_stack_start = core.name_stack_depth()
    in_nonzero = [differentiable(a) for a in in_avals]
    tangents = [tangent_trace.new_arg(tangent_aval(a)) if nz else Zero(tangent_aval(a))
                for a, nz in zip(in_avals, in_nonzero)]
    with rule_zeros_state(traces_linearized_jit=False, inline=False):  # linearized directly, even inside a rule
        primals_out, tangents_out, extra = jvp_flat(fun, primals, tangents, LinearizeTrace(tangent_trace))
    tangent_trace.invalidate()
    if any(tangent_trace.is_unknown(p) for p in primals_out):  # a rule computed a primal from tangents
        raise ValueError("Linearization failed to produce known values for all output primals. This is typically "
                         "caused by attempting to differentiate a function uses an operation that does not support "
                         "reverse-mode autodiff.")
    out_nonzero = [type(t) is not Zero for t in tangents_out]
    # Every value the derivative reads is a residual, as JAX's pullback holds them (its leaves), constants the
    # function closes over included; a NumPy constant is held in the dtype it has in the jaxpr.
    jaxpr, residuals = tangent_trace.to_open_jaxpr([t for t in tangents_out if type(t) is not Zero],
                                                   concrete_residuals=True)
    residuals = [np.asarray(r, get_aval(r).dtype) if isinstance(r, np.ndarray) else r for r in residuals]
    out_avals = [get_aval(p) for p in primals_out]
    return primals_out, Linearization(jaxpr, residuals, in_avals, in_nonzero, out_avals, out_nonzero), extra


__all__ = ["LinearizeTrace", "Linearization", "differentiable", "linearize_flat"]
