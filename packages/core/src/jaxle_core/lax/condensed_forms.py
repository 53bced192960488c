"""Reductions to condensed forms by Householder reflections: ``hessenberg`` (general matrices) and
``tridiagonal`` (Hermitian ones). Both return LAPACK's packed result: the reduced matrix with the reflectors'
vectors stored below it, and the reflectors' scale factors ``taus``. Leading dimensions are a batch."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import ShapedArray
from jaxle_core.core import Primitive
from jaxle_core.lax.linalg_support import (
    check_lapack_dtype,
    check_operands,
    lapack_function,
    map_decomposition,
    real_dtype,
)
from jaxle_core.lax.standard import INEXACT

__all__ = ["hessenberg", "hessenberg_p", "tridiagonal", "tridiagonal_p"]


# ---------------------------------------------------------------- hessenberg

hessenberg_p = Primitive("hessenberg")
hessenberg_p.multiple_results = True


@hessenberg_p.def_abstract_eval
def _hessenberg_aval(x: ShapedArray) -> list[ShapedArray]:
    check_operands("hessenberg", [x], [2], INEXACT)
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"Argument to Hessenberg reduction must have shape [..., n, n], got shape {x.shape}")
    # n - 1 reflectors; an empty matrix has none (JAX stages a negative dimension there)
    return [ShapedArray(x.shape, x.dtype), ShapedArray(x.shape[:-2] + (max(x.shape[-1] - 1, 0),), x.dtype)]


@hessenberg_p.def_impl
def _hessenberg_impl(x: np.ndarray) -> list[np.ndarray]:
    check_lapack_dtype(x.dtype)

    def reduce(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if a.size == 0:
            return a, np.zeros((0,), x.dtype)
        packed, taus, _ = lapack_function("gehrd", a)(a)
        return packed, taus

    return map_decomposition(reduce, x, _hessenberg_aval(ShapedArray(x.shape, x.dtype)))


def hessenberg(a: Any) -> list[Any]:
    """``[h, taus]``: the upper Hessenberg form of the square matrices ``a`` in ``h``'s upper part, the Householder
    vectors below its first subdiagonal and their scale factors ``taus`` (LAPACK's ``gehrd`` layout)."""
    return hessenberg_p.bind(a)


# ---------------------------------------------------------------- tridiagonal

tridiagonal_p = Primitive("tridiagonal")
tridiagonal_p.multiple_results = True


@tridiagonal_p.def_abstract_eval
def _tridiagonal_aval(x: ShapedArray, *, lower: bool) -> list[ShapedArray]:
    check_operands("tridiagonal", [x], [2], INEXACT)
    n = x.shape[-1]
    if x.shape[-2] != n or n == 0:  # JAX rejects an empty matrix with the same words
        raise ValueError(f"The input to tridiagonal must be a square matrix. Got shape {x.shape}.")
    batch, real = x.shape[:-2], real_dtype(x.dtype)
    return [ShapedArray(x.shape, x.dtype), ShapedArray(batch + (n,), real), ShapedArray(batch + (n - 1,), real),
            ShapedArray(batch + (n - 1,), x.dtype)]


@tridiagonal_p.def_impl
def _tridiagonal_impl(x: np.ndarray, *, lower: bool) -> list[np.ndarray]:
    check_lapack_dtype(x.dtype)
    name = "hetrd" if dtypes.issubdtype(x.dtype, np.complexfloating) else "sytrd"

    def reduce(a: np.ndarray) -> tuple[np.ndarray, ...]:
        packed, d, e, taus, _ = lapack_function(name, a)(a, lower=int(lower))
        return packed, d, e, taus

    return map_decomposition(reduce, x, _tridiagonal_aval(ShapedArray(x.shape, x.dtype), lower=lower))


def tridiagonal(a: Any, *, lower: bool = True) -> list[Any]:
    """``[packed, d, e, taus]``: the reduction of the Hermitian matrices ``a`` (their ``lower`` or upper triangle
    is read) to real symmetric tridiagonal form, with diagonal ``d`` and off-diagonal ``e``; ``packed`` holds the
    Householder vectors in the triangle read and ``taus`` their scale factors (LAPACK's ``sytrd``/``hetrd``)."""
    return tridiagonal_p.bind(a, lower=lower)
