"""The array API's ``linalg`` forms of jnp's products and views: the matrix axes are the last two (the vector axis
the last), and ``cross``/``outer`` insist on 3-vectors and 1-d operands."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxle_core.avals import get_aval
from jaxle_core.lax import structural as lax_structural
from jaxle_numpy import manipulation, products
from jaxle_numpy.ufuncs import multiply
from jaxle_numpy.util import check_arraylike, check_scalar_arraylike, ensure_array

__all__ = ["cross", "outer", "matmul", "trace", "diagonal", "matrix_transpose", "vecdot", "tensordot"]


def cross(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    """The cross product of the 3-vectors along ``axis`` of ``x1`` and ``x2`` (broadcast over the other axes)."""
    check_arraylike("jnp.linalg.outer", x1, x2)  # JAX 0.10.2's message names outer here
    x1, x2 = ensure_array(x1), ensure_array(x2)
    size1, size2 = get_aval(x1).shape[axis], get_aval(x2).shape[axis]
    if size1 != 3 or size2 != 3:
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, but they have "
                         f"x1.shape[axis]={size1} and x2.shape[axis]={size2}")
    return products.cross(x1, x2, axis=axis)


def outer(x1: Any, x2: Any, /) -> Any:
    """Every product of an element of the vector ``x1`` with one of the vector ``x2``."""
    check_scalar_arraylike("jnp.linalg.outer", x1, x2)
    ndim1, ndim2 = get_aval(ensure_array(x1)).ndim, get_aval(ensure_array(x2)).ndim
    if ndim1 != 1 or ndim2 != 1:
        raise ValueError(f"Input arrays must be one-dimensional, but they are x1.ndim={ndim1} x2.ndim={ndim2}")
    # Unlike jnp.outer, the operands are promoted by the product, after the broadcast.
    return multiply(lax_structural.expand_dims(x1, (1,)), lax_structural.expand_dims(x2, (0,)))


def matmul(x1: Any, x2: Any, /, *, precision: Any = None, preferred_element_type: Any = None) -> Any:
    """The matrix product (``jnp.matmul``)."""
    check_arraylike("jnp.linalg.matmul", x1, x2)
    return products.matmul(x1, x2, precision=precision, preferred_element_type=preferred_element_type)


def trace(x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
    """The sum of the ``offset`` diagonal of each matrix (the last two axes)."""
    check_arraylike("jnp.linalg.trace", x)
    return products.trace(x, offset=offset, axis1=-2, axis2=-1, dtype=dtype)


def diagonal(x: Any, /, *, offset: int = 0) -> Any:
    """The ``offset`` diagonal of each matrix (the last two axes)."""
    check_arraylike("jnp.linalg.diagonal", x)
    return manipulation.diagonal(x, offset=offset, axis1=-2, axis2=-1)


def matrix_transpose(x: Any, /) -> Any:
    """Each matrix transposed (the last two axes swapped)."""
    check_arraylike("jnp.linalg.matrix_transpose", x)
    ndim = get_aval(ensure_array(x)).ndim
    if ndim < 2:
        raise ValueError(f"matrix_transpose requires at least 2 dimensions; got ndim={ndim}")
    return manipulation.matrix_transpose(x)


def vecdot(x1: Any, x2: Any, /, *, axis: int = -1, precision: Any = None, preferred_element_type: Any = None) -> Any:
    """The conjugated dot product of the vectors along ``axis`` (``jnp.vecdot``)."""
    check_arraylike("jnp.linalg.vecdot", x1, x2)
    return products.vecdot(x1, x2, axis=axis, precision=precision, preferred_element_type=preferred_element_type)


def tensordot(x1: Any, x2: Any, /, *, axes: int | tuple[Sequence[int], Sequence[int]] = 2, precision: Any = None,
              preferred_element_type: Any = None, out_sharding: Any = None) -> Any:
    """The tensor contraction of ``x1`` and ``x2`` over ``axes`` (``jnp.tensordot``)."""
    check_arraylike("jnp.linalg.tensordot", x1, x2)
    return products.tensordot(x1, x2, axes=axes, precision=precision, preferred_element_type=preferred_element_type,
                              out_sharding=out_sharding)
