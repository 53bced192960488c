"""Polynomials as coefficient arrays, highest power first: polyval, polyadd, polysub, polymul, polydiv, polyder,
polyint, poly."""

from __future__ import annotations

import functools
import operator
from typing import Any

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import get_aval
from jaxle_core.jit import jit
from jaxle_core.lax import structural as lax_structural
from jaxle_core.lax.control_flow.scan import scan
from jaxle_numpy.creation import array, asarray, full, ones, zeros
from jaxle_numpy.linalg.eigen import eigvals
from jaxle_numpy.manipulation import atleast_1d, concatenate, trim_zeros
from jaxle_numpy.ranges import arange
from jaxle_numpy.reductions import prod
from jaxle_numpy.signal import convolve
from jaxle_numpy.ufuncs import add, maximum, multiply, negative, true_divide
from jaxle_numpy.util import check_arraylike, concrete_or_error, promote_dtypes, promote_dtypes_inexact

__all__ = ["polyval", "polyadd", "polysub", "polymul", "polydiv", "polyder", "polyint", "poly"]


@functools.partial(jit, static_argnames=("unroll",))
def polyval(p: Any, x: Any, *, unroll: int = 16) -> Any:
    """The polynomial ``p`` at ``x`` by Horner's rule: a scan over the coefficients (``unroll`` steps per loop)."""
    check_arraylike("polyval", p, x)
    p, x = promote_dtypes(p, x)
    p_shape, x_shape = get_aval(p).shape, get_aval(x).shape
    shape = lax_structural.broadcast_shapes(p_shape[1:], x_shape)
    x_dtype = get_aval(x).dtype
    zero = np.zeros((), x_dtype)[()]
    y = lax_structural.broadcast_in_dim(zero, shape, ()) if shape else zero

    def horner_step(y, coefficient):
        return add(multiply(y, x), coefficient), None  # jnp's operators (booleans: and, or)

    y, _ = scan(horner_step, y, p, unroll=unroll)
    return y


def _coefficient_count(p: Any) -> int:
    """How many coefficients ``p`` holds; a 0-d one gets the TypeError JAX's ``len(p)`` raises."""
    shape = get_aval(p).shape
    if not shape:
        raise TypeError("len() of unsized object")
    return shape[0]


def _shorter_added_into_longer(a1: Any, a2: Any) -> Any:
    """The sum of coefficient arrays aligned at their ends (their constant terms)."""
    n1, n2 = get_aval(a1).shape[0], get_aval(a2).shape[0]
    if n2 <= n1:
        return a1.at[-n2:].add(a2)
    return a2.at[-n1:].add(a1)


@jit
def polyadd(a1: Any, a2: Any) -> Any:
    """The sum of two polynomials."""
    check_arraylike("polyadd", a1, a2)
    a1, a2 = promote_dtypes(a1, a2)
    return _shorter_added_into_longer(a1, a2)


@jit
def polysub(a1: Any, a2: Any) -> Any:
    """The difference of two polynomials."""
    check_arraylike("polysub", a1, a2)
    a1, a2 = promote_dtypes(a1, a2)
    return polyadd(a1, negative(a2))


def polymul(a1: Any, a2: Any, *, trim_leading_zeros: bool = False) -> Any:
    """The product of two polynomials (a full convolution); leading zeros are trimmed first when asked, which needs
    concrete coefficients."""
    check_arraylike("polymul", a1, a2)
    a1, a2 = promote_dtypes_inexact(a1, a2)
    if trim_leading_zeros and (len(get_aval(a1).shape) and get_aval(a1).shape[0] > 1
                               or len(get_aval(a2).shape) and get_aval(a2).shape[0] > 1):
        a1, a2 = trim_zeros(a1, trim="f"), trim_zeros(a2, trim="f")
    if _coefficient_count(a1) == 0:
        a1 = zeros((1,), dtype=get_aval(a2).dtype)
    if _coefficient_count(a2) == 0:
        a2 = zeros((1,), dtype=get_aval(a1).dtype)
    return convolve(a1, a2, mode="full")


