"""``jax.scipy.linalg``'s factorizations with SciPy's conventions: Cholesky (upper by default), LU with SciPy's
permutation matrix, QR modes, SVD, the Hermitian eigendecomposition, Schur and Hessenberg forms, and the polar
decomposition."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import lax
from jaxle_core.avals import get_aval
from jaxle_core.lax import householder as lax_householder
from jaxle_core.lax import linalg as lax_linalg
from jaxle_numpy.linalg.factorizations import conjugate_transpose
from jaxle_numpy.util import check_arraylike, named_jit, promote_dtypes_complex, promote_dtypes_inexact

__all__ = ["cholesky", "cho_factor", "lu", "lu_factor", "qr", "qr_multiply", "svd", "eigh", "schur",
           "rsf2csf", "hessenberg",
           "polar"]


def inexact(fun_name: str, *args: Any) -> Any:
    """``args`` checked as array arguments of ``fun_name`` and promoted to one inexact dtype."""
    check_arraylike(fun_name, *args)
    return promote_dtypes_inexact(*(jnp.asarray(a) for a in args))


@named_jit("_cholesky", ("lower",))
def _cholesky(a: Any, lower: bool) -> Any:
    a, = inexact("scipy.linalg.cholesky", a)
    if lower:
        return lax_linalg.cholesky(a, symmetrize_input=False)
    return conjugate_transpose(lax_linalg.cholesky(conjugate_transpose(a), symmetrize_input=False))


def cholesky(a: Any, lower: bool = False, overwrite_a: bool = False, check_finite: bool = True) -> Any:
    """The Cholesky factor of each Hermitian positive definite matrix: upper ``U`` with ``a = U^H U`` (lower ``L``
    with ``a = L L^H`` when ``lower``), read from the matching triangle of ``a``."""
    del overwrite_a, check_finite  # SciPy's memory and checking options mean nothing here
    return _cholesky(a, lower)


def cho_factor(a: Any, lower: bool = False, overwrite_a: bool = False, check_finite: bool = True) -> tuple[Any, bool]:
    """``(c, lower)``: the Cholesky factor and which triangle it is, the form ``cho_solve`` takes."""
    del overwrite_a, check_finite
    return _cholesky(a, lower), lower


def permutation_matrix(permutation: Any, dtype: Any) -> Any:
    """SciPy's ``P`` of ``A = P L U``: ``P[i, j]`` is 1 where row ``j`` of ``L U`` is row ``i`` of ``A``."""
    rows = get_aval(permutation).shape[-1]
    return jnp.array(permutation[..., None, :] == jnp.arange(rows, dtype=get_aval(permutation).dtype)[:, None],
                     dtype=dtype)


@named_jit("_lu", ("permute_l",))
def _lu(a: Any, permute_l: bool) -> Any:
    a, = inexact("scipy.linalg.lu", a)
    packed, _, permutation = lax_linalg.lu(a)
    dtype = get_aval(a).dtype
    m, n = get_aval(a).shape[-2:]
    k = min(m, n)
    p = jnp.real(permutation_matrix(permutation, dtype))  # real even for complex matrices, as JAX
    lower = jnp.tril(packed, -1)
    if k < n:
        lower = lower[..., :, :k]
    lower = lower + jnp.eye(m, k, dtype=dtype)
    upper = jnp.triu(packed)
    if k < m:
        upper = upper[..., :k, :]
    if permute_l:
        return jnp.matmul(p, lower, precision="highest"), upper
    return p, lower, upper


@named_jit("lu", ("permute_l", "overwrite_a", "check_finite"))
def lu(a: Any, permute_l: bool = False, overwrite_a: bool = False, check_finite: bool = True) -> Any:
    """``(P, L, U)`` with ``a = P L U`` (``(P L, U)`` when ``permute_l``): ``L`` unit lower triangular, ``U`` upper
    triangular."""
    del overwrite_a, check_finite
    return _lu(a, permute_l)


@named_jit("lu_factor", ("overwrite_a", "check_finite"))
def lu_factor(a: Any, overwrite_a: bool = False, check_finite: bool = True) -> tuple[Any, Any]:
    """``(lu, piv)``: ``L`` and ``U`` packed in one matrix and LAPACK's (0-based) row interchanges."""
    del overwrite_a, check_finite
    a, = inexact("scipy.linalg.lu_factor", a)
    packed, pivots, _ = lax_linalg.lu(a)
    return packed, pivots


_QR_MODES = ("full", "r", "economic")


