"""Derivatives of ``optimization_barrier`` and ``dce_sink``.

The barrier is linear: the tangents pass through a barrier of their own (zeros included, as JAX), and
cotangents through another. A ``dce_sink`` of a tangent is kept in forward mode; it has no outputs, so
reverse mode has nothing to transpose.
"""

from __future__ import annotations

from jaxle_core import dtypes
from jaxle_core.ad.jvp import Zero, instantiate, jvp_rules
from jaxle_core.ad.transpose import transpose_rules
from jaxle_core.lax.barriers import dce_sink_p, optimization_barrier_p


def float0_to_zero(tangents: list) -> list:
    """Tangents of integer values are symbolic zeros, even when a rule computed them."""
    return [Zero(t.aval) if t.aval.dtype == dtypes.float0 else t for t in tangents]


def _optimization_barrier_jvp(primals, tangents):
    outs = optimization_barrier_p.bind(*primals)
    return outs, float0_to_zero(optimization_barrier_p.bind(*map(instantiate, tangents)))


def _optimization_barrier_transpose(cts, *operands):
    return optimization_barrier_p.bind(*map(instantiate, cts))


def _dce_sink_jvp(primals, tangents, *, prevent_mlir_dce):
    dce_sink_p.bind(*primals, prevent_mlir_dce=prevent_mlir_dce)
    dce_sink_p.bind(*map(instantiate, tangents), prevent_mlir_dce=prevent_mlir_dce)
    return [], []


jvp_rules[optimization_barrier_p] = _optimization_barrier_jvp
transpose_rules[optimization_barrier_p] = _optimization_barrier_transpose
jvp_rules[dce_sink_p] = _dce_sink_jvp