def _trim_leading_small(coefficients: Any, tolerance: float) -> Any:
    """``coefficients`` without the leading ones smaller than ``tolerance`` in magnitude (needs concrete values)."""
    value = concrete_or_error(coefficients, "Error arose in the `filt` argument of trim_zeros_tol()")
    small = np.abs(value) < tolerance
    if small.all():
        return coefficients[:0]
    return coefficients[int(np.argmin(small)):]


def polydiv(u: Any, v: Any, *, trim_leading_zeros: bool = False) -> tuple[Any, Any]:
    """Quotient and remainder of polynomial long division (unrolled: one step per quotient coefficient)."""
    check_arraylike("polydiv", u, v)
    u, v = (asarray(x) for x in promote_dtypes_inexact(u, v))
    m, n = get_aval(u).shape[0] - 1, get_aval(v).shape[0] - 1
    scale = 1.0 / v[0]
    quotient = zeros(max(m - n + 1, 1), dtype=get_aval(u).dtype)
    remainder = u
    for k in range(m - n + 1):
        d = scale * remainder[k]
        quotient = quotient.at[k].set(d)
        remainder = remainder.at[k:k + n + 1].add(-d * v)
    if trim_leading_zeros:
        remainder = _trim_leading_small(remainder, float(np.sqrt(dtypes.finfo(get_aval(u).dtype).eps)))
    return quotient, remainder


@functools.partial(jit, static_argnames=("m",))
def polyder(p: Any, m: int = 1) -> Any:
    """The ``m``-th derivative of the polynomial ``p``."""
    check_arraylike("polyder", p)
    m = operator.index(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive")
    p, = promote_dtypes_inexact(p)
    if m == 0:
        return p
    dtype, n = get_aval(p).dtype, _coefficient_count(p)
    falling = arange(m, n, dtype=dtype)[np.newaxis] - arange(m, dtype=dtype)[:, np.newaxis]
    coefficients = prod(falling, 0)
    return p[:-m] * coefficients[::-1]


@functools.partial(jit, static_argnames=("m",))
def polyint(p: Any, m: int = 1, k: Any = None) -> Any:
    """The ``m``-th antiderivative of ``p``; ``k`` holds the integration constants (a scalar or ``m`` of them)."""
    m = operator.index(m)
    k = 0 if k is None else k
    check_arraylike("polyint", p, k)
    p, k = promote_dtypes_inexact(p, k)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    k = atleast_1d(k)
    if get_aval(k).shape[0] == 1:
        k = full((m,), k[0])
    if get_aval(k).shape != (m,):
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or m.")
    if m == 0:
        return p
    dtype, n = get_aval(p).dtype, _coefficient_count(p)
    grid = arange(n + m, dtype=dtype)[np.newaxis] - arange(m, dtype=dtype)[:, np.newaxis]
    divisors = prod(maximum(1, grid), 0)[::-1]
    return true_divide(concatenate((p, k)), divisors)


@jit
def poly(seq_of_zeros: Any) -> Any:
    """The monic polynomial with the given roots (1-d), or the characteristic polynomial of a square matrix."""
    check_arraylike("poly", seq_of_zeros)
    seq_of_zeros, = promote_dtypes_inexact(seq_of_zeros)
    seq_of_zeros = atleast_1d(seq_of_zeros)
    shape = get_aval(seq_of_zeros).shape
    if len(shape) == 2 and shape[0] == shape[1] and shape[0] != 0:
        # The characteristic polynomial: that of the matrix's eigenvalues.
        seq_of_zeros = eigvals(seq_of_zeros)
        shape = get_aval(seq_of_zeros).shape
    elif len(shape) != 1:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    dtype = get_aval(seq_of_zeros).dtype
    if shape[0] == 0:
        return ones((), dtype=dtype)
    coefficients = ones((1,), dtype=dtype)
    for k in range(shape[0]):
        coefficients = convolve(coefficients, array([1, -seq_of_zeros[k]], dtype=dtype), mode="full")
    return coefficients
