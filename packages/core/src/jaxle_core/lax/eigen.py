"""Eigendecompositions: ``eigh`` (Hermitian matrices) and ``eig`` (general matrices), with their implementation
enums. Both act on the two minor dimensions; leading dimensions are a batch."""

from __future__ import annotations

import enum
from typing import Any

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_core.core import Primitive
from jaxle_core.lax.linalg_support import (
    check_lapack_dtype,
    check_operands,
    check_square,
    complex_dtype,
    map_decomposition,
    real_dtype,
    scipy_linalg,
    symmetrize,
)
from jaxle_core.lax.standard import INEXACT

__all__ = ["EigImplementation", "EighImplementation", "eig", "eig_p", "eigh", "eigh_p"]


class EighImplementation(enum.Enum):
    """Which algorithm ``eigh`` uses; the CPU computes with LAPACK's QR-based routine whatever is asked, except
    that it rejects JACOBI and QDWH."""

    QR = "qr"
    JACOBI = "jacobi"
    QDWH = "qdwh"


class EigImplementation(enum.Enum):
    """Which library ``eig`` uses; only LAPACK is available on CPU."""

    CUSOLVER = "cusolver"
    MAGMA = "magma"
    LAPACK = "lapack"


# ---------------------------------------------------------------- eigh

eigh_p = Primitive("eigh")
eigh_p.multiple_results = True


def _eigh_columns(n: int, subset_by_index: tuple[int, int] | None) -> int:
    if subset_by_index is None:
        return n
    low, high = subset_by_index
    if high < low:  # JAX stages a negative dimension here and fails later, in XLA
        raise ValueError(f"subset_by_index must be an increasing pair of indices, got {subset_by_index}")
    return high - low


@eigh_p.def_abstract_eval
def _eigh_aval(x: ShapedArray, *, lower: bool, sort_eigenvalues: bool, subset_by_index: tuple[int, int] | None,
               algorithm: EighImplementation | None) -> list[ShapedArray]:
    check_operands("eigh", [x], [2], INEXACT)
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"Argument to symmetric eigendecomposition must have shape [..., n, n], got shape {x.shape}")
    if subset_by_index is not None and not isinstance(subset_by_index, tuple):
        raise TypeError("As of JAX v0.7, parameters to jaxpr equations must have __hash__ and __eq__ methods. In a "
                        f"call to primitive eigh, the value of parameter subset_by_index was not hashable: "
                        f"{subset_by_index}")
    n, batch = x.shape[-1], x.shape[:-2]
    k = _eigh_columns(n, subset_by_index)
    return [ShapedArray(batch + (n, k), x.dtype), ShapedArray(batch + (k,), real_dtype(x.dtype))]


def check_eigh_supported(x: ShapedArray, subset_by_index: tuple[int, int] | None,
                         algorithm: EighImplementation | None) -> None:
    """The errors JAX's CPU lowering gives for an ``eigh`` that abstract evaluation accepts (shared by the
    reference backend, which computes what the CPU does)."""
    if algorithm == EighImplementation.JACOBI:
        raise NotImplementedError("Jacobi implementation is not supported on CPU")
    if algorithm == EighImplementation.QDWH:
        raise NotImplementedError("QDWH implementation is only supported on TPU")
    check_lapack_dtype(x.dtype)
    if subset_by_index is not None and tuple(subset_by_index) != (0, x.shape[-1]):
        raise NotImplementedError("subset_by_index not supported on CPU and GPU")


