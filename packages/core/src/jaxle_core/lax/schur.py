"""The Schur decomposition ``schur``: ``x = z t z^H`` with ``t`` upper (quasi-)triangular and ``z`` unitary, over
the two minor dimensions; leading dimensions are a batch."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import ShapedArray
from jaxle_core.core import Primitive
from jaxle_core.lax.linalg_support import (
    check_lapack_dtype,
    check_operands,
    check_square,
    map_decomposition,
    scipy_linalg,
)
from jaxle_core.lax.standard import INEXACT

__all__ = ["schur", "schur_p"]

schur_p = Primitive("schur")
schur_p.multiple_results = True


@schur_p.def_abstract_eval
def _schur_aval(x: ShapedArray, *, compute_schur_vectors: bool, sort_eig_vals: bool,
                select_callable: Callable[..., Any] | None) -> list[ShapedArray]:
    check_operands("schur", [x], [2], INEXACT)
    check_square("schur", x)
    out = ShapedArray(x.shape, x.dtype)
    return [out, out] if compute_schur_vectors else [out]


def check_schur_supported(x: ShapedArray, sort_eig_vals: bool) -> None:
    """The errors JAX's CPU lowering gives for a ``schur`` that abstract evaluation accepts."""
    check_lapack_dtype(x.dtype)
    if sort_eig_vals:
        raise NotImplementedError("The sort feature of LAPACK's gees routine is not implemented.")


@schur_p.def_impl
def _schur_impl(x: np.ndarray, *, compute_schur_vectors: bool, sort_eig_vals: bool,
                select_callable: Callable[..., Any] | None) -> list[np.ndarray]:
    aval = ShapedArray(x.shape, x.dtype)
    check_schur_supported(aval, sort_eig_vals)
    output = "complex" if dtypes.issubdtype(x.dtype, np.complexfloating) else "real"

    def decompose(a: np.ndarray) -> tuple[np.ndarray, ...]:
        t, z = (a, a) if a.size == 0 else scipy_linalg().schur(a, output=output, check_finite=False)  # gees
        return (t, z) if compute_schur_vectors else (t,)

    return map_decomposition(decompose, x, _schur_aval(aval, compute_schur_vectors=compute_schur_vectors,
                                                       sort_eig_vals=sort_eig_vals, select_callable=select_callable))


def schur(x: Any, *, compute_schur_vectors: bool = True, sort_eig_vals: bool = False,
          select_callable: Callable[..., Any] | None = None) -> list[Any]:
    """``[t, z]``: the Schur form ``t`` of the square matrices ``x`` (real matrices get the real form, with 2x2
    blocks for complex eigenvalue pairs) and the unitary ``z`` with ``x = z t z^H``; just ``[t]`` without
    ``compute_schur_vectors``. ``select_callable`` only matters with ``sort_eig_vals``, which the CPU lacks."""
    return schur_p.bind(x, compute_schur_vectors=compute_schur_vectors, sort_eig_vals=sort_eig_vals,
                        select_callable=select_callable)
