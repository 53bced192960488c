"""``jax.scipy.linalg``'s linear solves: general, triangular, from Cholesky or LU factors, Sylvester equations,
and the inverse and determinant."""

from __future__ import annotations

import functools
import warnings
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import lax
from jaxle_core.avals import get_aval
from jaxle_core.batching import vmap
from jaxle_core.lax import linalg as lax_linalg
from jaxle_core.lax.control_flow.solves import custom_linear_solve
from jaxle_core.lax.identity import stop_gradient
from jaxle_numpy.linalg import solves as jnp_solves
from jaxle_numpy.scipy.linalg.decompositions import _cholesky, inexact
from jaxle_numpy.util import named_jit

__all__ = ["solve_triangular", "cho_solve", "lu_solve", "solve", "inv", "det"]


def _as_columns(solve_matrix, b: Any) -> Any:
    """``solve_matrix`` (which takes a matrix of right-hand sides) applied to a vector or matrix ``b``."""
    if get_aval(b).ndim == 1:
        return solve_matrix(b[..., None])[..., 0]
    return solve_matrix(b)


_TRANSPOSES = {0: (False, False), "N": (False, False), 1: (True, False), "T": (True, False), 2: (True, True),
               "C": (True, True)}


@named_jit("_solve_triangular", ("trans", "lower", "unit_diagonal"))
def _solve_triangular(a: Any, b: Any, trans: Any, lower: bool, unit_diagonal: bool) -> Any:
    if trans not in _TRANSPOSES:
        raise ValueError(f"Invalid 'trans' value {trans}")
    transpose_a, conjugate_a = _TRANSPOSES[trans]
    a, b = inexact("scipy.linalg.solve_triangular", a, b)

    def solve(matrix, rhs):
        return lax_linalg.triangular_solve(matrix, rhs, left_side=True, lower=lower, transpose_a=transpose_a,
                                           conjugate_a=conjugate_a, unit_diagonal=unit_diagonal)

    return _as_columns(lambda rhs: _batched_solve(solve, a, rhs), b)


def _fold_batch(solve, a: Any, b: Any) -> Any:
    """``solve(a, b)`` for a single matrix ``a`` and a batch of right-hand sides ``b``, as JAX's ``vmap`` over each
    batch dimension stages it: the innermost batch dimension is folded into the columns first, then the next."""
    if get_aval(b).ndim == 2:
        return solve(a, b)
    *outer, inner, rows, columns = get_aval(b).shape
    kept = tuple(range(len(outer)))
    folded = lax.reshape(lax.transpose(b, (*kept, len(outer) + 1, len(outer) + 2, len(outer))),
                         (*outer, rows, columns * inner))
    x = lax.reshape(_fold_batch(solve, a, folded), (*outer, rows, columns, inner))
    return lax.transpose(x, (*kept, len(outer) + 2, len(outer), len(outer) + 1))


def _batched_solve(solve, a: Any, b: Any) -> Any:
    """``solve(a, b)`` where the batch dimensions of ``a`` and ``b`` broadcast, as JAX's: a single matrix solves
    for every batch element's columns at once, otherwise both operands are broadcast to the common batch shape."""
    a_shape, b_shape = get_aval(a).shape, get_aval(b).shape
    a_batch, b_batch = a_shape[:-2], b_shape[:-2]
    if a_batch == b_batch:
        return solve(a, b)
    if not a_batch:
        return _fold_batch(solve, a, b)
    batch = tuple(np.broadcast_shapes(a_batch, b_batch))

    def broadcast(x, shape):
        if shape == batch + shape[-2:]:
            return x
        # bound directly: JAX's dimensions here are NumPy integers, which its jaxprs print as such
        dimensions = tuple(np.int64(d) for d in range(len(batch) - len(shape) + 2, len(batch) + 2))
        return lax.broadcast_in_dim_p.bind(x, shape=batch + shape[-2:], broadcast_dimensions=dimensions,
                                           sharding=None)

    return solve(broadcast(a, a_shape), broadcast(b, b_shape))


def solve_triangular(a: Any, b: Any, trans: int | str = 0, lower: bool = False, unit_diagonal: bool = False,
                     overwrite_b: bool = False, debug: Any = None, check_finite: bool = True) -> Any:
    """The solution ``x`` of ``a x = b`` for triangular ``a`` (``a^T x = b`` for ``trans`` 1 or 'T', ``a^H x = b``
    for 2 or 'C'), reading only the ``lower`` or upper triangle."""
    del overwrite_b, debug, check_finite
    return _solve_triangular(a, b, trans, lower, unit_diagonal)


