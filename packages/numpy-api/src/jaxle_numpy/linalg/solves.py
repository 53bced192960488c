"""What JAX computes from LU factorizations: ``solve`` (through ``custom_linear_solve``, so that derivatives reuse
the factorization), ``inv``, ``det`` and ``slogdet`` (explicit products for 2x2 and 3x3 determinants), and the
tensor forms ``tensorsolve`` and ``tensorinv``."""

from __future__ import annotations

import math
import operator
from typing import Any, NamedTuple

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import get_aval
from jaxle_core.batching import vmap
from jaxle_core.custom_derivatives import custom_jvp
from jaxle_core.lax import linalg as lax_linalg
from jaxle_core.lax import sorting as lax_sorting
from jaxle_core.lax import structural as lax_structural
from jaxle_core.lax.control_flow.solves import custom_linear_solve
from jaxle_core.lax.dot import dot_general
from jaxle_core.lax.householder import geqrf
from jaxle_core.lax.identity import stop_gradient
from jaxle_numpy import reductions, ufuncs
from jaxle_numpy.conditional import where
from jaxle_numpy.creation import array, asarray, zeros_like
from jaxle_numpy.cumulative import cumprod
from jaxle_numpy.linalg.factorizations import inexact_operand
from jaxle_numpy.manipulation import astype, concatenate, diagonal, expand_dims, moveaxis, reshape
from jaxle_numpy.matrices import eye
from jaxle_numpy.products import trace
from jaxle_numpy.ranges import arange
from jaxle_numpy.selection import take_along_axis
from jaxle_numpy.util import check_arraylike, named_jit, promote_dtypes_inexact
from jaxle_numpy.vectorize import vectorize

__all__ = ["SlogdetResult", "solve", "inv", "det", "slogdet", "tensorsolve", "tensorinv"]


class SlogdetResult(NamedTuple):
    """``slogdet``'s result: the sign (a unit complex number for complex matrices) and log of |det|."""
    sign: Any
    logabsdet: Any


def _matvec(a: Any, x: Any) -> Any:
    """``a @ x`` for one matrix and one vector, at the highest precision.

    As JAX's, ``x`` first goes through a broadcast to its own shape: staging forwards it, but the transpose of the
    product (the solve's ``vecmat``) sums over no axes for it."""
    x = lax_structural.broadcast_in_dim(x, get_aval(x).shape, (0,))
    return dot_general(a, x, (((1,), (0,)), ((), ())), precision=("highest", "highest"))


@named_jit("_lu_solve", ("trans",))
def _lu_solve(lu: Any, permutation: Any, b: Any, trans: int) -> Any:
    """Solve ``A x = b`` (``A^T x = b`` for ``trans`` 1, ``A^H x = b`` for 2) for one matrix ``A`` given its LU
    factors, ``b`` a vector or a matrix of right-hand sides (solved together)."""
    vector = get_aval(b).ndim == 1
    x = expand_dims(b, -1) if vector else b
    if trans == 0:
        x = x[permutation, :]
        x = lax_linalg.triangular_solve(lu, x, left_side=True, lower=True, unit_diagonal=True)
        x = lax_linalg.triangular_solve(lu, x, left_side=True, lower=False)
    else:
        conjugate = trans == 2
        x = lax_linalg.triangular_solve(lu, x, left_side=True, lower=False, transpose_a=True, conjugate_a=conjugate)
        x = lax_linalg.triangular_solve(lu, x, left_side=True, lower=True, transpose_a=True, conjugate_a=conjugate,
                                        unit_diagonal=True)
        _, inverse = lax_sorting.sort_key_val(permutation, lax_structural.iota(np.int32, get_aval(lu).shape[0]))
        x = x[inverse, :]
    return x[:, 0] if vector else x


def _solve_square(a: Any, b: Any) -> Any:
    """Solve ``a x = b`` for one square matrix ``a`` and a vector ``b`` (or each column of a matrix ``b``), as a
    custom linear solve over the LU factors of ``a`` (which are not differentiated: the solve's derivative is
    another solve)."""
    lu, _, permutation = lax_linalg.lu(stop_gradient(a))

    def solve_vector(rhs):
        return custom_linear_solve(
            lambda x: _matvec(a, x), rhs,
            solve=lambda _, x: _lu_solve(lu, permutation, x, trans=0),
            transpose_solve=lambda _, x: _lu_solve(lu, permutation, x, trans=1))

    return solve_vector(b) if get_aval(b).ndim == 1 else vmap(solve_vector, in_axes=1, out_axes=1)(b)


