"""Eigendecompositions: ``eigh``/``eigvalsh`` for Hermitian matrices and ``eig``/``eigvals`` for general ones,
JAX 0.10.2's thin layers over ``jaxle_core.lax.linalg``'s ``eigh`` and ``eig``."""

from __future__ import annotations

from typing import Any, NamedTuple

from jaxle_core.lax import linalg as lax_linalg
from jaxle_numpy.linalg.factorizations import inexact_operand
from jaxle_numpy.util import check_arraylike, named_jit

__all__ = ["EighResult", "EigResult", "eigh", "eigvalsh", "eig", "eigvals"]


class EighResult(NamedTuple):
    """``eigh``'s result: ascending real eigenvalues and the eigenvectors as columns."""
    eigenvalues: Any
    eigenvectors: Any


class EigResult(NamedTuple):
    """``eig``'s result: complex eigenvalues and the right eigenvectors as columns."""
    eigenvalues: Any
    eigenvectors: Any


def _lower_from_uplo(uplo: str | None) -> bool:
    if uplo is None or uplo == "L":
        return True
    if uplo == "U":
        return False
    raise ValueError(f"UPLO must be one of None, 'L', or 'U', got {uplo}")


@named_jit("eigh", ("UPLO", "symmetrize_input"))
def eigh(a: Any, UPLO: str | None = None, symmetrize_input: bool = True) -> EighResult:  # noqa: N803 - NumPy's name
    """Eigenvalues (ascending, real) and eigenvectors of each Hermitian matrix, reading its lower ('L', the
    default) or upper ('U') triangle; ``symmetrize_input`` first averages ``a`` with its conjugate transpose."""
    a = inexact_operand("eigh", a)
    vectors, values = lax_linalg.eigh(a, lower=_lower_from_uplo(UPLO), symmetrize_input=symmetrize_input)
    return EighResult(values, vectors)


@named_jit("eigvalsh", ("UPLO", "symmetrize_input"))
def eigvalsh(a: Any, UPLO: str | None = "L", *, symmetrize_input: bool = True) -> Any:  # noqa: N803
    """The eigenvalues (ascending, real) of each Hermitian matrix."""
    check_arraylike("jnp.linalg.eigvalsh", a)
    return eigh(a, UPLO, symmetrize_input).eigenvalues


def eig(a: Any) -> EigResult:
    """Eigenvalues and right eigenvectors (columns of unit norm) of each square matrix, complex."""
    a = inexact_operand("eig", a)
    values, vectors = lax_linalg.eig(a, compute_left_eigenvectors=False)
    return EigResult(values, vectors)


@named_jit("eigvals", ())
def eigvals(a: Any) -> Any:
    """The (complex) eigenvalues of each square matrix."""
    a = inexact_operand("eigvals", a)
    return lax_linalg.eig(a, compute_left_eigenvectors=False, compute_right_eigenvectors=False)[0]
