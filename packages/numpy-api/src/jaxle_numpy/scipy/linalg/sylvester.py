"""``jax.scipy.linalg.solve_sylvester``: ``A X + X B = C`` by Bartels-Stewart (both matrices reduced to complex
Schur form, the triangular equation solved entry by entry) or through eigendecompositions, as JAX 0.10.2 does."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import lax
from jaxle_core.avals import get_aval
from jaxle_numpy.scipy.linalg.decompositions import schur
from jaxle_numpy.scipy.linalg.solves import inv, solve
from jaxle_numpy.util import named_jit, promote_args_inexact, promote_dtypes_inexact

__all__ = ["solve_sylvester"]

_METHODS = ("schur", "eigen")


def _triangular_sylvester(r: Any, s: Any, f: Any) -> Any:
    """The ``Y`` with ``R Y + Y S^T = F`` for upper triangular ``R`` (m x m) and lower triangular ``S`` (n x n): one
    scan over ``Y``'s entries in reverse row-major order, each found from the entries already known below and to its
    right."""
    r, s, f = promote_args_inexact("_solve_sylvester_triangular_scan", r, s, f)
    m, n = get_aval(f).shape

    def entry(y_flat: Any, index: Any) -> tuple[Any, None]:
        i, j = index // n, index % n
        y = y_flat.reshape((m, n))
        target = f[i, j]
        known_rows = jnp.sum(jnp.where(jnp.arange(m) > i, r[i, :] * y[:, j], 0.0))
        known_columns = jnp.sum(jnp.where(jnp.arange(n) > j, y[i, :] * s[:, j], 0.0))
        value = (target - (known_rows + known_columns)) / (r[i, i] + s[j, j])
        return y_flat.at[i * n + j].set(value), None

    indices = jnp.arange(m * n - 1, -1, -1)
    y_flat, _ = lax.scan(entry, jnp.zeros((m * n,), dtype=f.dtype), indices)
    return y_flat.reshape((m, n))


def _by_schur(a: Any, b: Any, c: Any) -> Any:
    r, u = schur(a, output="complex")
    s, v = schur(b.conj().T, output="complex")
    f = u.conj().T @ c.astype(r.dtype) @ v
    return u @ _triangular_sylvester(r, s.conj().T, f) @ v.conj().T


def _by_eigen(a: Any, b: Any, c: Any) -> Any:
    m, n = get_aval(c).shape
    values_a, vectors_a = jnp.linalg.eig(a)
    values_b, vectors_b = jnp.linalg.eig(b)
    f = solve(vectors_a, c.astype(values_a.dtype) @ vectors_b)
    y = f / (values_a[:, None] + values_b[None, :])
    return vectors_a[:m, :m] @ y[:m, :n] @ inv(vectors_b)[:n, :n]


@named_jit("_solve_sylvester_2d", ("method",))
def _solve_sylvester_2d(a: Any, b: Any, c: Any, *, method: str, tol: Any) -> Any:
    if method not in _METHODS:
        raise ValueError(f'Unrecognized method {method}. The two valid methods are either "schur" or "eigen".')
    x = _by_schur(a, b, c) if method == "schur" else _by_eigen(a, b, c)
    if not jnp.issubdtype(c.dtype, np.complexfloating):
        x = x.real
    near_singular = jnp.any(jnp.abs(jnp.linalg.eigvals(a)[:, None] + jnp.linalg.eigvals(b)[None, :]) < tol)
    return lax.cond(near_singular, lambda: jnp.zeros_like(x) * np.nan, lambda: x)


@named_jit("solve_sylvester", ("method",))
def solve_sylvester(A: Any, B: Any, C: Any, *, method: str = "schur", tol: float = 1e-8) -> Any:  # noqa: N803
    """The ``X`` with ``A X + X B = C`` (leading axes of the three broadcast): by Bartels-Stewart over complex Schur
    forms (``method='schur'``) or through the eigendecompositions of ``A`` and ``B`` (``'eigen'``); NaN where an
    eigenvalue of ``A`` plus one of ``B`` is within ``tol`` of zero."""
    A, B, C = promote_dtypes_inexact(jnp.asarray(A), jnp.asarray(B), jnp.asarray(C))  # noqa: N806
    m, n = get_aval(C).shape[-2:]
    if get_aval(A).shape[-2:] != (m, m) or get_aval(B).shape[-2:] != (n, n):
        raise ValueError(f"Incompatible shapes for Sylvester equation:\nA: {get_aval(A).shape}\n"
                         f"B: {get_aval(B).shape}\nC: {get_aval(C).shape}")
    one = functools.partial(_solve_sylvester_2d, method=method, tol=tol)
    return jnp.vectorize(one, signature="(m,m),(n,n),(m,n)->(m,n)")(A, B, C)
