"""``jax.interpreters.ad``: derivative rules of primitives.

``primitive_jvps[p]`` is ``rule(primals, tangents, **params) -> (primal_out, tangent_out)`` and
``primitive_transposes[p]`` is ``rule(cotangent, *operands, **params) -> cotangents`` (linear operands arrive as
``UndefinedPrimal``), jaxle's own tables. Tangents may be the symbolic ``Zero``; ``instantiate_zeros`` makes it an
array.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jaxle_core.ad import rule_helpers
from jaxle_core.ad.jvp import (
    JVPTrace,
    JVPTracer,
    Zero,
    add_any_p,
    add_tangents,
    instantiate,
    jvp_rules,
    zeros_like_aval,
)
from jaxle_core.ad.transpose import UndefinedPrimal, is_undefined, transpose_rules
from jaxle_core.core import Primitive

__all__ = ["JVPTrace", "JVPTracer", "UndefinedPrimal", "Zero", "add_jaxvals", "add_jaxvals_p", "add_tangents",
           "defbilinear", "defjvp", "defjvp2", "deflinear", "deflinear2", "get_primitive_transpose",
           "instantiate_zeros", "is_undefined_primal", "primitive_jvps", "primitive_transposes", "zeros_like_aval"]

primitive_jvps = jvp_rules
primitive_transposes = transpose_rules
add_jaxvals_p = add_any_p
is_undefined_primal = is_undefined


def instantiate_zeros(tangent: Any) -> Any:
    """``tangent`` as an array: a symbolic ``Zero`` becomes zeros of its type."""
    return instantiate(tangent)


def add_jaxvals(x: Any, y: Any) -> Any:
    """The sum of two tangents of one type."""
    return add_any_p.bind(x, y)


def get_primitive_transpose(primitive: Primitive) -> Callable[..., Any]:
    """The transpose rule of ``primitive``."""
    return transpose_rules[primitive]


def defjvp(primitive: Primitive, *jvprules: Callable[..., Any] | None) -> None:
    """The JVP of ``primitive`` as a sum over operands: ``jvprules[i](g, *primals, **params)`` is the term of operand
    ``i``'s tangent ``g`` (None: not differentiable in that operand)."""
    rule_helpers.defjvp(primitive, *[None if rule is None else _without_result(rule) for rule in jvprules])


def defjvp2(primitive: Primitive, *jvprules: Callable[..., Any] | None) -> None:
    """As ``defjvp``, each term also given the primal result: ``jvprules[i](g, ans, *primals, **params)``."""
    rule_helpers.defjvp(primitive, *jvprules)


def _without_result(rule: Callable[..., Any]) -> Callable[..., Any]:
    return lambda g, ans, *primals, **params: rule(g, *primals, **params)


def deflinear(primitive: Primitive, transpose_rule: Callable[..., Any]) -> None:
    """``primitive`` is linear in its operands; ``transpose_rule(cotangent, **params)`` gives their cotangents."""
    deflinear2(primitive, lambda ct, *operands, **params: transpose_rule(ct, **params))


def deflinear2(primitive: Primitive, transpose_rule: Callable[..., Any]) -> None:
    """As ``deflinear``, the transpose rule also given the operands: ``transpose_rule(cotangent, *operands,
    **params)``."""
    rule_helpers.deflinear(primitive, instantiate_zeros=True)

    def transpose(ct, *operands, **params):
        if type(ct) is Zero:
            return [Zero(x.aval) if is_undefined(x) else None for x in operands]
        return transpose_rule(ct, *operands, **params)

    transpose_rules[primitive] = transpose


def defbilinear(primitive: Primitive, lhs_rule: Callable[..., Any], rhs_rule: Callable[..., Any]) -> None:
    """``primitive`` is linear in each of its two operands; ``lhs_rule(ct, x, y, **params)`` is the cotangent of
    ``x`` (then an ``UndefinedPrimal``) and ``rhs_rule`` that of ``y``."""
    rule_helpers.defbilinear(primitive)

    def transpose(ct, x, y, **params):
        if is_undefined(x):
            return [Zero(x.aval) if type(ct) is Zero else lhs_rule(ct, x, y, **params), None]
        return [None, Zero(y.aval) if type(ct) is Zero else rhs_rule(ct, x, y, **params)]

    transpose_rules[primitive] = transpose
