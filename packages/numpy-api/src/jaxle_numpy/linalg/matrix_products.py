"""Chains of matrix products: ``multi_dot`` (one einsum, ordered by opt_einsum) and ``matrix_power`` (binary
powering, through the inverse for negative exponents)."""

from __future__ import annotations

import itertools
import operator
from collections.abc import Sequence
from typing import Any

from jaxle_core.avals import get_aval
from jaxle_numpy.creation import asarray
from jaxle_numpy.einsum import einsum
from jaxle_numpy.linalg.solves import inv
from jaxle_numpy.manipulation import broadcast_to
from jaxle_numpy.matrices import eye
from jaxle_numpy.products import matmul
from jaxle_numpy.util import check_arraylike, named_jit

__all__ = ["multi_dot", "matrix_power"]


def multi_dot(arrays: Sequence[Any], *, precision: Any = None) -> Any:
    """The product of a chain of matrices in the cheapest order; the first and last may be vectors."""
    check_arraylike("jnp.linalg.multi_dot", *arrays)
    arrays = list(arrays)
    if len(arrays) == 1:  # as JAX's: a single array is read as the sequence of its rows
        arrays = list(asarray(arrays[0]))
    arrays = [asarray(a) for a in arrays]
    if len(arrays) < 2:
        raise ValueError(f"multi_dot requires at least two arrays; got len(arrays)={len(arrays)}")
    shapes = [get_aval(a).shape for a in arrays]
    if len(shapes[0]) not in (1, 2) or len(shapes[-1]) not in (1, 2) or any(len(s) != 2 for s in shapes[1:-1]):
        raise ValueError("multi_dot: input arrays must all be two-dimensional, except for the first and last array "
                         f"which may be 1 or 2 dimensional. Got array shapes {shapes}")
    if any(left[-1] != right[0] for left, right in zip(shapes[:-1], shapes[1:])):
        raise ValueError("multi_dot: last dimension of each array must match first dimension of following array. "
                         f"Got array shapes {shapes}")
    subscripts = [[i, i + 1] for i in range(len(arrays))]
    if len(shapes[0]) == 1:
        subscripts[0] = subscripts[0][1:]
    if len(shapes[-1]) == 1:
        subscripts[-1] = subscripts[-1][:1]
    return einsum(*itertools.chain(*zip(arrays, subscripts)), optimize="auto", precision=precision)


@named_jit("matrix_power", ("n",))
def matrix_power(a: Any, n: int) -> Any:
    """``a`` (a square matrix, or a stack of them) to the integer power ``n``; negative ``n`` powers the inverse."""
    check_arraylike("jnp.linalg.matrix_power", a)
    a = asarray(a)
    shape = get_aval(a).shape
    if len(shape) < 2:
        raise TypeError(f"{len(shape)}-dimensional array given. Array must be at least two-dimensional")
    if shape[-2] != shape[-1]:
        raise TypeError("Last 2 dimensions of the array must be square")
    try:
        n = operator.index(n)
    except TypeError as error:
        raise TypeError(f"exponent must be an integer, got {n}") from error
    if n == 0:
        return broadcast_to(eye(shape[-2], dtype=get_aval(a).dtype), shape)
    if n < 0:
        a, n = inv(a), -n
    # Small powers as NumPy spells them; then binary powering over the bits of n, lowest first.
    if n == 1:
        return a
    if n == 2:
        return matmul(a, a)
    if n == 3:
        return matmul(matmul(a, a), a)
    square = result = None
    while n > 0:
        square = a if square is None else matmul(square, square)
        n, bit = divmod(n, 2)
        if bit:
            result = square if result is None else matmul(result, square)
    return result