@named_jit("_qr", ("mode", "pivoting"))
def _qr(a: Any, mode: str, pivoting: bool) -> Any:
    if mode not in _QR_MODES:
        raise ValueError(f"Unsupported QR decomposition mode '{mode}'")
    a, = inexact("scipy.linalg.qr", a)
    factors = lax_linalg.qr(a, pivoting=pivoting, full_matrices=mode in ("full", "r"))
    if mode == "r":
        return (factors[1], factors[2]) if pivoting else (factors[1],)
    return tuple(factors)


def qr(a: Any, overwrite_a: bool = False, lwork: Any = None, mode: str = "full", pivoting: bool = False,
       check_finite: bool = True) -> Any:
    """The QR decomposition: ``(Q, R)`` ('full': square ``Q``; 'economic': ``min(m, n)`` columns), ``(R,)`` for
    'r' (as 'full' computes it); with ``pivoting`` the column permutation ``P`` (``a[:, P] = Q R``) comes last."""
    del overwrite_a, lwork, check_finite
    return _qr(a, mode, pivoting)


def qr_multiply(a: Any, c: Any, mode: str = "right", pivoting: bool = False, conjugate: bool = False,
                overwrite_a: bool = False, overwrite_c: bool = False) -> tuple[Any, ...]:
    """``(c @ Q, R)`` ('right') or ``(Q @ c, R)`` ('left') for the economic QR decomposition of ``a`` (``Q``
    conjugated when ``conjugate``), with the column permutation last when ``pivoting``: LAPACK's reflectors applied
    to ``c`` (``ormqr``), without forming ``Q``; leading axes batch."""
    del overwrite_a, overwrite_c
    a, c = promote_dtypes_inexact(jnp.asarray(a), jnp.asarray(c))
    if mode not in ("right", "left"):
        raise ValueError(f"mode must be 'right' or 'left', got {mode!r}")
    vector = get_aval(c).ndim == 1
    if vector:
        c = c[:, None] if mode == "left" else c[None, :]
    a_shape, c_shape = get_aval(a).shape, get_aval(c).shape
    m, n = a_shape[-2:]
    k = min(m, n)
    if mode == "left" and c_shape[-2] != k:
        raise ValueError(f"Array shapes are not compatible for Q @ c operation: a has shape {tuple(a_shape)} so Q "
                         f"has {k} columns, but c has {c_shape[-2]} rows (expected {k}).")
    if mode == "right" and c_shape[-1] != m:
        raise ValueError(f"Array shapes are not compatible for c @ Q operation: a has shape {tuple(a_shape)} so Q "
                         f"has {m} rows, but c has {c_shape[-1]} columns (expected {m}).")
    batch = jnp.broadcast_shapes(a_shape[:-2], c_shape[:-2])
    a = jnp.broadcast_to(a, batch + a_shape[-2:])
    c = jnp.broadcast_to(c, batch + c_shape[-2:])
    if pivoting:
        factored, permutation, taus = lax_householder.geqp3(a, jnp.zeros(batch + (n,), dtype=jnp.int32))
        permutation -= 1  # LAPACK counts columns from 1
    else:
        factored, taus = lax_householder.geqrf(a)
    if m > n and mode == "left":  # Q's columns past k meet zero rows of c
        c = jnp.concatenate([c, jnp.zeros(get_aval(c).shape[:-2] + (m - k,) + get_aval(c).shape[-1:], c.dtype)],
                            axis=-2)
    if conjugate:  # conj(Q) applied as Q^H to c's transpose, on the other side
        c = c.swapaxes(-1, -2)
    product = lax_linalg.ormqr(factored, taus, c, left=(mode == "left") != conjugate, transpose=conjugate)
    if conjugate:
        product = product.swapaxes(-1, -2)
    if mode == "right":
        product = product[..., :k]
    if vector:
        product = product.ravel()
    r = jnp.triu(factored[..., :k, :])
    return (product, r, permutation) if pivoting else (product, r)


@named_jit("_svd", ("full_matrices", "compute_uv"))
def _svd(a: Any, full_matrices: bool, compute_uv: bool) -> Any:
    a, = inexact("scipy.linalg.svd", a)
    return lax_linalg.svd(a, full_matrices=full_matrices, compute_uv=compute_uv)


def svd(a: Any, full_matrices: bool = True, compute_uv: bool = True, overwrite_a: bool = False,
        check_finite: bool = True, lapack_driver: str = "gesdd") -> Any:
    """The singular value decomposition ``(U, s, Vh)`` with ``a = U diag(s) Vh`` (``s`` alone, descending, when not
    ``compute_uv``)."""
    del overwrite_a, check_finite, lapack_driver
    return _svd(a, full_matrices, compute_uv)


