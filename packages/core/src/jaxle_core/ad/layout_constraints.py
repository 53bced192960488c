"""Derivatives of ``layout_constraint``: it is linear, so tangents and cotangents take the same layout (a zero
tangent stays symbolic)."""

from __future__ import annotations

from jaxle_core.ad.jvp import Zero, instantiate, jvp_rules
from jaxle_core.ad.transpose import transpose_rules
from jaxle_core.lax.layout_constraints import layout_constraint_p


def _constrained(value, layout):
    return value if type(value) is Zero else layout_constraint_p.bind(value, layout=layout)


def _layout_constraint_jvp(primals, tangents, *, layout):
    (x,), (t,) = primals, tangents
    return layout_constraint_p.bind(x, layout=layout), _constrained(t, layout)


def _layout_constraint_transpose(ct, operand, *, layout):
    return [layout_constraint_p.bind(instantiate(ct), layout=layout)]


jvp_rules[layout_constraint_p] = _layout_constraint_jvp
transpose_rules[layout_constraint_p] = _layout_constraint_transpose
