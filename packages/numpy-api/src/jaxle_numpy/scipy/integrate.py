"""``jax.scipy.integrate``: the trapezoidal rule (``jnp.trapezoid``)."""

from __future__ import annotations

from typing import Any

from jaxle_numpy.statistics import trapezoid as _trapezoid
from jaxle_numpy.util import named_jit

__all__ = ["trapezoid"]


@named_jit("trapezoid", ("axis",))
def trapezoid(y: Any, x: Any = None, dx: Any = 1.0, axis: int = -1) -> Any:
    """The integral of ``y`` along ``axis`` by the trapezoidal rule, at points ``x`` or spacing ``dx``."""
    return _trapezoid(y, x, dx, axis)
