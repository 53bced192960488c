"""The polynomial functions built on ``jnp.linalg``: ``roots`` (the eigenvalues of the companion matrix) and
``polyfit`` (a least-squares fit over the scaled Vandermonde matrix)."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import get_aval
from jaxle_core.lax import sorting as lax_sorting
from jaxle_numpy import reductions, ufuncs
from jaxle_numpy.conditional import where
from jaxle_numpy.creation import array, asarray, ones
from jaxle_numpy.linalg.eigen import eigvals
from jaxle_numpy.linalg.solves import inv
from jaxle_numpy.linalg.spectral import lstsq
from jaxle_numpy.manipulation import atleast_1d, expand_dims, roll
from jaxle_numpy.matrices import diag, vander
from jaxle_numpy.products import dot, outer
from jaxle_numpy.ranges import arange
from jaxle_numpy.scalar_types import finfo
from jaxle_numpy.util import (
    check_arraylike,
    check_scalar_arraylike,
    concrete_or_error,
    named_jit,
    promote_dtypes_inexact,
)

__all__ = ["roots", "polyfit"]


@named_jit("_roots_no_zeros")
def _roots_no_zeros(p: Any) -> Any:
    """The eigenvalues of the companion matrix of ``p`` (whose leading coefficient is not zero)."""
    size = get_aval(p).shape[0]
    if size < 2:
        return array([], dtype=dtypes.to_complex_dtype(get_aval(p).dtype))
    companion = diag(ones((size - 2,), get_aval(p).dtype), -1)
    companion = companion.at[0, :].set(ufuncs.divide(ufuncs.negative(p[1:]), p[0]))
    return eigvals(companion)


@named_jit("_roots_with_zeros")
def _roots_with_zeros(p: Any, num_leading_zeros: Any) -> Any:
    """The roots of ``p`` with leading zeros left in place: those zeros are rolled to the end (giving zero roots,
    sorted last) and as many roots are made NaN, so the shape does not depend on the values."""
    size = get_aval(p).shape[0]
    p = where(ufuncs.equal(num_leading_zeros, size), 1.0, p)  # all zeros: a polynomial LAPACK can take
    found = _roots_no_zeros(roll(p, ufuncs.negative(num_leading_zeros)))
    found = lax_sorting.sort_key_val(ufuncs.equal(found, 0), found)[1]
    count = get_aval(found).shape[0]
    return where(ufuncs.less(arange(count), ufuncs.subtract(count, num_leading_zeros)), found, complex(np.nan, np.nan))


def roots(p: Any, *, strip_zeros: bool = True) -> Any:
    """The roots of the polynomial with coefficients ``p`` (highest power first), complex. Leading zeros are
    stripped (which needs concrete coefficients) unless ``strip_zeros=False``, which returns NaN for them."""
    check_scalar_arraylike("roots", p)
    p = atleast_1d(promote_dtypes_inexact(asarray(p))[0])
    if get_aval(p).ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    size = get_aval(p).shape[0]
    if size < 2:
        return array([], dtype=dtypes.to_complex_dtype(get_aval(p).dtype))
    num_leading_zeros = where(reductions.all(ufuncs.equal(p, 0)), size, reductions.argmin(ufuncs.equal(p, 0)))
    if strip_zeros:
        num_leading_zeros = int(concrete_or_error(
            num_leading_zeros, "The error occurred in the jnp.roots() function. To use this within a JIT-compiled "
            "context, pass strip_zeros=False, but be aware that leading zeros will result in some returned roots "
            "being set to NaN."))
        return _roots_no_zeros(p[num_leading_zeros:])
    return _roots_with_zeros(p, num_leading_zeros)


@named_jit("polyfit", ("deg", "rcond", "full", "cov"))
def polyfit(x: Any, y: Any, deg: int, rcond: float | None = None, full: bool = False, w: Any = None,
            cov: bool = False) -> Any:
    """The least-squares polynomial of degree ``deg`` through ``(x, y)`` (coefficients highest power first; one
    column per column of a 2-d ``y``), optionally weighted by ``w``. ``full`` adds the residuals, rank, singular
    values and ``rcond``; ``cov`` adds the coefficients' covariance (scaled unless ``cov="unscaled"``)."""
    check_arraylike("polyfit", x, y)
    x, y = promote_dtypes_inexact(asarray(x), asarray(y))
    deg = int(concrete_or_error(deg, "deg must be int"))
    order = deg + 1
    if deg < 0:
        raise ValueError("expected deg >= 0")
    x_shape, y_shape = get_aval(x).shape, get_aval(y).shape
    if len(x_shape) != 1:
        raise TypeError("expected 1D vector for x")
    if x_shape[0] == 0:
        raise TypeError("expected non-empty vector for x")
    if len(y_shape) not in (1, 2):
        raise TypeError("expected 1D or 2D array for y")
    if x_shape[0] != y_shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = x_shape[0] * finfo(get_aval(x).dtype).eps
    rcond = float(concrete_or_error(rcond, "rcond must be float"))  # a Python float: weakly typed from here
    lhs, rhs = vander(x, order), y
    if w is not None:
        check_arraylike("polyfit", w)
        w, = promote_dtypes_inexact(asarray(w))
        if get_aval(w).ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if get_aval(w).shape[0] != y_shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = ufuncs.multiply(lhs, expand_dims(w, 1))
        rhs = ufuncs.multiply(rhs, expand_dims(w, 1) if len(y_shape) == 2 else w)
    # Columns scaled to unit norm improve the conditioning; the coefficients are scaled back.
    scale = ufuncs.sqrt(reductions.sum(ufuncs.multiply(lhs, lhs), axis=0))
    lhs = ufuncs.divide(lhs, expand_dims(scale, 0))
    coefficients, residuals, rank, singular_values = lstsq(lhs, rhs, rcond)
    coefficients = ufuncs.divide(coefficients.T, scale).T
    if full:
        return coefficients, residuals, rank, singular_values, asarray(rcond)
    if not cov:
        return coefficients
    covariance = ufuncs.divide(inv(dot(lhs.T, lhs)), outer(scale, scale))
    if cov == "unscaled":
        factor = 1
    else:
        if x_shape[0] <= order:
            raise ValueError("the number of data points must exceed order to scale the covariance matrix")
        factor = atleast_1d(ufuncs.divide(residuals, x_shape[0] - order))
    if len(y_shape) == 1:
        return coefficients, ufuncs.multiply(covariance, factor)
    return coefficients, ufuncs.multiply(expand_dims(covariance, 2), factor)