@named_jit("_eigh", ("lower", "eigvals_only"))
def _eigh(a: Any, lower: bool, eigvals_only: bool) -> Any:
    a, = inexact("scipy.linalg.eigh", a)
    hermitian = (a + conjugate_transpose(a)) / 2
    vectors, values = lax_linalg.eigh(hermitian, lower=lower, symmetrize_input=False)
    return values if eigvals_only else (values, vectors)


def eigh(a: Any, b: Any = None, lower: bool = True, eigvals_only: bool = False, overwrite_a: bool = False,
         overwrite_b: bool = False, turbo: bool = True, eigvals: Any = None, type: int = 1,  # noqa: A002 - SciPy's
         check_finite: bool = True) -> Any:
    """The eigenvalues (ascending) and eigenvectors (columns) of each Hermitian matrix. As JAX's, only the default
    ``b``, ``type`` and ``eigvals`` (all eigenpairs of the standard problem) are implemented."""
    del overwrite_a, overwrite_b, turbo, check_finite
    if b is not None:
        raise NotImplementedError("Only the b=None case of eigh is implemented")
    if type != 1:
        raise NotImplementedError("Only the type=1 case of eigh is implemented.")
    if eigvals is not None:
        raise NotImplementedError("Only the eigvals=None case of eigh is implemented.")
    return _eigh(a, lower, eigvals_only)


@named_jit("_schur", ("output",))
def _schur(a: Any, output: str) -> Any:
    a, = inexact("scipy.linalg.schur", a)
    if output == "complex":
        a = a.astype(jnp.result_type(a, 0j))
    return tuple(lax_linalg.schur(a))


def schur(a: Any, output: str = "real") -> tuple[Any, Any]:
    """The Schur decomposition ``(T, Z)`` with ``a = Z T Z^H``: ``T`` quasi upper triangular ('real') or upper
    triangular ('complex'), ``Z`` unitary."""
    if output not in ("real", "complex"):
        raise ValueError(f"Expected 'output' to be either 'real' or 'complex', got {output=}.")
    return _schur(a, output)


@named_jit("_rsf2csf_2d")
def _rsf2csf_2d(t: Any, z: Any) -> tuple[Any, Any]:
    """One real Schur form made complex: from the bottom up, each 2x2 block of a complex pair of eigenvalues (its
    subdiagonal entry not negligible beside its diagonal neighbours) is made upper triangular by a Givens rotation
    applied to the rows and columns of ``T`` it touches and to ``Z``'s columns; the subdiagonal is then zeroed."""
    t, z = promote_dtypes_complex(t, z)
    eps = jnp.finfo(t.dtype).eps
    n = get_aval(t).shape[0]
    if n == 1:
        return t, z

    def rotate(m: Any, t: Any, z: Any) -> tuple[Any, Any]:
        mu = jnp.linalg.eigvals(lax.dynamic_slice(t, (m - 1, m - 1), (2, 2))) - t[m, m]
        radius = jnp.linalg.norm(jnp.array([mu[0], t[m, m - 1]])).astype(t.dtype)
        c, s = mu[0] / radius, t[m, m - 1] / radius
        rotation = jnp.array([[c.conj(), s], [-s, c]], dtype=t.dtype)
        rows = lax.dynamic_slice_in_dim(t, m - 1, 2, axis=0)
        from_block = jnp.arange(n) >= m - 1
        rotated_rows = rotation @ jnp.where(from_block, rows, 0)
        t = lax.dynamic_update_slice_in_dim(t, jnp.where(~from_block, rows, rotated_rows), m - 1, axis=0)
        columns = lax.dynamic_slice_in_dim(t, m - 1, 2, axis=1)
        to_block = jnp.arange(n)[:, np.newaxis] < m + 1
        rotated_columns = jnp.where(to_block, columns, 0) @ rotation.conj().T
        t = lax.dynamic_update_slice_in_dim(t, jnp.where(~to_block, columns, rotated_columns), m - 1, axis=1)
        z_columns = lax.dynamic_slice_in_dim(z, m - 1, 2, axis=1)
        return t, lax.dynamic_update_slice_in_dim(z, z_columns @ rotation.conj().T, m - 1, axis=1)

    def step(i: Any, carry: tuple[Any, Any]) -> tuple[Any, Any]:
        m = n - i
        t, z = carry
        pair = jnp.abs(t[m, m - 1]) > eps * (jnp.abs(t[m - 1, m - 1]) + jnp.abs(t[m, m]))
        t, z = lax.cond(pair, rotate, lambda m, t, z: (t, z), m, t, z)
        return t.at[m, m - 1].set(0.0), z

    return lax.fori_loop(1, n, step, (t, z))