@named_jit("solve")
def solve(a: Any, b: Any) -> Any:
    """The solution ``x`` of ``a @ x = b`` for square ``a``: ``b`` a vector, or matrices (columns solved
    together), broadcast over leading batch dimensions."""
    check_arraylike("jnp.linalg.solve", a, b)
    a, b = promote_dtypes_inexact(asarray(a), asarray(b))
    a_shape, b_shape = get_aval(a).shape, get_aval(b).shape
    if len(a_shape) < 2:
        raise ValueError(f"left hand array must be at least two dimensional; got a.shape={a_shape}")
    if len(b_shape) == 1:
        signature = "(m,m),(m)->(m)"
    elif len(a_shape) == len(b_shape) + 1:
        raise ValueError(f"Invalid shapes for solve: {a_shape}, {b_shape}. Prior to JAX v0.5.0, this would have been "
                         "treated as a batched 1-dimensional solve. To recover this behavior, use "
                         "solve(a, b[..., None]).squeeze(-1).")
    else:
        signature = "(m,m),(m,n)->(m,n)"
    return vectorize(_solve_square, signature=signature)(a, b)


def _check_square(a: Any, message: str) -> tuple[int, ...]:
    shape = get_aval(a).shape
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ValueError(message.format(shape=shape))
    return shape


@named_jit("inv")
def inv(a: Any) -> Any:
    """The inverse of each square matrix (NaN or inf where singular)."""
    check_arraylike("jnp.linalg.inv", a)
    a = asarray(a)  # solve promotes it, with the identity of its own dtype
    shape = _check_square(a, "Argument to inv must have shape [..., n, n], got {shape}.")
    identity = eye(shape[-1], dtype=get_aval(a).dtype)
    return solve(a, lax_structural.broadcast(identity, shape[:-2]))


def _swap_count(pivots: Any) -> Any:
    """How many row swaps LU's partial pivoting made (a pivot other than its own row)."""
    shape, dtype = get_aval(pivots).shape, get_aval(pivots).dtype
    return reductions.count_nonzero(ufuncs.not_equal(pivots, arange(shape[-1], dtype=dtype)), axis=-1)


def _slogdet_lu(a: Any) -> tuple[Any, Any]:
    """Sign and log|det| from the LU factorization: the product of U's diagonal, negated per row swap."""
    dtype = get_aval(a).dtype
    lu, pivots, _ = lax_linalg.lu(a)
    diag = diagonal(lu, axis1=-2, axis2=-1)
    is_singular = reductions.any(ufuncs.equal(diag, 0), axis=-1)
    parity = _swap_count(pivots)
    if dtypes.issubdtype(dtype, np.complexfloating):
        sign = reductions.prod(ufuncs.divide(diag, astype(ufuncs.abs(diag), dtype)), axis=-1)
    else:
        sign = 1
        parity = ufuncs.add(parity, reductions.count_nonzero(ufuncs.less(diag, 0), axis=-1))
    flips = array(ufuncs.add(ufuncs.multiply(-2, ufuncs.remainder(parity, 2)), 1), dtype=dtype)
    sign = where(is_singular, array(0, dtype=dtype), ufuncs.multiply(sign, flips))
    logabsdet = where(is_singular, array(-np.inf, dtype=dtype),
                      reductions.sum(astype(ufuncs.log(ufuncs.abs(diag)), dtype), axis=-1))
    return sign, ufuncs.real(logabsdet)


def _slogdet_qr(a: Any) -> tuple[Any, Any]:
    """Sign and log|det| from the QR factorization: the signs of R's diagonal, negated per Householder reflection
    LAPACK made (a non-zero tau; the last one of a square matrix is trivial)."""
    if dtypes.issubdtype(get_aval(a).dtype, np.complexfloating):
        raise NotImplementedError("slogdet method='qr' not implemented for complex inputs")
    n = get_aval(a).shape[-1]
    reflectors, taus = geqrf(a)
    diag = diagonal(reflectors, axis1=-2, axis2=-1)
    logabsdet = reductions.sum(ufuncs.log(ufuncs.abs(diag)), axis=-1)
    sign_of_diag = reductions.prod(ufuncs.sign(diag), axis=-1)
    reflections = reductions.prod(where(ufuncs.not_equal(taus[..., :n - 1], 0), -1, 1), axis=-1)
    return ufuncs.multiply(sign_of_diag, astype(reflections, get_aval(sign_of_diag).dtype)), logabsdet


