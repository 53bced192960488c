"""What JAX computes from singular values: ``pinv`` (with its derivative rule), ``matrix_rank``, ``cond`` and the
least-squares ``lstsq``."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from jaxle_core.avals import get_aval
from jaxle_core.custom_derivatives import custom_jvp
from jaxle_core.jit import jit
from jaxle_core.lax import structural as lax_structural
from jaxle_numpy import reductions, ufuncs
from jaxle_numpy.conditional import where
from jaxle_numpy.creation import array, asarray, empty
from jaxle_numpy.linalg.factorizations import inexact_operand
from jaxle_numpy.linalg.norms import norm
from jaxle_numpy.linalg.solves import inv
from jaxle_numpy.linalg.svd import svd
from jaxle_numpy.manipulation import astype, expand_dims, matrix_transpose, ravel
from jaxle_numpy.products import matmul
from jaxle_numpy.scalar_types import finfo
from jaxle_numpy.util import check_arraylike, check_scalar_arraylike, named_jit, promote_dtypes_inexact

__all__ = ["pinv", "matrix_rank", "cond", "lstsq"]

_HIGHEST = "highest"


def _adjoint(x: Any) -> Any:
    return ufuncs.conj(matrix_transpose(x))


@functools.partial(custom_jvp, nondiff_argnums=(1, 2))
@named_jit("_pinv", ("hermitian",))
def _pinv(a: Any, rtol: Any = None, hermitian: bool = False) -> Any:
    """The pseudo-inverse from the SVD, singular values up to ``rtol`` times the largest dropped."""
    a, = promote_dtypes_inexact(asarray(a))
    shape, dtype = get_aval(a).shape, get_aval(a).dtype
    m, n = shape[-2:]
    if m == 0 or n == 0:
        return empty(shape[:-2] + (n, m), dtype)
    a = ufuncs.conj(a)
    if rtol is None:
        rtol = ufuncs.multiply(10.0 * max(m, n), array(finfo(dtype).eps))
    rtol = asarray(rtol)
    u, s, vh = svd(a, full_matrices=False, hermitian=hermitian)
    rtol = lax_structural.expand_dims(expand_dims(rtol, -1), tuple(range(get_aval(s).ndim - get_aval(rtol).ndim - 1)))
    cutoff = ufuncs.multiply(rtol, s[..., 0:1])
    s = astype(where(ufuncs.greater(s, cutoff), s, np.inf), get_aval(u).dtype)
    result = matmul(matrix_transpose(vh), ufuncs.divide(matrix_transpose(u), expand_dims(s, -1)),
                    precision=_HIGHEST)
    return lax_structural.convert_element_type(result, dtype)


@_pinv.defjvp
def _pinv_jvp(rtol: Any, hermitian: bool, primals: tuple, tangents: tuple) -> tuple[Any, Any]:
    """Golub and Pereyra's derivative of the pseudo-inverse P of A:
    dP = -P dA P + P P^H dA^H (I - A P) + (I - P A) dA^H P^H P, with the projections multiplied out term by term
    and each product of three matrices associated as JAX does (from the right for wide matrices, else the left)."""
    a, = primals
    a_dot, = tangents
    p = _pinv(a, rtol, hermitian)
    m, n = get_aval(a).shape[-2:]
    if m == 0 or n == 0:
        return p, ufuncs.multiply(p, 0)
    if hermitian:
        a, a_dot = _hermitian_part(a), _hermitian_part(a_dot)
    from_right = m < n

    def product(x: Callable, y: Callable, z: Callable, negated: bool = False) -> Any:
        """x() y() z(), each factor made when the association reaches it; ``negated`` negates the outer product's
        left operand."""
        def sign(v):
            return ufuncs.negative(v) if negated else v

        if from_right:
            first = sign(x())
            return _mm(first, _mm(y(), z()))
        return _mm(sign(_mm(x(), y())), z())

    left = product(lambda: p, lambda: _adjoint(p), lambda: _adjoint(a_dot))  # P P^H dA^H
    right = product(lambda: _adjoint(a_dot), lambda: _adjoint(p), lambda: p)  # dA^H P^H P
    p_dot = ufuncs.add(product(lambda: p, lambda: a_dot, lambda: p, negated=True), left)
    p_dot = ufuncs.subtract(p_dot, product(lambda: left, lambda: a, lambda: p))
    p_dot = ufuncs.add(p_dot, right)
    p_dot = ufuncs.subtract(p_dot, product(lambda: p, lambda: a, lambda: right))
    return p, p_dot


def _mm(x: Any, y: Any) -> Any:
    return matmul(x, y, precision=_HIGHEST)


def _hermitian_part(x: Any) -> Any:
    return ufuncs.divide(ufuncs.add(x, _adjoint(x)), 2)


def pinv(a: Any, rtol: Any = None, hermitian: bool = False, *, rcond: Any = None) -> Any:
    """The Moore-Penrose pseudo-inverse of each matrix; singular values at most ``rtol`` (default
    ``10 * max(m, n) * eps``) times the largest are treated as zero."""
    if rcond is not None:
        if rtol is not None:
            raise ValueError("pinv: only one of rtol and rcond may be specified.")
        rtol = rcond
    check_arraylike("jnp.linalg.pinv", a)
    return _pinv(a, rtol, hermitian)


@named_jit("matrix_rank", ("hermitian",))
def matrix_rank(M: Any, rtol: Any = None, *, hermitian: bool = False, tol: Any = None) -> Any:  # noqa: N803
    """The number of singular values of each matrix above the threshold (``rtol`` or ``tol``, compared with the
    singular values directly as JAX 0.10.2 does; by default ``max(s) * max(m, n) * eps``)."""
    M = inexact_operand("matrix_rank", M)  # noqa: N806
    if tol is not None:
        rtol = tol
    if get_aval(M).ndim < 2:
        return astype(reductions.any(ufuncs.not_equal(M, 0)), np.int32)
    s = svd(M, full_matrices=False, compute_uv=False, hermitian=hermitian)
    if rtol is None:
        largest = reductions.max(s, axis=-1)
        rtol = ufuncs.multiply(ufuncs.multiply(largest, max(get_aval(M).shape[-2:])), finfo(get_aval(s).dtype).eps)
    rtol = asarray(rtol)
    return reductions.sum(ufuncs.greater(s, expand_dims(rtol, get_aval(rtol).ndim)), axis=-1)


@named_jit("cond", ("p",))
def cond(x: Any, p: Any = None) -> Any:
    """The condition number of each matrix in the ``p`` norm (the ratio of extreme singular values by default;
    inf for a singular matrix whose inputs are not NaN)."""
    x = inexact_operand("cond", x)
    if p is None or p == 2:
        s = svd(x, compute_uv=False)
        return ufuncs.divide(s[..., 0], s[..., -1])
    if p == -2:
        s = svd(x, compute_uv=False)
        ratio = ufuncs.divide(s[..., -1], s[..., 0])
    else:
        shape = get_aval(x).shape
        if len(shape) < 2 or shape[-1] != shape[-2]:
            raise ValueError(f"jnp.linalg.cond: for p={p}, array must be square; got arr.shape={shape}")
        ratio = ufuncs.multiply(norm(x, ord=p, axis=(-2, -1)), norm(inv(x), ord=p, axis=(-2, -1)))
    # A NaN ratio (a singular matrix) becomes inf unless the input itself has NaNs.
    ratio_is_nan = ufuncs.isnan(ratio)
    input_has_nan = reductions.any(ufuncs.isnan(x), axis=(-2, -1))
    return where(ufuncs.logical_and(ratio_is_nan, ufuncs.logical_not(input_has_nan)), np.inf, ratio)


def _lstsq(a: Any, b: Any, rcond: Any, *, numpy_resid: bool = False) -> tuple[Any, Any, Any, Any]:
    """Least squares through the SVD: singular values below ``rcond`` times the largest are dropped."""
    a, b = promote_dtypes_inexact(asarray(a), asarray(b))
    a_shape, b_shape = get_aval(a).shape, get_aval(b).shape
    if a_shape[0] != b_shape[0]:
        raise ValueError("Leading dimensions of input arrays must match")
    b_vector = len(b_shape) == 1
    if b_vector:
        b = expand_dims(b, 1)
    if len(a_shape) != 2:
        raise TypeError(f"{len(a_shape)}-dimensional array given. Array must be two-dimensional")
    if get_aval(b).ndim != 2:
        raise TypeError(f"{get_aval(b).ndim}-dimensional array given. Array must be one or two-dimensional")
    m, n = a_shape
    dtype = get_aval(a).dtype
    if m * n == 0:
        s = empty(0, dtype=dtype)
        rank = array(0, dtype=int)
        x = empty((n, *get_aval(b).shape[1:]), dtype=dtype)
    else:
        eps = finfo(dtype).eps
        rcond = eps * max(n, m) if rcond is None else where(ufuncs.less(rcond, 0), eps, rcond)
        u, s, vt = svd(a, full_matrices=False)
        kept = ufuncs.logical_and(ufuncs.greater(s, 0),
                                  ufuncs.greater_equal(s, ufuncs.multiply(array(rcond, dtype=get_aval(s).dtype),
                                                                          s[0])))
        rank = reductions.sum(kept)
        safe_s = astype(where(kept, s, 1), dtype)
        s_inv = expand_dims(where(kept, ufuncs.divide(1, safe_s), 0), 1)
        u_t_b = matmul(ufuncs.conj(u).T, b, precision=_HIGHEST)
        x = matmul(ufuncs.conj(vt).T, ufuncs.multiply(s_inv, u_t_b), precision=_HIGHEST)
    if numpy_resid and (rank < n or m <= n):  # NumPy's empty residuals; needs a concrete rank
        resid = asarray([])
    else:
        resid = ufuncs.power(norm(ufuncs.subtract(b, matmul(a, x, precision=_HIGHEST)), axis=0), 2)
    if b_vector:
        x = ravel(x)
    return x, resid, rank, s


# as JAX's, a jit of a partial application (its device errors name the partial by its repr)
_jitted_lstsq = jit(functools.partial(_lstsq, numpy_resid=False))


def lstsq(a: Any, b: Any, rcond: float | None = None, *, numpy_resid: bool = False) -> tuple[Any, Any, Any, Any]:
    """The least-squares solution ``x`` of ``a @ x = b`` with the residuals' squared norms, the rank of ``a`` and
    its singular values; ``numpy_resid`` returns NumPy's empty residuals for rank-deficient or wide ``a`` (eager
    only)."""
    check_scalar_arraylike("jnp.linalg.lstsq", a, b)
    if numpy_resid:
        return _lstsq(a, b, rcond, numpy_resid=True)
    return _jitted_lstsq(a, b, rcond)
