"""Products: dot, vdot, vecdot, inner, outer, matmul, matvec, vecmat, tensordot, kron, trace, cross."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import get_aval
from jaxle_core.jit import jit
from jaxle_core.lax import elementwise as lax_elementwise
from jaxle_core.lax import reductions as lax_reductions
from jaxle_core.lax import slicing as lax_slicing
from jaxle_core.lax import structural as lax_structural
from jaxle_core.lax.dot import dot_general
from jaxle_core.sharding_types import checked_out_sharding
from jaxle_numpy.conditional import where
from jaxle_numpy.creation import array
from jaxle_numpy.manipulation import moveaxis
from jaxle_numpy.ufuncs import multiply, subtract
from jaxle_numpy.util import (
    canonicalize_axis,
    check_arraylike,
    check_scalar_arraylike,
    compiled_when_eager,
    ensure_array,
    ensure_arraylike,
    promote_dtypes,
)
from jaxle_numpy.vectorize import vectorize

__all__ = ["dot", "vdot", "vecdot", "inner", "outer", "matmul", "matvec", "vecmat", "tensordot", "kron", "trace",
           "cross"]


def _contract(a: Any, b: Any, dimension_numbers, precision, preferred_element_type, out_sharding=None) -> Any:
    """``dot_general`` of ``a`` and ``b`` as jnp stages it: the operands keep their own dtypes and the contraction
    produces their promoted dtype (or ``preferred_element_type``), made weak when the promotion is weak."""
    a, b = ensure_array(a), ensure_array(b)
    if preferred_element_type is None:
        out_dtype, weak = dtypes.result_type(a, b, return_weak_type_flag=True)
    else:
        out_dtype, weak = dtypes.canonicalize_dtype(dtypes.dtype(preferred_element_type, requested_in="dot")), False
    out = dot_general(a, b, dimension_numbers, precision, preferred_element_type=out_dtype, out_sharding=out_sharding)
    if get_aval(out).weak_type != weak:
        out = lax_structural.convert_keeping_weak_type(out, out_dtype, weak)
    return out


@compiled_when_eager
def dot(a: Any, b: Any, *, precision=None, preferred_element_type=None, out_sharding=None) -> Any:
    """NumPy's dot: scalars multiply, otherwise ``a``'s last axis contracts with ``b``'s second-to-last (or only);
    ``out_sharding`` lays the result out over a mesh of Explicit axes."""
    check_arraylike("dot", a, b)
    checked_out_sharding(out_sharding, "dot_general", located=False)  # as JAX's, in a jitted function of its own
    a_ndim, b_ndim = get_aval(ensure_array(a)).ndim, get_aval(ensure_array(b)).ndim
    if a_ndim == 0 or b_ndim == 0:
        contracting: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    else:
        contracting = ((a_ndim - 1,), (max(b_ndim - 2, 0),))
    return _contract(a, b, (contracting, ((), ())), precision, preferred_element_type, out_sharding)


def _ravel(x: Any) -> Any:
    shape = get_aval(x).shape
    return x if len(shape) == 1 else lax_structural.reshape(x, (int(np.prod(shape)),))


def _conj_if_complex(x: Any) -> Any:
    return lax_elementwise.conj(x) if dtypes.issubdtype(get_aval(x).dtype, np.complexfloating) else x


@compiled_when_eager
def vdot(a: Any, b: Any, *, precision=None, preferred_element_type=None) -> Any:
    """The dot product of the flattened arrays, ``a`` conjugated."""
    check_arraylike("vdot", a, b)
    a, b = ensure_array(a), ensure_array(b)
    return dot(_ravel(_conj_if_complex(a)), _ravel(b), precision=precision,
               preferred_element_type=preferred_element_type)


def vecdot(x1: Any, x2: Any, /, *, axis: int = -1, precision=None, preferred_element_type=None) -> Any:
    """The conjugated dot product along ``axis`` of ``x1`` and ``x2``, broadcast over their other dimensions."""
    check_scalar_arraylike("vecdot", x1, x2)
    x1, x2 = ensure_array(x1), ensure_array(x2)
    x1_shape, x2_shape = get_aval(x1).shape, get_aval(x2).shape
    if x1_shape[axis] != x2_shape[axis]:  # Python's IndexError for an axis out of range, as JAX's
        raise ValueError(f"axes must match; got shapes {x1_shape} and {x2_shape} with axis={axis}")
    # by jnp.moveaxis, as JAX's: its parameter names an operand on other devices
    x1, x2 = moveaxis(x1, axis, -1), moveaxis(x2, axis, -1)

    def vector_dot(u, v):
        return dot(_conj_if_complex(u), v, precision=precision, preferred_element_type=preferred_element_type)

    return vectorize(vector_dot, signature="(n),(n)->()")(x1, x2)


def _move_to_end(x: Any, axis: int) -> Any:
    ndim = get_aval(x).ndim
    if axis == ndim - 1:
        return x
    return lax_structural.transpose(x, tuple(d for d in range(ndim) if d != axis) + (axis,))


@compiled_when_eager
def inner(a: Any, b: Any, *, precision=None, preferred_element_type=None) -> Any:
    """The sum of products over the last axes of ``a`` and ``b`` (a product when either is a scalar)."""
    check_arraylike("inner", a, b)
    a, b = ensure_array(a), ensure_array(b)
    a_ndim, b_ndim = get_aval(a).ndim, get_aval(b).ndim
    if a_ndim == 0 or b_ndim == 0:
        a, b = promote_dtypes(a, b)
        return multiply(*_with_common_rank(a, b))
    return _contract(a, b, (((a_ndim - 1,), (b_ndim - 1,)), ((), ())), precision, preferred_element_type)


def _with_common_rank(a: Any, b: Any) -> tuple[Any, Any]:
    """``a`` and ``b`` with leading size-1 dimensions up to the larger rank, scalars left as they are."""
    ndim = max(get_aval(a).ndim, get_aval(b).ndim)
    return tuple(x if get_aval(x).ndim in (0, ndim) else lax_structural.broadcast_to_rank(x, ndim) for x in (a, b))


@compiled_when_eager
def outer(a: Any, b: Any, out: None = None) -> Any:
    """Every product of an element of flattened ``a`` with one of flattened ``b``."""
    check_arraylike("outer", a, b)
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.outer is not supported.")
    a, b = promote_dtypes(a, b)
    column = lax_structural.expand_dims(_ravel(a), (1,))
    return multiply(column, lax_structural.expand_dims(_ravel(b), (0,)))


@compiled_when_eager
def matmul(a: Any, b: Any, *, precision=None, preferred_element_type=None, out_sharding=None) -> Any:
    """Matrix product, broadcast over leading (batch) dimensions; a 1-d operand is a vector (NumPy's matmul);
    ``out_sharding`` lays the result out over a mesh of Explicit axes."""
    check_arraylike("matmul", a, b)
    checked_out_sharding(out_sharding, "dot_general", located=False)  # as JAX's, in a jitted function of its own
    a, b = ensure_array(a), ensure_array(b)
    a_aval, b_aval = get_aval(a), get_aval(b)
    for position, aval in enumerate((a_aval, b_aval)):
        if aval.ndim == 0:
            raise ValueError(f"matmul input operand {position} must have ndim at least 1, but it has ndim 0")
    a_is_matrix, b_is_matrix = a_aval.ndim > 1, b_aval.ndim > 1
    a_batch = a_aval.shape[:-2] if a_is_matrix else ()
    b_batch = b_aval.shape[:-2] if b_is_matrix else ()
    n_batch = max(len(a_batch), len(b_batch))
    a_offset, b_offset = n_batch - len(a_batch), n_batch - len(b_batch)

    # Per batch position (aligned at the end): contracted together, kept as a free dimension of one side, or
    # size 1 on both sides (squeezed and restored at the end).
    a_squeeze, b_squeeze, a_batch_dims, b_batch_dims, both_one = [], [], [], [], []
    a_free, b_free = [], []  # (operand dimension, output position)
    for position in range(n_batch):
        a_dim = position - a_offset if position >= a_offset else None
        b_dim = position - b_offset if position >= b_offset else None
        a_size = None if a_dim is None else a_batch[a_dim]
        b_size = None if b_dim is None else b_batch[b_dim]
        if a_size is None:
            b_free.append((b_dim, position))
        elif b_size is None:
            a_free.append((a_dim, position))
        elif a_size == b_size == 1:
            a_squeeze.append(a_dim)
            b_squeeze.append(b_dim)
            both_one.append(position)
        elif a_size == b_size:
            a_batch_dims.append(a_dim)
            b_batch_dims.append(b_dim)
        elif a_size == 1:
            a_squeeze.append(a_dim)
            b_free.append((b_dim, position))
        elif b_size == 1:
            b_squeeze.append(b_dim)
            a_free.append((a_dim, position))
        else:
            raise ValueError(f"Incompatible types for matmul arguments: {a_aval.str_short()} and "
                             f"{b_aval.str_short()}")
    if a_squeeze:
        a = lax_structural.squeeze(a, a_squeeze)
    if b_squeeze:
        b = lax_structural.squeeze(b, b_squeeze)

    def after_squeeze(dim: int, squeezed: list[int]) -> int:
        return dim - sum(s < dim for s in squeezed)

    a_ndim, b_ndim = a_aval.ndim - len(a_squeeze), b_aval.ndim - len(b_squeeze)
    a_contract = a_ndim - 1
    b_contract = b_ndim - 2 if b_is_matrix else b_ndim - 1
    numbers = (((a_contract,), (b_contract,)),
               (tuple(after_squeeze(d, a_squeeze) for d in a_batch_dims),
                tuple(after_squeeze(d, b_squeeze) for d in b_batch_dims)))
    out = _contract(a, b, numbers, precision, preferred_element_type, out_sharding)

    # dot_general's result: batch dimensions, a's free ones (batch ones, then rows), b's (batch ones, then columns)
    batch_positions = [p for p in range(n_batch) if p not in both_one and all(p != q for _, q in a_free + b_free)]
    order = batch_positions + [p for _, p in a_free] + (["rows"] if a_is_matrix else []) \
        + [p for _, p in b_free] + (["columns"] if b_is_matrix else [])
    wanted = [p for p in range(n_batch) if p not in both_one] + (["rows"] if a_is_matrix else []) \
        + (["columns"] if b_is_matrix else [])
    permutation = tuple(order.index(p) for p in wanted)
    if permutation != tuple(range(len(permutation))):
        out = lax_structural.transpose(out, permutation)
    if both_one:
        out = lax_structural.expand_dims(out, both_one)
    return out


@jit
def matvec(x1: Any, x2: Any, /) -> Any:
    """Matrix-vector products broadcast over the leading dimensions of ``x1`` (..., m, n) and ``x2`` (..., n)."""
    check_arraylike("matvec", x1, x2)
    return vectorize(matmul, signature="(n,m),(m)->(n)")(x1, x2)


@jit
def vecmat(x1: Any, x2: Any, /) -> Any:
    """Conjugated-vector-matrix products broadcast over leading dimensions of ``x1`` (..., m) and ``x2`` (..., m, n)."""
    check_arraylike("vecmat", x1, x2)
    return vectorize(lambda v, m: matmul(_conj_if_complex(v), m), signature="(n),(n,m)->(m)")(x1, x2)


def tensordot(a: Any, b: Any, axes: int | Sequence[int] | Sequence[Sequence[int]] = 2, *, precision=None,
              preferred_element_type=None, out_sharding=None) -> Any:
    """The sum of products over ``axes``: the last ``axes`` of ``a`` with the first of ``b``, or explicit pairs;
    ``out_sharding`` lays the result out over a mesh of Explicit axes."""
    a, b = ensure_arraylike("tensordot", a, b)
    a_ndim, b_ndim = get_aval(a).ndim, get_aval(b).ndim
    a_shape, b_shape = get_aval(a).shape, get_aval(b).shape
    if type(axes) is int:
        if axes > min(a_ndim, b_ndim):
            raise TypeError(f"Number of tensordot axes (axes {axes}) exceeds input ranks ({a_shape} and {b_shape})")
        contracting = (tuple(range(a_ndim - axes, a_ndim)), tuple(range(axes)))
    elif isinstance(axes, (list, tuple)) and len(axes) == 2:
        a_axes, b_axes = axes
        if isinstance(a_axes, (int, np.integer)) and isinstance(b_axes, (int, np.integer)):
            a_axes, b_axes = (a_axes,), (b_axes,)
        elif len(a_axes) != len(b_axes):
            raise TypeError(f"tensordot requires axes lists to have equal length, got {a_axes} and {b_axes}.")
        contracting = (tuple(canonicalize_axis(x, a_ndim) for x in a_axes),
                       tuple(canonicalize_axis(x, b_ndim) for x in b_axes))
    else:
        raise TypeError("tensordot axes argument must be an int, a pair of ints, or a pair of lists/tuples of ints.")
    return _contract(a, b, (contracting, ((), ())), precision, preferred_element_type, out_sharding)


@jit
def kron(a: Any, b: Any) -> Any:
    """The Kronecker product: blocks ``a[i, j] * b`` (the lower-rank operand gets leading size-1 dimensions)."""
    check_arraylike("kron", a, b)
    a, b = promote_dtypes(a, b)
    a_ndim, b_ndim = get_aval(a).ndim, get_aval(b).ndim
    if a_ndim < b_ndim:
        a = lax_structural.expand_dims(a, tuple(range(b_ndim - a_ndim)))
    elif b_ndim < a_ndim:
        b = lax_structural.expand_dims(b, tuple(range(a_ndim - b_ndim)))
    a_shape, b_shape = get_aval(a).shape, get_aval(b).shape
    ndim = len(a_shape)
    a = lax_structural.expand_dims(a, tuple(range(1, 2 * ndim, 2)))
    b = lax_structural.expand_dims(b, tuple(range(0, 2 * ndim, 2)))
    # lax's mul, as JAX's kron (booleans are refused, where jnp.multiply would take their logical and)
    return lax_structural.reshape(lax_elementwise.mul(a, b), tuple(x * y for x, y in zip(a_shape, b_shape)))


def _trace_dtype(dtype: Any, input_dtype: np.dtype) -> np.dtype:
    """What ``jnp.sum`` accumulates in: ``dtype`` when given, else small integers and booleans widen."""
    if dtype is not None:
        return dtypes.canonicalize_dtype(dtypes.dtype(dtype, requested_in="trace"))
    if input_dtype == np.bool_ or (dtypes.issubdtype(input_dtype, np.signedinteger)
                                   and input_dtype.itemsize < dtypes.default_int_dtype().itemsize):
        return dtypes.default_int_dtype()
    if dtypes.issubdtype(input_dtype, np.unsignedinteger) \
            and input_dtype.itemsize < dtypes.default_int_dtype().itemsize:
        return dtypes.canonicalize_dtype(np.uint64)
    return input_dtype


@functools.partial(jit, static_argnames=("axis1", "axis2", "dtype"))
def trace(a: Any, offset: int | Any = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None, out: None = None) -> Any:
    """The sum along the diagonal (shifted by ``offset``) of the 2-d slices spanned by ``axis1`` and ``axis2``."""
    check_arraylike("trace", a)
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.trace is not supported.")
    aval = get_aval(a)
    given = axis1, axis2
    axis1, axis2 = canonicalize_axis(axis1, aval.ndim), canonicalize_axis(axis2, aval.ndim)
    if axis1 == axis2:
        raise ValueError(f"axis1 and axis2 can not be same. axis1={given[0]} and axis2={given[1]}")
    rest = [d for d in range(aval.ndim) if d not in (axis1, axis2)]
    if [axis1, axis2] != [aval.ndim - 2, aval.ndim - 1]:
        a = lax_structural.transpose(a, tuple(rest) + (axis1, axis2))
    shape = get_aval(a).shape
    rows = lax_structural.broadcasted_iota(np.int32, shape[-2:], 0)
    columns = lax_structural.broadcasted_iota(np.int32, shape[-2:], 1)
    shifted = lax_elementwise.add(rows, lax_structural.convert_element_type(offset, np.int32))
    on_diagonal = lax_elementwise.eq(shifted, columns)
    # zeros laid out as ``a`` (over Explicit mesh axes), as JAX's zeros_like
    zeros = lax_structural.broadcast_in_dim(np.zeros((), aval.dtype)[()], shape, (),
                                            out_sharding=get_aval(a).explicit_sharding)
    diagonal = where(on_diagonal, a, zeros)
    out_dtype = _trace_dtype(dtype, aval.dtype)
    if out_dtype != aval.dtype:
        diagonal = lax_structural.convert_element_type(diagonal, out_dtype)
    return lax_reductions.reduce_sum(diagonal, (len(shape) - 2, len(shape) - 1))


def _component(x: Any, index: int) -> Any:
    """``x[..., index]``: a slice of the last dimension, squeezed."""
    shape = get_aval(x).shape
    start = (0,) * (len(shape) - 1) + (index,)
    piece = lax_slicing.slice(x, start, shape[:-1] + (index + 1,))
    return lax_structural.squeeze(piece, (len(shape) - 1,))


def _zeros_like(x: Any) -> Any:
    aval = get_aval(x)
    zero = np.zeros((), aval.dtype)[()]
    return lax_structural.broadcast_in_dim(zero, aval.shape, ()) if aval.shape else zero


@functools.partial(jit, static_argnames=("axisa", "axisb", "axisc", "axis"))
def cross(a, b, axisa: int = -1, axisb: int = -1, axisc: int = -1, axis: int | None = None):
    """The cross product of 3-vectors (or 2-vectors, read with a zero third component) along the given axes."""
    check_arraylike("cross", a, b)
    if axis is not None:
        axisa = axisb = axisc = axis
    a = _move_to_end(a, canonicalize_axis(axisa, get_aval(a).ndim))
    b = _move_to_end(b, canonicalize_axis(axisb, get_aval(b).ndim))
    a_size, b_size = get_aval(a).shape[-1], get_aval(b).shape[-1]
    if a_size not in (2, 3) or b_size not in (2, 3):
        raise ValueError("Dimension must be either 2 or 3 for cross product")
    if a_size == b_size == 2:
        first = multiply(_component(a, 0), _component(b, 1))
        return subtract(first, multiply(_component(a, 1), _component(b, 0)))
    a0, a1 = _component(a, 0), _component(a, 1)
    a2 = _component(a, 2) if a_size == 3 else _zeros_like(a0)
    b0, b1 = _component(b, 0), _component(b, 1)
    b2 = _component(b, 2) if b_size == 3 else _zeros_like(b0)

    def term(x, y, z, w):
        return subtract(multiply(x, y), multiply(z, w))

    parts = [term(a1, b2, a2, b1), term(a2, b0, a0, b2), term(a0, b1, a1, b0)]
    shape = get_aval(parts[0]).shape  # each part involves both operands, so all have the broadcast shape
    c = array(parts)  # jnp.array of the parts, as JAX's: stacked along a new first axis, weak types dropped
    out_axis = canonicalize_axis(axisc, len(shape) + 1)
    if out_axis != 0:
        rest = tuple(range(out_axis + 1, len(shape) + 1))
        c = lax_structural.transpose(c, tuple(range(1, out_axis + 1)) + (0,) + rest)
    return c
