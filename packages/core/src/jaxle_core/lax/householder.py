"""QR factorizations and Householder reflectors: ``qr``, ``geqrf``, ``geqp3``, ``householder_product`` and
``ormqr``.

LAPACK stores an orthogonal factor as Householder reflectors (the columns below the diagonal of ``geqrf``'s
output) and their scales ``taus``; ``householder_product`` forms the orthogonal matrix they make and ``ormqr``
applies it. The references call those LAPACK routines through SciPy, as XLA runs them.
"""

from __future__ import annotations

import numpy as np

from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import Primitive
from jaxle_core.lax.linalg_support import check_lapack_dtype, check_operands, lapack_function, map_matrices
from jaxle_core.lax.standard import INEXACT

__all__ = ["householder_product", "householder_product_p", "ormqr", "ormqr_p", "qr", "qr_p"]


def _complex_name(real_name: str, complex_name: str, x: np.ndarray) -> str:
    return complex_name if np.iscomplexobj(x) else real_name


def orthogonal_factor(reflectors: np.ndarray, taus: np.ndarray) -> np.ndarray:
    """The first ``n`` columns of the product of the Householder reflectors stored in ``reflectors`` [m, n]."""
    if reflectors.size == 0:
        return reflectors.copy()
    q, _, _ = lapack_function(_complex_name("orgqr", "ungqr", reflectors), reflectors)(reflectors, taus)
    return q


# ---------------------------------------------------------------- qr

qr_p = Primitive("qr")
qr_p.multiple_results = True


@qr_p.def_abstract_eval
def _qr_aval(x: ShapedArray, *, pivoting: bool, full_matrices: bool, use_magma: bool | None) -> list[ShapedArray]:
    batch = check_operands("qr", [x], [2], INEXACT)
    m, n = x.shape[-2:]
    k = m if full_matrices else min(m, n)
    avals = [ShapedArray(batch + (m, k), x.dtype), ShapedArray(batch + (k, n), x.dtype)]
    if pivoting:
        avals.append(ShapedArray(batch + (n,), np.int32))
    return avals


def _qr_of_matrix(a: np.ndarray, pivoting: bool, full_matrices: bool) -> list[np.ndarray]:
    m, n = a.shape
    k = min(m, n)
    columns = m if full_matrices else k
    permutation = np.arange(n, dtype=np.int32)
    if k == 0:
        q, r = np.eye(m, columns, dtype=a.dtype), np.zeros((columns, n), a.dtype)
    else:
        if pivoting:
            factored, jpvt, taus, _, _ = lapack_function("geqp3", a)(a)
            permutation = (jpvt - 1).astype(np.int32)  # LAPACK counts columns from 1
        else:
            factored, taus, _, _ = lapack_function("geqrf", a)(a)
        # The reflectors, padded with zero columns (full Q of a tall matrix) or cut to the first m (a wide one).
        reflectors = np.zeros((m, columns), a.dtype)
        reflectors[:, :k] = factored[:, :k]
        q = orthogonal_factor(reflectors, taus)
        r = np.triu(factored[:columns])
    return [q, r, permutation] if pivoting else [q, r]


@qr_p.def_impl
def _qr_impl(x: np.ndarray, *, pivoting: bool, full_matrices: bool, use_magma: bool | None) -> list[np.ndarray]:
    check_lapack_dtype(x.dtype)
    avals = _qr_aval(get_aval(x), pivoting=pivoting, full_matrices=full_matrices, use_magma=use_magma)
    return map_matrices(lambda a: _qr_of_matrix(a, pivoting, full_matrices), x.shape[:-2], avals, x)


def qr(x, *, pivoting: bool = False, full_matrices: bool = True, use_magma: bool | None = None):
    """The QR factorization ``x = Q R`` of the matrices ``x``: ``(q, r)``, or ``(q, r, p)`` with column pivoting
    (``x[..., p] = Q R``). ``full_matrices`` gives square ``Q``; otherwise ``Q`` has ``min(m, n)`` columns."""
    return tuple(qr_p.bind(x, pivoting=pivoting, full_matrices=full_matrices, use_magma=use_magma))


# ---------------------------------------------------------------- geqrf

