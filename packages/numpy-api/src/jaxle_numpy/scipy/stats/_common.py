"""What the distribution modules share: argument promotion, standardizing by ``loc``/``scale`` and the masks that
put values outside a distribution's support."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_numpy import util
from jaxle_numpy.conditional import _where

__all__ = ["c", "nan_unless_positive_scale", "not_probability", "promote", "promoted_standard_point", "standardize"]


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
    return lax.bitwise_or(lax.bitwise_or(lax.ne(q, q), lax.lt(q, c(q, 0))), lax.gt(q, c(q, 1)))


def promoted_standard_point(name: str, x: Any, loc: Any, scale: Any) -> tuple[Any, Any]:
    """``(x - loc) / scale`` after promoting the three, with the promoted ``scale``."""
    x, loc, scale = promote(name, x, loc, scale)
    return standardize(x, loc, scale), scale


def nan_unless_positive_scale(scale: Any, value: Any) -> Any:
    """``value`` where ``scale`` is positive, NaN elsewhere."""
    return _where(lax.gt(scale, c(scale, 0)), value, np.nan)
