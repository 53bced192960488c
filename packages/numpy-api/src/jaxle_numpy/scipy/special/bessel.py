"""Modified Bessel functions of the first kind of orders 0 and 1 (``i0``, ``i1``) and their exponentially scaled
forms (``i0e``, ``i1e``), over lax's ``bessel_i0e``/``bessel_i1e``."""

from __future__ import annotations

from typing import Any

from jaxle_core import lax
from jaxle_numpy import util
from jaxle_numpy.ufuncs import i0

__all__ = ["i0", "i0e", "i1", "i1e"]


def i0e(x: Any) -> Any:
    """``exp(-|x|) i0(x)``."""
    x, = util.promote_args_inexact("i0e", x)
    return lax.bessel_i0e(x)


def i1e(x: Any) -> Any:
    """``exp(-|x|) i1(x)``."""
    x, = util.promote_args_inexact("i1e", x)
    return lax.bessel_i1e(x)


def i1(x: Any) -> Any:
    """The modified Bessel function of the first kind, order one."""
    x, = util.promote_args_inexact("i1", x)
    return lax.mul(lax.exp(lax.abs(x)), lax.bessel_i1e(x))
