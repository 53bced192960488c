"""Samplers built on matrix factorizations, bit for bit JAX's: ``orthogonal`` (Haar-random orthogonal or
unitary matrices: the QR factor of a normal matrix, its columns' signs fixed by R's diagonal) and
``multivariate_normal`` (mean plus a factor of the covariance — Cholesky, or eigenvectors or singular vectors
scaled by root eigenvalues — applied to standard normal draws)."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import dtypes, lax
from jaxle_core.avals import canonicalize_shape
from jaxle_numpy import linalg
from jaxle_numpy.util import check_arraylike, named_jit, promote_dtypes_inexact
from jaxle_random.distributions import _float_dtype
from jaxle_random.keys import typed_key
from jaxle_random.layouts import laid_out, out_layout, scalar_layout
from jaxle_random.samplers import _normal, refuse_non_arrays

__all__ = ["multivariate_normal", "orthogonal"]


@named_jit("_orthogonal", static_argnames=("n", "shape", "m", "dtype"))
def _orthogonal(key: Any, n: int, shape: tuple[int, ...], m: int, dtype: np.dtype) -> Any:
    z = _normal(key, (*shape, max(n, m), min(n, m)), dtype)
    q, r = linalg.qr(z)
    q = q * lax.expand_dims(jnp.sign(jnp.diagonal(r, 0, -2, -1)), (q.ndim - 2,))
    return jnp.swapaxes(q, -1, -2) if n < m else q


def orthogonal(key: Any, n: int, shape: tuple[int, ...] | int = (), dtype: Any = None, m: int | None = None, *,
               out_sharding: Any = None) -> Any:
    """Matrices of shape ``shape + (n, m)`` (``m`` defaults to ``n``) with orthonormal rows or columns, drawn
    uniformly (Haar measure); a complex ``dtype`` gives unitary matrices."""
    layout = out_layout(out_sharding, "orthogonal")
    dtype = dtypes.default_float_dtype() if dtype is None else dtypes.check_user_dtype(dtype)
    if not dtypes.issubdtype(dtype, np.inexact):
        raise ValueError(f"dtype argument to `normal` must be a float or complex dtype, got {dtype}")
    key = typed_key(key, "orthogonal")
    n = operator.index(n)
    columns = n if m is None else operator.index(m)
    shape = canonicalize_shape(shape)
    _check_orthogonal_sizes(shape, n, columns)
    return laid_out(scalar_layout(layout, shape), lambda k: _orthogonal(k, n, shape, columns, dtype), key)


def _check_orthogonal_sizes(shape: tuple[int, ...], n: int, m: int) -> None:
    """JAX's errors for a negative size, raised where its QR of the ``shape + (max(n, m), min(n, m))`` normal draw
    meets it: an unbatched one builds an identity of ``min(n, m)`` rows, a batched one fixes the columns' signs
    with a product whose operands disagree (negative sizes count as 0 where the diagonal of R is taken)."""
    rows, cols = max(n, m), min(n, m)
    if cols >= 0 and min(shape, default=0) >= 0:
        return
    if not shape:
        raise ValueError(f"negative dimensions are not allowed, got {cols} and None")
    signs = (*(max(d, 0) for d in shape), 1, max(cols, 0))
    raise TypeError(f"mul got incompatible shapes for broadcasting: {(*shape, rows, cols)}, {signs}.")


_METHODS = ("svd", "eigh", "cholesky")


@named_jit("_multivariate_normal", static_argnames=("shape", "dtype", "method"))
def _multivariate_normal(key: Any, mean: Any, cov: Any, shape: tuple[int, ...], dtype: np.dtype,
                         method: str) -> Any:
    if method == "svd":
        u, s, _ = linalg.svd(cov)
        factor = u * jnp.sqrt(s[..., None, :])
    elif method == "eigh":
        w, v = linalg.eigh(cov)
        factor = v * jnp.sqrt(w[..., None, :])
    else:
        factor = linalg.cholesky(cov)
    draws = _normal(key, shape + mean.shape[-1:], dtype)
    return mean + jnp.einsum("...ij,...j->...i", factor, draws)


def multivariate_normal(key: Any, mean: Any, cov: Any, shape: tuple[int, ...] | None = None, dtype: Any = None,
                        method: str = "cholesky", *, out_sharding: Any = None) -> Any:
    """Normal vectors of mean ``mean`` (``[..., n]``) and covariance ``cov`` (``[..., n, n]``), of shape
    ``shape + (n,)``; ``method`` ("cholesky", "eigh" or "svd") picks the covariance's factorization."""
    refuse_non_arrays("dtype", "multivariate_normal", mean, cov)
    key = typed_key(key, "multivariate_normal")
    layout = out_layout(out_sharding, "multivariate_normal")
    if method not in _METHODS:
        raise ValueError("method must be one of {'svd', 'eigh', 'cholesky'}")
    dtype = _float_dtype(dtype, "multivariate_normal")
    check_arraylike("multivariate_normal", mean, cov)
    mean, cov = promote_dtypes_inexact(mean, cov)
    if mean.ndim < 1:
        raise ValueError(f"multivariate_normal requires mean.ndim >= 1, got mean.ndim == {mean.ndim}")
    if cov.ndim < 2:
        raise ValueError(f"multivariate_normal requires cov.ndim >= 2, got cov.ndim == {cov.ndim}")
    n = mean.shape[-1]
    if cov.shape[-2:] != (n, n):
        raise ValueError(f"multivariate_normal requires cov.shape == (..., n, n) for n={n}, but got "
                         f"cov.shape == {cov.shape}.")
    layout = scalar_layout(layout, shape if shape is None else canonicalize_shape(shape))
    if shape is None:
        shape = tuple(np.broadcast_shapes(mean.shape[:-1], cov.shape[:-2]))
    else:
        shape = canonicalize_shape(shape)
        lax.broadcast_shapes(shape, mean.shape[:-1], cov.shape[:-2])
    return laid_out(layout, lambda k, mean, cov: _multivariate_normal(k, mean, cov, shape, dtype, method), key, mean,
                    cov)
