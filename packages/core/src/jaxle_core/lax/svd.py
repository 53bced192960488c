"""The singular value decomposition: ``svd`` and its ``SvdAlgorithm`` enum. It acts on the two minor dimensions;
leading dimensions are a batch."""

from __future__ import annotations

import enum
from typing import Any

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_core.core import Primitive
from jaxle_core.lax.linalg_support import (
    check_lapack_dtype,
    check_operands,
    map_decomposition,
    real_dtype,
    scipy_linalg,
)
from jaxle_core.lax.standard import INEXACT

__all__ = ["SvdAlgorithm", "svd", "svd_p"]


class SvdAlgorithm(enum.Enum):
    """Which algorithm ``svd`` uses: on CPU, LAPACK's divide and conquer (``gesdd``, the default) or its QR
    iteration (``gesvd``); JACOBI and POLAR are for accelerators."""

    DEFAULT = "default"
    QR = "QR"
    JACOBI = "Jacobi"
    POLAR = "polar"
    DIVIDE_AND_CONQUER = "divide_and_conquer"


svd_p = Primitive("svd")
svd_p.multiple_results = True


def _rank(m: int, n: int, subset_by_index: tuple[int, int] | None) -> int:
    """How many singular values (and vectors) the decomposition returns."""
    if subset_by_index is None:
        return min(m, n)
    low, high = subset_by_index
    if high < low:  # JAX stages a negative dimension here and fails later, in XLA
        raise ValueError(f"subset_by_index must be an increasing pair of indices, got {subset_by_index}")
    return high - low


@svd_p.def_abstract_eval
def _svd_aval(x: ShapedArray, *, full_matrices: bool, compute_uv: bool, subset_by_index: tuple[int, int] | None,
              algorithm: SvdAlgorithm | None) -> list[ShapedArray]:
    check_operands("svd", [x], [2], INEXACT)
    if full_matrices and subset_by_index is not None:
        raise ValueError("full_matrices and subset_by_index cannot both be set")
    batch, (m, n) = x.shape[:-2], x.shape[-2:]
    k = _rank(m, n, subset_by_index)
    s = ShapedArray(batch + (k,), real_dtype(x.dtype))
    if not compute_uv:
        return [s]
    u_columns, vt_rows = (m, n) if full_matrices else (k, k)
    return [s, ShapedArray(batch + (m, u_columns), x.dtype), ShapedArray(batch + (vt_rows, n), x.dtype)]


def check_svd_supported(x: ShapedArray, subset_by_index: tuple[int, int] | None,
                        algorithm: SvdAlgorithm | None) -> None:
    """The errors JAX's CPU lowering gives for an ``svd`` that abstract evaluation accepts (shared by the
    reference backend, which computes what the CPU does)."""
    check_lapack_dtype(x.dtype)
    if algorithm not in (None, SvdAlgorithm.DEFAULT, SvdAlgorithm.QR, SvdAlgorithm.DIVIDE_AND_CONQUER):
        raise NotImplementedError("The SVD Jacobi and Polar algorithms are not implemented on CPU.")
    if subset_by_index is not None and tuple(subset_by_index) != (0, min(x.shape[-2:])):
        raise NotImplementedError("subset_by_index not implemented for CPU and GPU")


def _empty_svd(m: int, n: int, full_matrices: bool, dtype: np.dtype) -> list[np.ndarray]:
    # LAPACK leaves nothing to compute; the full factors of an empty matrix are identities, as on XLA
    u = np.eye(m, dtype=dtype) if full_matrices else np.zeros((m, 0), dtype)
    vt = np.eye(n, dtype=dtype) if full_matrices else np.zeros((0, n), dtype)
    return [np.zeros((0,), real_dtype(dtype)), u, vt]


@svd_p.def_impl
def _svd_impl(x: np.ndarray, *, full_matrices: bool, compute_uv: bool, subset_by_index: tuple[int, int] | None,
              algorithm: SvdAlgorithm | None) -> list[np.ndarray]:
    aval = ShapedArray(x.shape, x.dtype)
    check_svd_supported(aval, subset_by_index, algorithm)
    m, n = x.shape[-2:]
    driver = "gesvd" if algorithm == SvdAlgorithm.QR else "gesdd"

    def decompose(a: np.ndarray) -> list[np.ndarray]:
        if a.size == 0:
            s, u, vt = _empty_svd(m, n, full_matrices, x.dtype)
        else:  # SciPy's LAPACK is the one jaxlib calls
            u, s, vt = scipy_linalg().svd(a, full_matrices=full_matrices, lapack_driver=driver, check_finite=False)
        return [s, u, vt] if compute_uv else [s]

    return map_decomposition(decompose, x, _svd_aval(aval, full_matrices=full_matrices, compute_uv=compute_uv,
                                                     subset_by_index=subset_by_index, algorithm=algorithm))


def svd(x: Any, *, full_matrices: bool = True, compute_uv: bool = True,
        subset_by_index: tuple[int, int] | None = None, algorithm: SvdAlgorithm | None = None) -> Any:
    """The singular value decomposition ``x = u diag(s) vh`` of the matrices ``x``: ``(u, s, vh)`` with the
    singular values ``s`` descending, or just ``s`` without ``compute_uv``. ``full_matrices`` makes ``u`` and ``vh``
    square; ``subset_by_index`` (needs ``full_matrices=False``) keeps the singular values of those indices."""
    outs = svd_p.bind(x, full_matrices=full_matrices, compute_uv=compute_uv, subset_by_index=subset_by_index,
                      algorithm=algorithm)
    if not compute_uv:
        return outs[0]
    s, u, vh = outs
    return u, s, vh