# LAPACK's QR in its packed form (R on and above the diagonal, the reflectors below, their scales), which
# jnp.linalg.qr(mode="raw") and slogdet(method="qr") use; JAX keeps it out of jax.lax.linalg's public names.
geqrf_p = Primitive("geqrf")
geqrf_p.multiple_results = True


@geqrf_p.def_abstract_eval
def _geqrf_aval(x: ShapedArray) -> list[ShapedArray]:
    batch = check_operands("geqrf", [x], [2], INEXACT)
    m, n = x.shape[-2:]
    return [ShapedArray(x.shape, x.dtype), ShapedArray(batch + (min(m, n),), x.dtype)]


def _geqrf_of_matrix(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if a.size == 0:
        return a.copy(), np.zeros(0, a.dtype)
    factored, taus, _, _ = lapack_function("geqrf", a)(a)
    return factored, taus


@geqrf_p.def_impl
def _geqrf_impl(x: np.ndarray) -> list[np.ndarray]:
    check_lapack_dtype(x.dtype)
    return map_matrices(_geqrf_of_matrix, x.shape[:-2], _geqrf_aval(get_aval(x)), x)


def geqrf(x):
    """LAPACK's packed QR factorization of the matrices ``x``: ``(a, taus)`` with ``R`` on and above the diagonal
    of ``a``, the Householder reflectors below it and their scales ``taus``."""
    return tuple(geqrf_p.bind(x))


# ---------------------------------------------------------------- geqp3

# LAPACK's column-pivoted QR in its packed form, which jax.scipy.linalg.qr_multiply uses: ``jpvt`` marks the
# columns kept in front, unpivoted (nonzero), and those free to be pivoted (zero); its result lists the columns
# taken, counted from 1.
geqp3_p = Primitive("geqp3")
geqp3_p.multiple_results = True


@geqp3_p.def_abstract_eval
def _geqp3_aval(a: ShapedArray, jpvt: ShapedArray, *, use_magma: bool | None) -> list[ShapedArray]:
    batch = check_operands("geqp3", [a], [2], INEXACT)
    m, n = a.shape[-2:]
    if jpvt.dtype != np.int32 or jpvt.shape != batch + (n,):
        raise TypeError(f"geqp3 expects jpvt to be an int32 array of shape {batch + (n,)}, got "
                        f"{jpvt.dtype}{list(jpvt.shape)}")
    return [ShapedArray(a.shape, a.dtype), ShapedArray(jpvt.shape, np.int32),
            ShapedArray(batch + (min(m, n),), a.dtype)]


def _geqp3_of_matrix(a: np.ndarray, jpvt: np.ndarray) -> list[np.ndarray]:
    """As LAPACK's ``geqp3``: the marked columns moved to the front and factored unpivoted, the rest of the matrix
    updated by their reflectors, then its trailing block factored with pivoting."""
    m, n = a.shape
    k = min(m, n)
    if k == 0:  # no reflectors, the columns in order (as the lowering, which LAPACK cannot serve here)
        return [a.copy(), np.arange(1, n + 1, dtype=np.int32), np.zeros(0, a.dtype)]
    order = np.concatenate([np.flatnonzero(jpvt != 0), np.flatnonzero(jpvt == 0)])
    factored, taus = a[:, order].copy(), np.zeros(k, a.dtype)
    fixed = min(int(np.count_nonzero(jpvt)), k)
    if fixed:
        head, head_taus, _, _ = lapack_function("geqrf", a)(factored[:, :fixed])
        factored[:, :fixed], taus[:fixed] = head, head_taus
        if n > fixed:
            factored[:, fixed:] = _ormqr_of_matrix(head, head_taus, factored[:, fixed:], True, True)
    if k > fixed:
        trailing, pivots, trailing_taus, _, _ = lapack_function("geqp3", a)(factored[fixed:, fixed:])
        chosen = pivots - 1
        factored[fixed:, fixed:], taus[fixed:] = trailing, trailing_taus
        factored[:fixed, fixed:] = factored[:fixed, fixed:][:, chosen]
        order[fixed:] = order[fixed:][chosen]
    return [factored, (order + 1).astype(np.int32), taus]


@geqp3_p.def_impl
def _geqp3_impl(a: np.ndarray, jpvt: np.ndarray, *, use_magma: bool | None) -> list[np.ndarray]:
    check_lapack_dtype(a.dtype)
    avals = _geqp3_aval(get_aval(a), get_aval(jpvt), use_magma=use_magma)
    return map_matrices(_geqp3_of_matrix, a.shape[:-2], avals, a, jpvt)


def geqp3(a, jpvt, *, use_magma: bool | None = None):
    """LAPACK's column-pivoted packed QR factorization of the matrices ``a``: ``(a, jpvt, taus)`` as ``geqrf``'s,
    with the columns taken (from 1) in ``jpvt``; nonzero entries of the given ``jpvt`` keep their columns first."""
    return tuple(geqp3_p.bind(a, jpvt, use_magma=use_magma))


# ---------------------------------------------------------------- householder_product

householder_product_p = Primitive("householder_product")


@householder_product_p.def_abstract_eval
def _householder_product_aval(a: ShapedArray, taus: ShapedArray) -> ShapedArray:
    check_operands("householder_product", [a, taus], [2, 1], INEXACT)
    m, n = a.shape[-2:]
    if m < n:
        raise ValueError(f"The first argument to householder_product must have at least as many rows as columns, "
                         f"got shape {a.shape}")
    if taus.shape[-1] > min(m, n):
        raise ValueError("The second argument to householder_product must not have more rows than the minimum of "
                         "the first argument's rows and columns.")
    return ShapedArray(a.shape, a.dtype)


@householder_product_p.def_impl
def _householder_product_impl(a: np.ndarray, taus: np.ndarray) -> np.ndarray:
    check_lapack_dtype(a.dtype)
    out = _householder_product_aval(get_aval(a), get_aval(taus))
    return map_matrices(lambda x, t: (orthogonal_factor(x, t),), a.shape[:-2], [out], a, taus)[0]


def householder_product(a, taus):
    """The product of the Householder reflectors stored below the diagonal of ``a`` [m, n] with scales ``taus``:
    the first ``n`` columns of the orthogonal matrix (LAPACK's ``orgqr``/``ungqr``)."""
    return householder_product_p.bind(a, taus)


# ---------------------------------------------------------------- ormqr

ormqr_p = Primitive("ormqr")


@ormqr_p.def_abstract_eval
def _ormqr_aval(a: ShapedArray, taus: ShapedArray, c: ShapedArray, *, left: bool, transpose: bool) -> ShapedArray:
    check_operands("ormqr", [a, taus, c], [2, 1, 2], INEXACT)
    rows = a.shape[-2]
    if left and c.shape[-2] != rows:
        raise ValueError(f"ormqr with left=True expects c to have the same number of rows as the Householder "
                         f"matrix a. Got a shape {a.shape} and c shape {c.shape}.")
    if not left and c.shape[-1] != rows:
        raise ValueError(f"ormqr with left=False expects c to have the same number of columns as the Householder "
                         f"matrix a has rows. Got a shape {a.shape} and c shape {c.shape}.")
    return ShapedArray(c.shape, c.dtype)


def _ormqr_of_matrix(a: np.ndarray, taus: np.ndarray, c: np.ndarray, left: bool, transpose: bool) -> np.ndarray:
    if c.size == 0 or taus.size == 0:
        return c.copy()
    routine = lapack_function(_complex_name("ormqr", "unmqr", a), a, c)
    trans = ("C" if np.iscomplexobj(a) else "T") if transpose else "N"
    result, _, _ = routine("L" if left else "R", trans, a[:, :taus.shape[0]], taus, c, max(1, 64 * max(c.shape)))
    return result


@ormqr_p.def_impl
def _ormqr_impl(a: np.ndarray, taus: np.ndarray, c: np.ndarray, *, left: bool, transpose: bool) -> np.ndarray:
    check_lapack_dtype(a.dtype)
    out = _ormqr_aval(get_aval(a), get_aval(taus), get_aval(c), left=left, transpose=transpose)
    return map_matrices(lambda x, t, y: (_ormqr_of_matrix(x, t, y, left, transpose),), c.shape[:-2], [out],
                        a, taus, c)[0]


def ormqr(a, taus, c, *, left: bool = True, transpose: bool = False):
    """``c`` multiplied by the orthogonal matrix ``Q`` of the Householder reflectors ``(a, taus)``: ``Q c``
    (``c Q`` unless ``left``), with ``Q^T`` (``Q^H`` for complex) when ``transpose``."""
    return ormqr_p.bind(a, taus, c, left=left, transpose=transpose)
