"""Building blocks for JVP rules: per-operand derivative terms, linear and zero-derivative primitives."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from jaxle_core.ad.jvp import Zero, add_tangents, instantiate, jvp_rules, tangent_aval
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import Primitive


def const(like: Any, value: Any) -> Any:
    """The scalar ``value`` as a constant of ``like``'s dtype (weakly typed when ``like`` is and can be)."""
    aval = get_aval(like)
    if aval.weak_type and type(value) in (int, float) and get_aval(value).dtype == aval.dtype:
        return value
    return np.array(value, aval.dtype)[()]


def full_like(like: Any, value: Any) -> Any:
    """An array of ``like``'s shape and dtype filled with ``value`` (a literal when ``like`` is a scalar)."""
    from jaxle_core.lax import broadcast_in_dim

    aval = get_aval(like)
    scalar = const(like, value)
    return broadcast_in_dim(scalar, aval.shape, ()) if aval.shape else scalar


def broadcast_to_aval(x: Any, aval: ShapedArray) -> Any:
    """``x`` stretched to ``aval``'s shape the way elementwise primitives broadcast (rank 0 or size-1 dims)."""
    from jaxle_core.lax import broadcast_in_dim

    shape = get_aval(x).shape
    if shape == aval.shape:
        return x
    if not shape:
        return broadcast_in_dim(x, aval.shape, ())
    kept = tuple(i for i, d in enumerate(shape) if d == aval.shape[i])
    from jaxle_core.lax import reshape

    squeezed = reshape(x, tuple(shape[i] for i in kept))
    return broadcast_in_dim(squeezed, aval.shape, kept)


def defjvp(primitive: Primitive, *terms: Callable[..., Any] | None) -> None:
    """The rule of ``primitive`` as a sum of one term per operand.

    ``terms[i](t, ans, *primals, **params)`` is the contribution of operand ``i``'s tangent ``t``
    (``None``: the primitive is not differentiable in that operand). Zero tangents contribute nothing.
    """

    def rule(primals, tangents, **params):
        ans = primitive.bind(*primals, **params)
        out_aval = get_aval(ans)
        total = Zero(tangent_aval(out_aval))
        if total.aval.dtype != out_aval.dtype:  # integer or boolean result
            return ans, total
        for term, t in zip(terms, tangents):
            if term is None or type(t) is Zero:
                continue
            total = add_tangents(total, broadcast_to_aval(term(t, ans, *primals, **params), out_aval))
        return ans, total

    jvp_rules[primitive] = rule


def defzero(primitive: Primitive) -> None:
    """``primitive`` has derivative zero everywhere it is defined (rounding, comparisons, bit operations)."""

    def rule(primals, tangents, **params):
        ans = primitive.bind(*primals, **params)
        if primitive.multiple_results:
            return ans, [Zero(tangent_aval(get_aval(a))) for a in ans]
        return ans, Zero(tangent_aval(get_aval(ans)))

    jvp_rules[primitive] = rule


def deflinear(primitive: Primitive, instantiate_zeros: bool = False) -> None:
    """``primitive`` is linear in all its operands jointly: the tangent is ``primitive`` of the tangents.

    With ``instantiate_zeros`` zero tangents become arrays (for primitives of several operands).
    """

    def rule(primals, tangents, **params):
        ans = primitive.bind(*primals, **params)
        ts = [instantiate(t) for t in tangents] if instantiate_zeros else tangents
        return ans, primitive.bind(*ts, **params)

    jvp_rules[primitive] = rule


def defbilinear(primitive: Primitive) -> None:
    """``primitive`` is linear in each of its two operands (a product): d(x·y) = dx·y + x·dy, zero terms skipped."""

    def rule(primals, tangents, **params):
        lhs, rhs = primals
        t_lhs, t_rhs = tangents
        ans = primitive.bind(lhs, rhs, **params)
        total = Zero(tangent_aval(get_aval(ans)))
        if type(t_lhs) is not Zero:
            total = add_tangents(total, primitive.bind(t_lhs, rhs, **params))
        if type(t_rhs) is not Zero:
            total = add_tangents(total, primitive.bind(lhs, t_rhs, **params))
        return ans, total

    jvp_rules[primitive] = rule


def deflinear_first(primitive: Primitive, instantiated: int = 1) -> None:
    """Linear in its first ``instantiated`` operands; the rest (indices) are passed through as primals."""

    def rule(primals, tangents, **params):
        ans = primitive.bind(*primals, **params)
        ts = [instantiate(t) for t in tangents[:instantiated]]
        return ans, primitive.bind(*ts, *primals[instantiated:], **params)

    jvp_rules[primitive] = rule
