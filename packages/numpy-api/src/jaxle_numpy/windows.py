"""Window functions: bartlett, blackman, hamming, hanning, kaiser (NumPy's formulas, staged through jnp's
elementwise functions as JAX's are)."""

from __future__ import annotations

import math
from typing import Any

from jaxle_core import dtypes, lax
from jaxle_core.array import Array
from jaxle_numpy.creation import ones
from jaxle_numpy.ufuncs import absolute, add, cos, i0, multiply, power, sqrt, subtract, true_divide
from jaxle_numpy.util import check_arraylike, concrete_or_error

__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser"]


def _window(M: Any, fun_name: str) -> tuple[int, Array | None]:
    """The length (a concrete number made an int, floats truncated as JAX's int() does) and, for windows of two
    or more points, the sample positions 0..M-1 as floats."""
    M = int(concrete_or_error(M, f"M argument of jnp.{fun_name}") if hasattr(M, "aval") else M)
    if M <= 1:
        return M, None
    return M, lax.iota(dtypes.default_float_dtype(), M)


def _cosine_term(n: Any, cycles: int, M: int) -> Any:
    """cos(2 pi cycles n / (M - 1))."""
    return cos(true_divide(multiply(2 * cycles * math.pi, n), M - 1))


def bartlett(M: int) -> Array:
    """The triangular (Bartlett) window of ``M`` points."""
    M, n = _window(M, "bartlett")
    if n is None:
        return ones(M)
    return subtract(1, true_divide(absolute(subtract(add(multiply(2, n), 1), M)), M - 1))


def blackman(M: int) -> Array:
    """The Blackman window of ``M`` points."""
    M, n = _window(M, "blackman")
    if n is None:
        return ones(M)
    return add(subtract(0.42, multiply(0.5, _cosine_term(n, 1, M))), multiply(0.08, _cosine_term(n, 2, M)))


def hamming(M: int) -> Array:
    """The Hamming window of ``M`` points."""
    M, n = _window(M, "hamming")
    if n is None:
        return ones(M)
    return subtract(0.54, multiply(0.46, _cosine_term(n, 1, M)))


def hanning(M: int) -> Array:
    """The Hann window of ``M`` points."""
    M, n = _window(M, "hanning")
    if n is None:
        return ones(M)
    return multiply(0.5, subtract(1, _cosine_term(n, 1, M)))


def kaiser(M: int, beta: Any) -> Array:
    """The Kaiser window of ``M`` points with shape parameter ``beta``."""
    M, n = _window(M, "kaiser")
    if n is None:
        return ones(M)
    check_arraylike("kaiser", beta)
    alpha = (M - 1) / 2.0
    taper = sqrt(subtract(1, power(true_divide(subtract(n, alpha), alpha), 2)))
    return true_divide(i0(multiply(beta, taper)), i0(beta))