def _slogdet_jvp(primals: tuple, tangents: tuple) -> tuple:
    """The jvp rule of both factorizations: d log|det A| = tr(A^-1 dA); the sign of a complex determinant turns by
    the imaginary part of that. As JAX's, the primal comes from the jitted ``slogdet`` with its default (LU)
    method (a nested jit)."""
    a, = primals
    a_dot, = tangents
    sign, logabsdet = slogdet(a)
    logabsdet_dot = trace(solve(a, a_dot), axis1=-1, axis2=-2)
    if dtypes.issubdtype(get_aval(a).dtype, np.complexfloating):
        sign_dot = ufuncs.multiply(ufuncs.subtract(logabsdet_dot, ufuncs.real(logabsdet_dot)), sign)
        logabsdet_dot = ufuncs.real(logabsdet_dot)
    else:
        sign_dot = zeros_like(sign)
    return (sign, logabsdet), (sign_dot, logabsdet_dot)


_slogdet_lu = custom_jvp(_slogdet_lu)
_slogdet_lu.defjvp(_slogdet_jvp)
_slogdet_qr = custom_jvp(_slogdet_qr)
_slogdet_qr.defjvp(_slogdet_jvp)


@named_jit("slogdet", ("method",))
def slogdet(a: Any, *, method: str | None = None) -> SlogdetResult:
    """The sign and natural log of the absolute determinant of each square matrix, by LU ('lu' or None) or QR
    ('qr') factorization."""
    a = inexact_operand("slogdet", a)
    _check_square(a, "Argument to slogdet() must have shape [..., n, n], got {shape}")
    if method is None or method == "lu":
        return SlogdetResult(*_slogdet_lu(a))
    if method == "qr":
        return SlogdetResult(*_slogdet_qr(a))
    raise ValueError(f"Unknown slogdet method '{method}'. Supported methods are 'lu' (`None`), and 'qr'.")


def _entry(a: Any, i: int, j: int) -> Any:
    return a[..., i, j]


def _det_2x2(a: Any) -> Any:
    return ufuncs.subtract(ufuncs.multiply(_entry(a, 0, 0), _entry(a, 1, 1)),
                           ufuncs.multiply(_entry(a, 0, 1), _entry(a, 1, 0)))


def _det_3x3(a: Any) -> Any:
    """The rule of Sarrus, its six products summed in JAX's order."""
    def product(*entries):
        out = ufuncs.multiply(_entry(a, *entries[0]), _entry(a, *entries[1]))
        return ufuncs.multiply(out, _entry(a, *entries[2]))

    total = ufuncs.add(product((0, 0), (1, 1), (2, 2)), product((0, 1), (1, 2), (2, 0)))
    total = ufuncs.add(total, product((0, 2), (1, 0), (2, 1)))
    total = ufuncs.subtract(total, product((0, 2), (1, 1), (2, 0)))
    total = ufuncs.subtract(total, product((0, 0), (1, 2), (2, 1)))
    return ufuncs.subtract(total, product((0, 1), (1, 0), (2, 2)))


@custom_jvp
def _det(a: Any) -> Any:
    sign, logabsdet = slogdet(a)
    return ufuncs.multiply(sign, ufuncs.exp(logabsdet))


