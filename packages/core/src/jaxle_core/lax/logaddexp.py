"""``logaddexp`` and ``logaddexp2``: ``log_b(b^x1 + b^x2)`` without overflow, as functions with a custom JVP.

They are not lax primitives: each stages as a ``custom_jvp_call`` of ordinary lax operations, as JAX's do, so
``jnp.logaddexp`` and the derivative of ``cumlogsumexp`` (an associative scan of ``logaddexp``) print the same
jaxprs. The derivative weights each tangent by its operand's share ``b^(x_i - out)``, reading +inf (of the real
part) as zero so that infinite operands give finite tangents.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import get_aval
from jaxle_core.custom_derivatives import custom_jvp
from jaxle_core.lax import elementwise as ew
from jaxle_core.lax.creation import filled_like
from jaxle_core.lax.structural import select_n

__all__ = ["logaddexp", "logaddexp2"]


def _literal(like: Any, value: float) -> Any:
    """``value`` as the constant staged beside ``like``: of its dtype, and a weak Python scalar when ``like`` is a
    weakly typed scalar (so the result stays weak)."""
    aval = get_aval(like)
    if aval.weak_type and not aval.shape:
        return dtypes.scalar_type_of(aval.dtype)(value)
    return np.asarray(value).astype(aval.dtype)[()]


def _check_inexact(name: str, x1: Any, x2: Any) -> None:
    dtype = get_aval(x1).dtype
    if dtype != get_aval(x2).dtype:
        raise TypeError(f"{name} requires operands of one dtype; got {dtype} and {get_aval(x2).dtype}")
    if not dtypes.issubdtype(dtype, np.inexact):
        raise ValueError(f"{name} requires floating-point or complex inputs; got {dtype}")


def _wrap_phase(phase: Any, half_period: float) -> Any:
    """``phase`` moved into ``[-half_period, half_period)`` by whole periods."""
    half, period, zero = (_literal(phase, v) for v in (half_period, 2 * half_period, 0))
    shifted = ew.rem(ew.add(phase, half), period)
    shifted = select_n(ew.lt(shifted, zero), shifted, ew.add(shifted, period))
    return ew.sub(shifted, half)


def _log_add(x1: Any, x2: Any, exp_fn: Callable, log_base: float) -> Any:
    """``log_b(b^x1 + b^x2)`` for ``b = e^log_base``: the larger operand plus ``log_b(1 + b^-|x1 - x2|)``; NaN and
    infinities of one sign fall back to the plain sum. Complex operands use the lexicographic maximum and get
    their phase wrapped into its principal interval."""
    amax = ew.max(x1, x2)
    scale = None if log_base == 1.0 else _literal(amax, 1 / log_base)

    def log1p_scaled(y):
        out = ew.log1p(exp_fn(y))
        return out if scale is None else ew.mul(scale, out)

    if dtypes.issubdtype(get_aval(x1).dtype, np.complexfloating):
        delta = ew.sub(ew.add(x1, x2), ew.mul(amax, _literal(amax, 2)))
        out = ew.add(amax, log1p_scaled(delta))
        return ew.complex(ew.real(out), _wrap_phase(ew.imag(out), np.pi / log_base))
    delta = ew.sub(x1, x2)
    is_nan = ew.ne(delta, delta)
    total = ew.add(x1, x2)
    return select_n(is_nan, ew.add(amax, log1p_scaled(ew.neg(ew.abs(delta)))), total)


def _finite(x: Any) -> Any:
    """``x`` with elements whose real part is +inf replaced by zero."""
    aval = get_aval(x)
    real = ew.real(x) if dtypes.issubdtype(aval.dtype, np.complexfloating) else x
    is_inf = ew.eq(real, _literal(real, np.inf))  # compared before the zeros are made, as JAX orders them
    zero = filled_like(x, 0) if aval.shape else np.zeros((), aval.dtype)[()]
    return select_n(is_inf, x, zero)


def _share_jvp(fn: Callable, exp_fn: Callable) -> Callable:
    """The JVP of ``fn = log_b(b^x1 + b^x2)``: ``t1 b^(x1 - out) + t2 b^(x2 - out)``."""

    def rule(primals, tangents):
        x1, x2 = primals
        t1, t2 = tangents
        out = fn(x1, x2)
        term1 = ew.mul(t1, exp_fn(ew.sub(_finite(x1), _finite(out))))
        term2 = ew.mul(t2, exp_fn(ew.sub(_finite(x2), _finite(out))))
        return out, ew.add(term1, term2)

    return rule


@custom_jvp
def logaddexp(x1: Any, x2: Any, /) -> Any:
    """Elementwise ``log(exp(x1) + exp(x2))`` of two arrays of one inexact dtype, without overflow."""
    _check_inexact("logaddexp", x1, x2)
    return _log_add(x1, x2, ew.exp, 1.0)


@custom_jvp
def logaddexp2(x1: Any, x2: Any, /) -> Any:
    """Elementwise ``log2(exp2(x1) + exp2(x2))`` of two arrays of one inexact dtype, without overflow."""
    _check_inexact("logaddexp2", x1, x2)
    return _log_add(x1, x2, ew.exp2, float(np.log(2)))


_logaddexp_jvp = _share_jvp(logaddexp, ew.exp)
_logaddexp2_jvp = _share_jvp(logaddexp2, ew.exp2)
_logaddexp_jvp.__name__ = _logaddexp_jvp.__qualname__ = "_logaddexp_jvp"
_logaddexp2_jvp.__name__ = _logaddexp2_jvp.__qualname__ = "_logaddexp2_jvp"
logaddexp.defjvp(_logaddexp_jvp)
logaddexp2.defjvp(_logaddexp2_jvp)
