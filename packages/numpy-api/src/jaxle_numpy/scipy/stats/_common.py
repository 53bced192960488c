"""What the distribution modules share: argument promotion, standardizing by ``loc``/``scale``, the masks that
put values outside a distribution's support and ``log1mexp`` (``log(1 - exp(-x))``, jitted under its own rule)."""

from __future__ import annotations

from typing import Any

from jaxle_core import custom_jvp, jit, lax
from jaxle_numpy import util
from jaxle_numpy.conditional import where
from jaxle_numpy.ufuncs import exp, expm1, log, log1p, negative

__all__ = ["c", "log1mexp", "not_probability", "positive_scale", "promote", "standardize"]


def promote(name: str, *args: Any) -> list[Any]:
    """``args`` checked and promoted to a common inexact dtype and rank (integers become the default float)."""
    return util.promote_args_inexact(name, *args)


def c(x: Any, value: float) -> Any:
    """``value`` as the constant JAX stages beside ``x`` (weakly typed beside a weakly typed scalar)."""
    return util.weak_scalar_like(x, value)


def standardize(x: Any, loc: Any, scale: Any) -> Any:
    """``(x - loc) / scale``."""
    return lax.div(lax.sub(x, loc), scale)


def not_probability(q: Any) -> Any:
    """Where ``q`` is NaN or outside [0, 1] (where quantile functions give NaN)."""
    return lax.ne(q, q) | lax.lt(q, c(q, 0)) | lax.gt(q, c(q, 1))  # jnp's operators, as JAX's (weak masks convert)


def positive_scale(scale: Any) -> Any:
    """Where ``scale`` is positive (elsewhere a distribution's functions give NaN)."""
    return lax.gt(scale, c(scale, 0))


def _log1mexp_body(x: Any) -> Any:
    """``log(1 - exp(-x))``: through ``expm1`` below ``log 2``, ``log1p`` above."""
    return where(x < log(2.0), log(negative(expm1(negative(x)))), log1p(negative(exp(negative(x)))))


_log1mexp_body.__name__ = _log1mexp_body.__qualname__ = "log1mexp"
log1mexp = custom_jvp(jit(_log1mexp_body))
log1mexp.defjvps(lambda g, ans, x: g / expm1(x))
