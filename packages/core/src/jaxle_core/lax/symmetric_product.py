"""``symmetric_product``: ``alpha * a @ a^T + beta * c`` (BLAS's ``syrk``), for symmetric ``c``."""

from __future__ import annotations

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_core.core import Primitive
from jaxle_core.lax.elementwise import add
from jaxle_core.lax.linalg_support import check_operands, swap_minor_dims, tril
from jaxle_core.lax.standard import FLOATING

__all__ = ["symmetric_product", "symmetric_product_p"]

symmetric_product_p = Primitive("symmetric_product")


@symmetric_product_p.def_abstract_eval
def _symmetric_product_aval(a: ShapedArray, c: ShapedArray, *, alpha: float, beta: float) -> ShapedArray:
    check_operands("symmetric_product", [a, c], [2, 2], (FLOATING,))
    if c.shape[-1] != c.shape[-2] or c.shape[-1] != a.shape[-2]:
        raise ValueError(f"symmetric_update expects a rectangular matrix of shape (m, n) and a square matrix of "
                         f"shape (n, n). Got shapes {a.shape} and {c.shape}.")
    return ShapedArray(c.shape, c.dtype)


@symmetric_product_p.def_impl
def _symmetric_product_impl(a: np.ndarray, c: np.ndarray, *, alpha: float, beta: float) -> np.ndarray:
    dtype = c.dtype
    product = np.matmul(a.astype(np.float64), np.swapaxes(a, -1, -2).astype(np.float64)).astype(dtype)
    return (dtype.type(alpha) * product + dtype.type(beta) * c).astype(dtype)


def symmetric_product(a_matrix, c_matrix, *, alpha: float = 1.0, beta: float = 0.0, symmetrize_output: bool = False):
    """``alpha * a @ a^T + beta * c``; with ``symmetrize_output`` the result's lower triangle mirrored above the
    diagonal."""
    out = symmetric_product_p.bind(a_matrix, c_matrix, alpha=alpha, beta=beta)
    if not symmetrize_output:
        return out
    mirrored = swap_minor_dims(tril(out, -1))
    return add(tril(out), mirrored)
