"""Derivative rules of the cumulative reductions (``lax/cumulative.py``): cumsum is linear and transposes to
the cumsum running the other way; cumprod, cummax, cummin and cumlogsumexp are differentiated through a
parallel prefix scan of lax operations.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_core.ad.jvp import instantiate, jvp, jvp_rules, tangent_aval, zeros_like_aval
from jaxle_core.ad.rule_helpers import const, deflinear, full_like
from jaxle_core.ad.transpose import transpose_rules
from jaxle_core.avals import get_aval
from jaxle_core.lax.cumulative import cumlogsumexp_p, cummax_p, cummin_p, cumprod_p, cumsum_p

deflinear(cumsum_p)


def _complex_logaddexp(a, b, larger):
    """``larger + log1p(exp(a + b - 2 larger))`` (``larger`` the lexicographic maximum), its phase wrapped into
    ``[-pi, pi)``, as JAX's logaddexp of complex numbers."""
    out = lax.add(larger, lax.log1p(lax.exp(lax.sub(lax.add(a, b), lax.mul(larger, const(larger, 2))))))
    real, phase = lax.real(out), lax.imag(out)
    half_turn, turn = const(phase, np.pi), const(phase, 2 * np.pi)
    shifted = lax.rem(lax.add(phase, half_turn), turn)
    shifted = lax.select_n(lax.lt(shifted, const(shifted, 0)), shifted, lax.add(shifted, turn))
    return lax.complex(real, lax.sub(shifted, half_turn))


def _logaddexp_jvp(a, b, ta, tb):
    """``log(exp(a) + exp(b))`` and its tangent ``ta e^(a-out) + tb e^(b-out)`` (arguments whose real part is
    +inf taken as 0), for real or complex operands."""
    larger = lax.max(a, b)
    is_complex = np.issubdtype(get_aval(a).dtype, np.complexfloating)
    if is_complex:
        out = _complex_logaddexp(a, b, larger)
    else:
        delta = lax.sub(a, b)
        is_nan = lax.ne(delta, delta)
        plain = lax.add(a, b)  # inf - inf and NaN: the plain sum gives the right inf or NaN
        out = lax.select_n(is_nan, lax.add(larger, lax.log1p(lax.exp(lax.neg(lax.abs(delta))))), plain)

    def finite(x):
        real = lax.real(x) if is_complex else x
        return lax.select_n(lax.eq(real, const(real, np.inf)), x, full_like(x, 0.0))

    term_a = lax.mul(ta, lax.exp(lax.sub(finite(a), finite(out))))
    term_b = lax.mul(tb, lax.exp(lax.sub(finite(b), finite(out))))
    return [out, lax.add(term_a, term_b)]


def _binary_jvp(fn: Callable) -> Callable:
    def combine(a, b, ta, tb):
        return list(jvp(fn, (a, b), (ta, tb)))

    return combine


_SCAN_COMBINE: dict[Any, Callable] = {
    cumprod_p: _binary_jvp(lax.mul),
    cummax_p: _binary_jvp(lax.max),
    cummin_p: _binary_jvp(lax.min),
    cumlogsumexp_p: _logaddexp_jvp,
}


def _prefix_scan(combine: Callable, pair: list, axis: int) -> list:
    """Inclusive scan of ``pair`` (value and tangent) along ``axis``: combine neighbours, scan the half-length
    result recursively, fill in the even positions from it, and interleave the two halves."""
    n = get_aval(pair[0]).shape[axis]
    if n < 2:
        return pair

    def cut(arrays, start, stop, stride):
        return [lax.slice_in_dim(x, start, stop, stride, axis) for x in arrays]

    def spread(pair, low, high):
        config = [(0, 0, 0)] * get_aval(pair[0]).ndim
        config[axis] = (low, high, 1)
        # the tangent's padding is the zero tangent of the value's padding, as differentiating lax.pad makes it
        padding = [const(pair[0], 0.0), zeros_like_aval(tangent_aval(get_aval(pair[1]).update(shape=())))]
        return [lax.pad(x, fill, config) for x, fill in zip(pair, padding)]

    earlier, later = cut(pair, 0, n - 1, 2), cut(pair, 1, n, 2)
    odd = _prefix_scan(combine, combine(earlier[0], later[0], earlier[1], later[1]), axis)
    if n % 2 == 0:
        odd_head = cut(odd, 0, n // 2 - 1, 1)
    else:
        odd_head = odd
    rest = cut(pair, 2, n, 2)
    even_tail = combine(odd_head[0], rest[0], odd_head[1], rest[1])
    first = cut(pair, 0, 1, 1)
    even = [lax.concatenate([f, e], axis) for f, e in zip(first, even_tail)]
    even = spread(even, 0, 1 - n % 2)
    odd = spread(odd, 1, n % 2)
    return [lax.add(e, o) for e, o in zip(even, odd)]


def _cumulative_jvp(combine: Callable) -> Callable:
    """A running reduction differentiated through a parallel prefix scan built from lax operations."""

    def rule(primals, tangents, *, axis, reverse):
        pair = [primals[0], instantiate(tangents[0])]
        if reverse:
            pair = [lax.rev(x, (axis,)) for x in pair]
        pair = _prefix_scan(combine, pair, axis)
        if reverse:
            pair = [lax.rev(x, (axis,)) for x in pair]
        return pair[0], pair[1]

    return rule


for _p, _combine in _SCAN_COMBINE.items():
    jvp_rules[_p] = _cumulative_jvp(_combine)


transpose_rules[cumsum_p] = lambda ct, x, *, axis, reverse: [cumsum_p.bind(ct, axis=axis, reverse=not reverse)]