@named_jit("rsf2csf", ("check_finite",))
def rsf2csf(T: Any, Z: Any, check_finite: bool = True) -> tuple[Any, Any]:  # noqa: N803 - SciPy's names
    """A real Schur form ``(T, Z)`` (leading axes broadcast) turned into the complex one, whose ``T`` is upper
    triangular."""
    del check_finite
    T, Z = jnp.asarray(T), jnp.asarray(Z)  # noqa: N806
    shape_t, shape_z = get_aval(T).shape, get_aval(Z).shape
    if len(shape_t) < 2 or shape_t[-1] != shape_t[-2]:
        raise ValueError("Input 'T' must be square.")
    if len(shape_z) < 2 or shape_z[-1] != shape_z[-2]:
        raise ValueError("Input 'Z' must be square.")
    if shape_t[-1] != shape_z[-1]:
        raise ValueError(f"Input array shapes must match: Z: {shape_z} vs. T: {shape_t}")
    return jnp.vectorize(_rsf2csf_2d, signature="(n,n),(n,n)->(n,n),(n,n)")(T, Z)


@named_jit("hessenberg", ("calc_q", "overwrite_a", "check_finite"))
def hessenberg(a: Any, *, calc_q: bool = False, overwrite_a: bool = False, check_finite: bool = True) -> Any:
    """The upper Hessenberg form ``H`` of a square matrix, with the unitary ``Q`` (``a = Q H Q^H``) when
    ``calc_q``."""
    del overwrite_a, check_finite
    a, = inexact("scipy.linalg.hessenberg", a)
    packed, taus = lax_linalg.hessenberg(a)
    h = jnp.triu(packed, -1)
    if not calc_q:
        return h
    q = lax_linalg.householder_product(packed[1:, :-1], taus)
    dtype = get_aval(a).dtype
    n = get_aval(a).shape[-1]
    q = jnp.block([[jnp.ones((1, 1), dtype), jnp.zeros((1, n - 1), dtype)], [jnp.zeros((n - 1, 1), dtype), q]])
    return h, q


@named_jit("_polar_2d", ("side", "method", "eps", "max_iterations"))
def _polar_2d(a: Any, side: str, method: str, eps: float | None, max_iterations: int | None) -> tuple[Any, Any]:
    """One matrix's polar factors."""
    if method == "qdwh":
        m, n = get_aval(a).shape
        if (side == "right") == (m < n):
            raise NotImplementedError("method='qdwh' only supports mxn matrices where m < n where side='right' and "
                                      f"m >= n side='left', got {(m, n)} with {side=}")
        if side == "right":
            unitary, posdef, _, _ = lax_linalg.qdwh(a, is_hermitian=False, max_iterations=max_iterations, eps=eps)
            return unitary, posdef
        # a = P U is the conjugate transpose of a^H = U^H P
        unitary, posdef, _, _ = lax_linalg.qdwh(a.T.conj(), is_hermitian=False, max_iterations=max_iterations,
                                                eps=eps)
        posdef = posdef.T.conj()
        return unitary.T.conj(), posdef
    if method == "svd":
        u_svd, s, vh = lax_linalg.svd(a, full_matrices=False)
        s = s.astype(u_svd.dtype)
        unitary = jnp.matmul(u_svd, vh, precision="highest")
        if side == "right":
            return unitary, jnp.matmul(vh.T.conj() * s, vh, precision="highest")
        return unitary, jnp.matmul(u_svd * s, u_svd.T.conj(), precision="highest")
    raise ValueError(f"Unknown polar decomposition method {method}.")


@named_jit("polar", ("side", "method", "eps", "max_iterations"))
def polar(a: Any, side: str = "right", *, method: str = "qdwh", eps: float | None = None,
          max_iterations: int | None = None) -> tuple[Any, Any]:
    """The polar decomposition ``(U, P)``: ``a = U P`` ('right') or ``a = P U`` ('left'), ``U`` with orthonormal
    columns and ``P`` Hermitian positive semidefinite ('qdwh' iterations or an 'svd'); leading axes batch."""
    a, = inexact("scipy.linalg.polar", a)
    if side not in ("right", "left"):
        raise ValueError("The argument `side` must be either 'right' or 'left'.")
    if get_aval(a).ndim < 2:
        raise ValueError("The input `a` must be at least a 2-D array.")
    signature = "(m,n)->(m,n),(n,n)" if side == "right" else "(m,n)->(m,n),(m,m)"
    one = functools.partial(_polar_2d, side=side, method=method, eps=eps, max_iterations=max_iterations)
    return jnp.vectorize(one, signature=signature)(a)
