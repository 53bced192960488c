"""The triangular factorizations: ``cholesky`` and ``qr``, JAX 0.10.2's thin layers over ``jaxle_core.lax.linalg``
(promotion to an inexact dtype, the upper factor, QR's modes and result tuple), and the operand helpers the other
``jnp.linalg`` modules share."""

from __future__ import annotations

from typing import Any, NamedTuple

from jaxle_core.avals import get_aval
from jaxle_core.lax import linalg as lax_linalg
from jaxle_core.lax import structural as lax_structural
from jaxle_core.lax.householder import geqrf
from jaxle_numpy import ufuncs
from jaxle_numpy.creation import asarray
from jaxle_numpy.util import check_scalar_arraylike, named_jit, promote_dtypes_inexact

__all__ = ["QRResult", "cholesky", "qr"]


class QRResult(NamedTuple):
    """``qr``'s result: the orthonormal factor ``Q`` and the upper triangular ``R``."""
    Q: Any
    R: Any


def inexact_operand(fun_name: str, a: Any) -> Any:
    """``a`` checked as an array argument of ``jnp.linalg.<fun_name>`` and promoted to an inexact dtype."""
    check_scalar_arraylike(f"jnp.linalg.{fun_name}", a)
    a, = promote_dtypes_inexact(asarray(a))
    return a


def _swap_last_two(x: Any) -> Any:
    ndim = get_aval(x).ndim
    return lax_structural.transpose(x, (*range(ndim - 2), ndim - 1, ndim - 2))


def conjugate_transpose(x: Any) -> Any:
    """Each matrix's conjugate transpose (the last two axes swapped; conjugated when complex)."""
    return ufuncs.conj(_swap_last_two(x))


@named_jit("cholesky", ("upper", "symmetrize_input"))
def cholesky(a: Any, *, upper: bool = False, symmetrize_input: bool = True) -> Any:
    """The Cholesky factor of each Hermitian positive definite matrix: lower ``L`` with ``a = L L^H`` (or upper
    ``U = L^H`` with ``upper``); NaN where a matrix is not positive definite."""
    a = inexact_operand("cholesky", a)
    lower = lax_linalg.cholesky(a, symmetrize_input=symmetrize_input)
    return conjugate_transpose(lower) if upper else lower


_QR_MODES = ("reduced", "complete", "r", "raw")


@named_jit("qr", ("mode",))
def qr(a: Any, mode: str = "reduced") -> Any:
    """The QR decomposition of each matrix: ``QRResult(Q, R)`` ('reduced': ``min(m, n)`` columns of Q; 'complete':
    square Q), ``R`` alone ('r'), or LAPACK's packed reflectors (transposed) and their scales ('raw')."""
    a = inexact_operand("qr", a)
    if mode not in _QR_MODES:
        raise ValueError(f"Unsupported QR decomposition mode '{mode}'")
    if mode == "raw":
        reflectors, taus = geqrf(a)
        return QRResult(_swap_last_two(reflectors), taus)
    q, r = lax_linalg.qr(a, pivoting=False, full_matrices=mode == "complete")
    return r if mode == "r" else QRResult(q, r)