def _adjugate_solve(a: Any, b: Any) -> tuple[Any, Any]:
    """``det(a)`` and ``adj(a) @ b`` (= det(a) solve(a, b) when ``a`` is invertible), defined for singular ``a`` too.

    With ``a[perm] = L U``: ``adj(a) b = det(a) U^-1 L^-1 b[perm]``. Scaling all but the last entry of
    ``x = L^-1 b[perm]`` by det(a) and putting 1 / (sign * det(U without its last row and column)) in U's corner
    gives the same solution without dividing by U's last pivot, which is zero when ``a`` has rank n - 1. Below
    that rank the adjugate is zero: where the modified U is itself singular the result is zeros."""
    lu, pivots, permutation = lax_linalg.lu(a)
    dtype = get_aval(a).dtype
    diag = diagonal(lu, axis1=-2, axis2=-1)
    parity = _swap_count(pivots)
    sign = array(ufuncs.add(ufuncs.multiply(-2, ufuncs.remainder(parity, 2)), 1), dtype=dtype)
    leading_minors = ufuncs.multiply(cumprod(diag, axis=-1), expand_dims(sign, -1))
    determinant = leading_minors[..., -1]
    lu = lu.at[..., -1, -1].set(ufuncs.divide(1, leading_minors[..., -2]))
    ones = lax_structural.broadcast(array(1, dtype=dtype), get_aval(diag).shape)
    solvable = reductions.all(ufuncs.isfinite(lax_linalg.triangular_solve(lu, ones, left_side=True, lower=False)),
                              axis=-1)
    # Zeroing the right-hand side of unsolvable systems first keeps the NaNs of their solves out of derivatives.
    solvable = expand_dims(solvable, (-1, -2))
    x = take_along_axis(where(solvable, b, 0), expand_dims(permutation, -1), axis=-2)
    x = lax_linalg.triangular_solve(lu, x, left_side=True, lower=True, unit_diagonal=True)
    x = concatenate([ufuncs.multiply(x[..., :-1, :], expand_dims(determinant, (-1, -2))), x[..., -1:, :]], axis=-2)
    x = lax_linalg.triangular_solve(lu, x, left_side=True, lower=False)
    return determinant, where(solvable, x, 0)


@_det.defjvp
def _det_jvp(primals, tangents):
    """d det A = tr(adj(A) dA), through the adjugate so that singular matrices have their gradient too."""
    a, = primals
    a_dot, = tangents
    determinant, adjugate_times_tangent = _adjugate_solve(a, a_dot)
    return determinant, trace(adjugate_times_tangent, axis1=-1, axis2=-2)


@named_jit("det")
def det(a: Any) -> Any:
    """The determinant of each square matrix."""
    a = inexact_operand("det", a)
    shape = _check_square(a, "Argument to _det() must have shape [..., n, n], got {shape}")
    if shape[-1] == 2:
        return _det_2x2(a)
    if shape[-1] == 3:
        return _det_3x3(a)
    return _det(a)


def tensorinv(a: Any, ind: int = 2) -> Any:
    """The inverse of ``a`` read as a matrix from its first ``ind`` dimensions to the rest, reshaped back."""
    check_arraylike("jnp.linalg.tensorinv", a)
    a = asarray(a)
    ind = operator.index(ind)
    if ind <= 0:
        raise ValueError(f"ind must be a positive integer; got ind={ind}")
    shape = get_aval(a).shape
    contracting_shape, batch_shape = shape[:ind], shape[ind:]
    rows, columns = math.prod(contracting_shape), math.prod(batch_shape)
    if rows != columns:
        raise ValueError("tensorinv is only possible when the product of the first `ind` dimensions equals that of "
                         f"the remaining dimensions. got arr.shape={shape} with ind={ind}.")
    return reshape(inv(reshape(a, (rows, columns))), (*batch_shape, *contracting_shape))


def tensorsolve(a: Any, b: Any, axes: tuple[int, ...] | None = None) -> Any:
    """The ``x`` with ``tensordot(a, x, x.ndim) == b``; ``axes`` of ``a`` are first moved to the end."""
    check_arraylike("jnp.linalg.tensorsolve", a, b)
    a, b = asarray(a), asarray(b)
    if axes is not None:
        a = moveaxis(a, axes, len(axes) * (get_aval(a).ndim - 1,))
    a_shape, b_shape = get_aval(a).shape, get_aval(b).shape
    out_shape = a_shape[len(b_shape):]
    if a_shape[:len(b_shape)] != b_shape:
        raise ValueError("After moving axes to end, leading shape of a must match shape of b. got "
                         f"a.shape={a_shape}, b.shape={b_shape}")
    if math.prod(b_shape) != math.prod(out_shape):
        raise ValueError("Input arrays must have prod(a.shape[:b.ndim]) == prod(a.shape[b.ndim:]); got "
                         f"a.shape={a_shape}, b.ndim={len(b_shape)}.")
    a = reshape(a, (math.prod(b_shape), math.prod(out_shape)))
    return reshape(solve(a, reshape(b, (-1,))), out_shape)