@named_jit("_cho_solve", ("lower",))
def _cho_solve(c: Any, b: Any, lower: bool) -> Any:
    c, b = inexact("scipy.linalg.cho_solve", c, b)

    def solve(transpose: bool):
        def solve_matrix(matrix, rhs):
            return lax_linalg.triangular_solve(matrix, rhs, left_side=True, lower=lower, transpose_a=transpose,
                                               conjugate_a=transpose)
        return lambda rhs: _batched_solve(solve_matrix, c, rhs)

    # c c^H x = b (lower) or c^H c x = b (upper): one solve with each triangle in turn, each broadcasting its batch
    # dimensions on its own.
    return _as_columns(solve(lower), _as_columns(solve(not lower), b))


def cho_solve(c_and_lower: tuple[Any, bool], b: Any, overwrite_b: bool = False, check_finite: bool = True) -> Any:
    """The solution ``x`` of ``a x = b`` given ``cho_factor(a)``'s ``(c, lower)``."""
    del overwrite_b, check_finite
    c, lower = c_and_lower
    return _cho_solve(c, b, lower)


@named_jit("lu_solve", ("trans", "overwrite_b", "check_finite"))
def _lu_solve_pivots(lu: Any, piv: Any, b: Any, trans: int = 0, overwrite_b: bool = False,
                     check_finite: bool = True) -> Any:
    if trans not in (0, 1, 2):
        raise ValueError(f"'trans' value must be 0, 1, or 2, got {trans}")
    lu, b = inexact("scipy.linalg.lu_solve", lu, b)
    permutation = lax_linalg.lu_pivots_to_permutation(piv, get_aval(lu).shape[-1])
    lu_shape, b_shape = get_aval(lu).shape, get_aval(b).shape
    vectors = len(b_shape) == 1 or (len(lu_shape) == len(b_shape) + 1 and b_shape[-1] == lu_shape[-1])
    if vectors and len(b_shape) > 1:
        warnings.warn("jax.scipy.linalg.lu_solve: batched 1D solves with b.ndim > 1 are deprecated, and in the "
                      "future will be treated as a batched 2D solve. Use lu_solve(lu_and_piv, b[..., None])"
                      ".squeeze(-1) to avoid this warning.", FutureWarning, stacklevel=4)
    signature = "(n,n),(n),(n)->(n)" if vectors else "(n,n),(n),(n,k)->(n,k)"
    solve = functools.partial(jnp_solves._lu_solve, trans=trans)
    return jnp.vectorize(solve, signature=signature)(lu, permutation, b)


def lu_solve(lu_and_piv: tuple[Any, Any], b: Any, trans: int = 0, overwrite_b: bool = False,
             check_finite: bool = True) -> Any:
    """The solution ``x`` of ``a x = b`` (``a^T x = b`` for ``trans`` 1, ``a^H x = b`` for 2) given
    ``lu_factor(a)``'s ``(lu, piv)``."""
    lu, piv = lu_and_piv
    return _lu_solve_pivots(lu, piv, b, trans, overwrite_b, check_finite)


_ASSUME_A = ["gen", "sym", "her", "pos"]


@named_jit("_solve", ("lower", "assume_a"))
def _solve(a: Any, b: Any, lower: bool, assume_a: str) -> Any:
    if assume_a not in _ASSUME_A:
        raise ValueError(f"Expected assume_a to be one of {_ASSUME_A}; got {assume_a!r}")
    if assume_a == "pos":
        return _positive_definite_solve(a, b, lower)
    return jnp.linalg.solve(a, b)


def _positive_definite_solve(a: Any, b: Any, lower: bool) -> Any:
    """``a x = b`` through ``a``'s Cholesky factor, as a symmetric custom linear solve (its derivative is another
    solve with the same factor, which is not differentiated)."""
    a, b = inexact("scipy.linalg.solve", a, b)
    factor = _cholesky(stop_gradient(a), lower)

    def solve_vector(rhs):
        return custom_linear_solve(lambda x: jnp_solves._matvec(a, x), rhs,
                                   solve=lambda _, x: _cho_solve(factor, x, lower), symmetric=True)

    return solve_vector(b) if get_aval(b).ndim == 1 else vmap(solve_vector, in_axes=1, out_axes=1)(b)


def solve(a: Any, b: Any, lower: bool = False, overwrite_a: bool = False, overwrite_b: bool = False,
          debug: bool = False, check_finite: bool = True, assume_a: str = "gen") -> Any:
    """The solution ``x`` of ``a x = b`` for square ``a`` (through its Cholesky factor when ``assume_a='pos'``)."""
    del overwrite_a, overwrite_b, debug, check_finite
    return _solve(a, b, lower, assume_a)


def inv(a: Any, overwrite_a: bool = False, check_finite: bool = True) -> Any:
    """The inverse of a square matrix."""
    del overwrite_a, check_finite
    return jnp.linalg.inv(a)


def det(a: Any, overwrite_a: bool = False, check_finite: bool = True) -> Any:
    """The determinant of a square matrix."""
    del overwrite_a, check_finite
    return jnp.linalg.det(a)
