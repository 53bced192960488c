"""Products with logarithms and the entropy family: ``xlogy``, ``xlog1py``, ``entr``, ``rel_entr``, ``kl_div``,
the logistic pair ``expit``/``logit`` and the Box-Cox transforms. Products with ``log`` are 0 where the factor is
0 (so ``0 log 0 = 0``), and their derivatives are given by rules (``custom_jvp``) as in JAX."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import custom_jvp, lax
from jaxle_numpy import util
from jaxle_numpy.conditional import _where
from jaxle_numpy.ufuncs import add, bitwise_or, log, log1p, multiply, not_equal, true_divide

__all__ = ["boxcox", "boxcox1p", "entr", "expit", "kl_div", "logit", "rel_entr", "xlog1py", "xlogy"]


def _one(x: Any) -> Any:
    return util.weak_scalar_like(x, 1)


def _times_log(name: str, log_fn: Any) -> Any:
    """``x * log_fn(y)`` after promoting the operands, 0 where ``x`` is 0 unless ``y`` is NaN (named ``name`` in
    jaxprs). As JAX's, the function promotes inside the ``custom_jvp``: its rule sees the operands as given."""
    def body(x: Any, y: Any) -> Any:
        x, y = util.promote_args_inexact(name, x, y)
        # ``x != 0`` by jnp.not_equal, as JAX's (whose parameter names an operand on other devices)
        keep = bitwise_or(not_equal(x, 0.0), lax.ne(y, y))
        return _where(keep, lax.mul(x, log_fn(y)), lax.full_like(x, 0))
    body.__name__ = name
    return body


_xlogy = custom_jvp(_times_log("xlogy", lax.log))
_xlog1py = custom_jvp(_times_log("xlog1py", lax.log1p))


def _xlogy_jvp(primals, tangents):
    """jnp's arithmetic on the unpromoted operands: an integer operand's float0 tangent fails, as in JAX."""
    (x, y), (x_dot, y_dot) = primals, tangents
    return _xlogy(x, y), add(multiply(x_dot, log(y)), true_divide(multiply(y_dot, x), y))


def _xlog1py_jvp(primals, tangents):
    (x, y), (x_dot, y_dot) = primals, tangents
    return _xlog1py(x, y), add(multiply(x_dot, log1p(y)), true_divide(multiply(y_dot, x), add(1.0, y)))


_xlogy.defjvp(_xlogy_jvp)
_xlog1py.defjvp(_xlog1py_jvp)


def xlogy(x: Any, y: Any) -> Any:
    """``x * log(y)``, 0 where ``x`` is 0."""
    return _xlogy(x, y)


def xlog1py(x: Any, y: Any) -> Any:
    """``x * log1p(y)``, 0 where ``x`` is 0."""
    return _xlog1py(x, y)


def _xlogx_body(x: Any) -> Any:
    return _xlogy(x, x)


_xlogx_body.__name__ = _xlogx_body.__qualname__ = "_xlogx"
_xlogx = custom_jvp(_xlogx_body)


def _xlogx_jvp(primals, tangents):
    (x,), (x_dot,) = primals, tangents
    out = _xlogx(x)
    return out, lax.mul(x_dot, lax.add(lax.log(x), _one(x)))


_xlogx.defjvp(_xlogx_jvp)


def entr(x: Any) -> Any:
    """Elementwise entropy ``-x log x`` (0 at 0, ``-inf`` for negative ``x``)."""
    x, = util.promote_args_inexact("entr", x)
    return lax.select(lax.lt(x, util.zero_of(x)), lax.full_like(x, -np.inf), lax.neg(_xlogx(x)))


def _relative_entropy(name: str, p: Any, q: Any) -> Any:
    """``p log(p/q)`` where both are positive, 0 where ``p`` is 0 and ``q`` is not negative, ``inf`` elsewhere."""
    p, q = util.promote_args_inexact(name, p, q)
    both_positive = lax.bitwise_and(lax.gt(p, util.zero_of(p)), lax.gt(q, util.zero_of(q)))
    zero_p = lax.bitwise_and(lax.eq(p, util.zero_of(p)), lax.ge(q, util.zero_of(q)))
    safe_p = _where(both_positive, p, 1)
    safe_q = _where(both_positive, q, 1)
    log_ratio = lax.sub(_xlogx(safe_p), _xlogy(safe_p, safe_q))
    return p, q, _where(both_positive, log_ratio, _where(zero_p, util.weak_scalar_like(p, 0), np.inf))


def rel_entr(p: Any, q: Any) -> Any:
    """Elementwise relative entropy ``p log(p/q)``."""
    return _relative_entropy("rel_entr", p, q)[2]


def kl_div(p: Any, q: Any) -> Any:
    """Elementwise Kullback-Leibler divergence ``p log(p/q) - p + q``."""
    p, q, entropy = _relative_entropy("kl_div", p, q)
    return lax.add(lax.sub(entropy, p), q)


def expit(x: Any) -> Any:
    """The logistic sigmoid ``1 / (1 + exp(-x))``."""
    x, = util.promote_args_inexact("expit", x)
    return lax.logistic(x)


def _logit_body(x: Any) -> Any:
    return lax.log(lax.div(x, lax.sub(_one(x), x)))


_logit_body.__name__ = _logit_body.__qualname__ = "logit"
_logit = custom_jvp(_logit_body)
_logit.defjvps(lambda g, ans, x: lax.div(g, lax.mul(x, lax.sub(_one(x), x))))


def logit(x: Any) -> Any:
    """The inverse of ``expit``: ``log(x / (1 - x))``."""
    x, = util.promote_args_inexact("logit", x)
    return _logit(x)


def _boxcox(name: str, x: Any, lmbda: Any, log_fn: Any) -> Any:
    x, lmbda = util.promote_args_inexact(name, x, lmbda)
    is_zero = lax.eq(lmbda, util.zero_of(lmbda))
    safe_lmbda = _where(is_zero, lax.full_like(lmbda, 1), lmbda)
    log_x = log_fn(x)
    return _where(is_zero, log_x, lax.div(lax.expm1(lax.mul(safe_lmbda, log_x)), safe_lmbda))


def boxcox(x: Any, lmbda: Any) -> Any:
    """The Box-Cox transform ``(x**lmbda - 1) / lmbda`` (``log x`` where ``lmbda`` is 0)."""
    return _boxcox("boxcox", x, lmbda, lax.log)


def boxcox1p(x: Any, lmbda: Any) -> Any:
    """The Box-Cox transform of ``1 + x``."""
    return _boxcox("boxcox1p", x, lmbda, lax.log1p)