@eigh_p.def_impl
def _eigh_impl(x: np.ndarray, *, lower: bool, sort_eigenvalues: bool, subset_by_index: tuple[int, int] | None,
               algorithm: EighImplementation | None) -> list[np.ndarray]:
    aval = ShapedArray(x.shape, x.dtype)
    check_eigh_supported(aval, subset_by_index, algorithm)

    def decompose(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if a.size == 0:
            return a, np.zeros((0,), real_dtype(x.dtype))
        # syevd/heevd (SciPy's LAPACK is the one jaxlib calls), reading only the named triangle
        w, v = scipy_linalg().eigh(a, lower=lower, driver="evd", check_finite=False)
        return v, w

    return map_decomposition(decompose, x, _eigh_aval(aval, lower=lower, sort_eigenvalues=sort_eigenvalues,
                                                      subset_by_index=subset_by_index, algorithm=algorithm))


def eigh(x: Any, *, lower: bool = True, symmetrize_input: bool = True, sort_eigenvalues: bool = True,
         subset_by_index: tuple[int, int] | None = None,
         implementation: EighImplementation | None = None) -> tuple[Any, Any]:
    """Eigenvectors ``v`` (as columns) and ascending real eigenvalues ``w`` of the Hermitian matrices ``x``, whose
    ``lower`` (or upper) triangle is read; ``symmetrize_input`` first replaces ``x`` by ``(x + x^H) / 2``."""
    if symmetrize_input:
        x = symmetrize(x)
    v, w = eigh_p.bind(x, lower=lower, sort_eigenvalues=sort_eigenvalues, subset_by_index=subset_by_index,
                       algorithm=implementation)
    return v, w


# ---------------------------------------------------------------- eig

eig_p = Primitive("eig")
eig_p.multiple_results = True


@eig_p.def_abstract_eval
def _eig_aval(x: ShapedArray, *, compute_left_eigenvectors: bool, compute_right_eigenvectors: bool,
              enable_eigvec_derivs: bool, implementation: EigImplementation | None) -> list[ShapedArray]:
    check_operands("eig", [x], [2], INEXACT)
    check_square("eig", x)
    n, batch, dtype = x.shape[-1], x.shape[:-2], complex_dtype(x.dtype)
    vectors = [ShapedArray(batch + (n, n), dtype)] * (compute_left_eigenvectors + compute_right_eigenvectors)
    return [ShapedArray(batch + (n,), dtype), *vectors]


def check_eig_supported(x: ShapedArray, implementation: EigImplementation | None) -> None:
    """The errors JAX's CPU lowering gives for an ``eig`` that abstract evaluation accepts."""
    if implementation not in (None, EigImplementation.LAPACK):
        raise ValueError("Only the lapack implementation is supported on CPU.")
    check_lapack_dtype(x.dtype)


@eig_p.def_impl
def _eig_impl(x: np.ndarray, *, compute_left_eigenvectors: bool, compute_right_eigenvectors: bool,
              enable_eigvec_derivs: bool, implementation: EigImplementation | None) -> list[np.ndarray]:
    aval = ShapedArray(x.shape, x.dtype)
    check_eig_supported(aval, implementation)

    def decompose(a: np.ndarray) -> tuple[np.ndarray, ...]:
        w, vl, vr = scipy_linalg().eig(a, left=True, right=True, check_finite=False)  # geev
        return w, *([vl] if compute_left_eigenvectors else []), *([vr] if compute_right_eigenvectors else [])

    return map_decomposition(decompose, x, _eig_aval(
        aval, compute_left_eigenvectors=compute_left_eigenvectors,
        compute_right_eigenvectors=compute_right_eigenvectors, enable_eigvec_derivs=enable_eigvec_derivs,
        implementation=implementation))


def eig(x: Any, *, compute_left_eigenvectors: bool = True, compute_right_eigenvectors: bool = True,
        enable_eigvec_derivs: bool = False, implementation: EigImplementation | None = None,
        use_magma: bool | None = None) -> list[Any]:
    """Eigenvalues ``w`` of the square matrices ``x`` (complex), followed by the left eigenvectors ``vl``
    (``vl^H x = w vl^H``) and the right ones ``vr`` (``x vr = w vr``) as asked, each column of unit norm.
    ``enable_eigvec_derivs`` allows differentiating eigenvectors; ``use_magma`` only matters on GPUs."""
    del use_magma
    return eig_p.bind(x, compute_left_eigenvectors=compute_left_eigenvectors,
                      compute_right_eigenvectors=compute_right_eigenvectors,
                      enable_eigvec_derivs=enable_eigvec_derivs, implementation=implementation)
