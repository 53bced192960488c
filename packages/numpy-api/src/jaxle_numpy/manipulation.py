"""Shape manipulation: reshape, transpose, concatenation, splitting, padding, flipping, rolling, repeating.

As in JAX, several of these functions are jitted under their own (or a private) name with their shape
arguments static, so they show up in jaxprs as ``jit[name=...]`` equations: ``rollaxis``, ``atleast_*d``,
``block``, ``_flip``, ``rot90``, ``_roll_static``/``_roll_dynamic``, ``resize``, ``append``, ``diagonal``
and ``_pad``.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxle_core import dtypes
from jaxle_core.array import Array
from jaxle_core.avals import ShapeDtypeStruct, canonicalize_shape, get_aval
from jaxle_core.batching.api import vmap
from jaxle_core.core import Tracer
from jaxle_core.jit import require_hashable
from jaxle_core.lax import elementwise as lax_elementwise
from jaxle_core.lax import placement
from jaxle_core.lax import reductions as lax_reductions
from jaxle_core.lax import slicing as lax_slicing
from jaxle_core.lax import structural as lax_structural
from jaxle_core.lax.control_flow.conditionals import platform_dependent
from jaxle_core.lax.identity import copy_p
from jaxle_core.lax.standard import check_nonnegative
from jaxle_core.mesh import PartitionSpec, get_abstract_mesh
from jaxle_core.sharding import NamedSharding
from jaxle_core.sharding_types import (
    checked_out_sharding,
    explicit_mesh_of,
    no_context_mesh_error,
    resolve_out_sharding,
    spec_of,
    typed_as,
    typed_aval,
)
from jaxle_numpy.conditional import where
from jaxle_numpy.creation import array, asarray, empty, full, ones, zeros, zeros_like
from jaxle_numpy.cumulative import cumsum
from jaxle_numpy.indexing import getitem
from jaxle_numpy.quantiles import median
from jaxle_numpy.ranges import arange, linspace
from jaxle_numpy.reductions import any as jnp_any
from jaxle_numpy.reductions import max as jnp_max
from jaxle_numpy.reductions import mean
from jaxle_numpy.reductions import min as jnp_min
from jaxle_numpy.reductions import sum as jnp_sum
from jaxle_numpy.selection import nonzero, take
from jaxle_numpy.sorting import argsort, sort
from jaxle_numpy.ufuncs import clip, remainder
from jaxle_numpy.ufuncs import round as jnp_round
from jaxle_numpy.util import (
    as_array,
    canonicalize_axis,
    check_arraylike,
    check_conversion_target,
    check_scalar_arraylike,
    compiled_when_eager,
    concrete_or_error,
    concrete_or_none,
    converted_onto,
    converted_staged,
    eager_array,
    ensure_array,
    ensure_arraylike,
    named_jit,
    passed_through,
    promote_dtypes,
    requested_dtype,
    staged_target,
    warn_complex_astype,
)
from jaxle_numpy.vectorize import apply_along_axis

__all__ = ["reshape", "ravel", "transpose", "permute_dims", "matrix_transpose", "moveaxis", "rollaxis", "swapaxes",
           "expand_dims", "squeeze", "broadcast_to", "broadcast_arrays", "broadcast_shapes", "atleast_1d",
           "atleast_2d", "atleast_3d", "concatenate", "concat", "stack", "hstack", "vstack", "dstack",
           "column_stack", "block", "split", "array_split", "hsplit", "vsplit", "dsplit", "unstack", "tile", "repeat",
           "pad", "flip", "fliplr", "flipud", "rot90", "roll", "resize", "append", "trim_zeros", "diagonal", "astype",
           "delete", "insert"]


# ---------------------------------------------------------------- helpers


def _ndim(x: Any) -> int:
    return get_aval(ensure_array(x)).ndim


def _shape(x: Any) -> tuple[int, ...]:
    return get_aval(ensure_array(x)).shape


def _shaped_like(shape: tuple[int, ...]) -> ShapeDtypeStruct:
    """A stand-in of ``shape`` (possibly symbolic; no memory): what core's ``broadcast_like`` takes as the target."""
    return ShapeDtypeStruct(shape, np.bool_)


def _axis(axis: Any, ndim: int) -> int:
    """An integer axis (``operator.index`` semantics) in ``range(ndim)``, NumPy's ValueError if out of bounds."""
    return canonicalize_axis(operator.index(axis), ndim)


def _index_tuple(x: Any, context: str = "expected a static index or sequence of indices.") -> tuple[int, ...]:
    """An integer or a sequence of integers as a tuple of Python ints; JAX's ConcretizationTypeError naming
    ``context`` for a traced one."""
    if isinstance(x, Tracer):
        x = concrete_or_error(x, context)
    try:
        return (operator.index(x),)
    except TypeError:
        return tuple(operator.index(i) for i in x)


def _is_array_object(x: Any) -> bool:
    """Whether ``x`` is one array (to be split along its first axis), not a sequence of arrays."""
    return isinstance(x, (np.ndarray, Array, Tracer))


# ---------------------------------------------------------------- reshaping


def _reshape_sizes(shape: Any) -> tuple[int, ...]:
    """A shape argument (one size, a sequence or a concrete 1-d array of sizes) as a tuple of Python ints."""
    try:
        return (operator.index(shape),)
    except TypeError:
        pass
    if isinstance(shape, Tracer):
        shape = list(shape) if shape.ndim else [shape]  # JAX's TypeError names the traced sizes
    elif isinstance(shape, (Array, np.ndarray)):
        shape = list(np.asarray(shape))
    elif not isinstance(shape, (tuple, list)):
        shape = [shape]
    return canonicalize_shape(shape)


def _resolve_shape(a_shape: tuple[int, ...], shape: tuple[int, ...]) -> tuple[int, ...]:
    """``shape`` with its one ``-1`` size inferred from ``a_shape``'s size; JAX's TypeError for impossible shapes."""
    size = math.prod(a_shape)
    unknown = [i for i, d in enumerate(shape) if d == -1]
    if len(unknown) > 1:
        raise TypeError(f"can only specify one unknown axis size with a `-1` value, got {shape}")
    if unknown:
        known = math.prod(d for d in shape if d != -1)
        if size % known:
            raise TypeError(f"cannot reshape array of shape {a_shape} (size {size}) into shape {shape} because the "
                            f"product of specified axis sizes ({known}) does not evenly divide {size}")
        return shape[:unknown[0]] + (size // known,) + shape[unknown[0] + 1:]
    if math.prod(shape) != size:
        raise TypeError(f"cannot reshape array of shape {a_shape} (size {size}) into shape {shape} "
                        f"(size {math.prod(shape)})")
    return shape


def reshape(a: Any, shape: Any, order: str = "C", *, copy: bool | None = None,
            out_sharding: Any = None) -> Any:
    """``a`` with a new ``shape`` (one size may be -1); ``order='F'`` reads and writes column-major."""
    del copy  # arrays are immutable
    check_arraylike("reshape", a)
    if isinstance(a, (np.ndarray, np.generic)) and out_sharding is None:
        # JAX forwards NumPy values to their own reshape method: a NumPy result, with NumPy's errors
        return a.reshape(shape, order=order)
    _check_order(order)
    a_shape = _shape(a)
    new_shape = _resolve_shape(a_shape, _reshape_sizes(shape))
    if order == "F":
        ndim = len(a_shape)
        sharding = checked_out_sharding(out_sharding, "jnp.reshape")
        if sharding is not None:  # JAX reverses the entries given, to lay out the reversed shape
            sharding = NamedSharding(sharding.mesh, PartitionSpec(*reversed(tuple(sharding.spec)),
                                                                  unreduced=sharding.spec.unreduced,
                                                                  reduced=sharding.spec.reduced))
        flipped = lax_structural.reshape(a, new_shape[::-1], dimensions=tuple(range(ndim - 1, -1, -1)),
                                         out_sharding=sharding)
        return as_array(lax_structural.transpose(flipped, tuple(range(len(new_shape) - 1, -1, -1))))
    return as_array(lax_structural.reshape(a, new_shape, out_sharding=out_sharding))


def _check_order(order: str) -> None:
    """JAX's errors for memory orders other than ``'C'`` and ``'F'``."""
    if order == "A":
        raise NotImplementedError("np.reshape order=A is not implemented.")
    if order not in ("C", "F"):
        raise ValueError(f"Unexpected value for 'order' argument: {order}.")


@compiled_when_eager(static_argnames=("order", "out_sharding"))
def ravel(a: Any, order: str = "C", *, out_sharding: Any = None) -> Any:
    """``a`` flattened to one dimension, in row-major (``'C'``) or column-major (``'F'``) order (laid out as
    ``out_sharding`` over a mesh of Explicit axes when given)."""
    check_arraylike("ravel", a)
    checked_out_sharding(out_sharding, "reshape", located=False)  # as JAX's, in a jitted function of its own
    if order == "K":
        raise NotImplementedError("Ravel not implemented for order='K'.")
    _check_order(order)
    shape = _shape(a)
    if len(shape) == 1:
        return passed_through(a)  # JAX's ravel is jitted: never its operand
    dimensions = tuple(range(len(shape) - 1, -1, -1)) if order == "F" else None
    return as_array(lax_structural.reshape(a, (math.prod(shape),), dimensions=dimensions, out_sharding=out_sharding))


def transpose(a: Any, axes: Sequence[int] | None = None) -> Any:
    """``a`` with its axes permuted by ``axes`` (reversed by default)."""
    a = ensure_arraylike("transpose", a)
    ndim = _ndim(a)
    if axes is None:
        permutation = tuple(range(ndim - 1, -1, -1))
    else:
        permutation = tuple(_axis(i, ndim) for i in axes)
    return as_array(lax_structural.transpose(a, permutation))


def permute_dims(a: Any, /, axes: tuple[int, ...]) -> Any:
    """The array API's name for ``transpose`` with explicit ``axes``."""
    a = ensure_arraylike("permute_dims", a)
    ndim = _ndim(a)
    return as_array(lax_structural.transpose(a, tuple(_axis(i, ndim) for i in axes)))


def matrix_transpose(x: Any, /) -> Any:
    """``x`` with its last two axes swapped."""
    x = ensure_arraylike("matrix_transpose", x)
    ndim = _ndim(x)
    if ndim < 2:
        raise ValueError(f"x must be at least two-dimensional for matrix_transpose; got ndim={ndim}")
    return as_array(lax_structural.transpose(x, tuple(range(ndim - 2)) + (ndim - 1, ndim - 2)))


def moveaxis(a: Any, source: int | Sequence[int], destination: int | Sequence[int]) -> Any:
    """``a`` with the axes ``source`` moved to positions ``destination``, the others keeping their order."""
    return _moveaxis(ensure_arraylike("moveaxis", a), source, destination)


@compiled_when_eager(static_argnames=("source", "destination"))
def _moveaxis(a: Any, source: int | Sequence[int], destination: int | Sequence[int]) -> Any:
    # run eagerly as JAX's jitted moveaxis (moving nothing gives a new array, named by its type)
    ndim = _ndim(a)
    source = tuple(_axis(i, ndim) for i in _index_tuple(source))
    destination = tuple(_axis(i, ndim) for i in _index_tuple(destination))
    if len(source) != len(destination):
        raise ValueError(f"Inconsistent number of elements: {len(source)} vs {len(destination)}")
    permutation = [i for i in range(ndim) if i not in source]
    for dest, src in sorted(zip(destination, source)):
        permutation.insert(dest, src)
    return as_array(lax_structural.transpose(a, tuple(permutation)))


@named_jit("rollaxis", ("axis", "start"))
def rollaxis(a: Any, axis: int, start: int = 0) -> Any:
    """``a`` with ``axis`` moved to just before position ``start``."""
    check_arraylike("rollaxis", a)
    ndim = _ndim(a)
    axis = _axis(axis, ndim)
    if not -ndim <= start <= ndim:
        raise ValueError(f"start={start} must satisfy {-ndim}<=start<={ndim}")
    if start < 0:
        start += ndim
    if axis < start:
        start -= 1
    if axis == start:
        return a
    return moveaxis(a, axis, start)


@compiled_when_eager(static_argnames=("axis1", "axis2"))
def swapaxes(a: Any, axis1: int, axis2: int) -> Any:
    """``a`` with axes ``axis1`` and ``axis2`` exchanged."""
    # run eagerly as JAX's jitted swapaxes: never its operand, and one on other devices named by its parameter
    require_hashable(axis1)  # static arguments of JAX's jitted swapaxes, checked first
    require_hashable(axis2)
    check_arraylike("swapaxes", a)
    permutation = np.arange(_ndim(a))
    # NumPy's indexing gives JAX's IndexError for an axis out of bounds
    permutation[axis1], permutation[axis2] = permutation[axis2], permutation[axis1]
    return as_array(lax_structural.transpose(a, tuple(int(i) for i in permutation)))


def expand_dims(a: Any, axis: int | Sequence[int]) -> Any:
    """``a`` with size-1 dimensions inserted at the positions ``axis`` of the result."""
    check_scalar_arraylike("expand_dims", a)
    return as_array(lax_structural.expand_dims(a, _index_tuple(axis)))


def squeeze(a: Any, axis: int | Sequence[int] | None = None) -> Any:
    """``a`` without its size-1 dimensions (all of them, or those named by ``axis``)."""
    return _squeeze(ensure_arraylike("squeeze", a), axis)


@compiled_when_eager(static_argnames=("axis",))
def _squeeze(a: Any, axis: int | Sequence[int] | None = None) -> Any:
    # run eagerly as JAX's jitted squeeze (a result with nothing to squeeze is a new array, named by its type)
    shape = _shape(a)
    if axis is None:
        dimensions = tuple(i for i, d in enumerate(shape) if d == 1)
    else:
        dimensions = tuple(_axis(i, len(shape)) for i in _index_tuple(axis))
        if len(set(dimensions)) != len(dimensions):
            raise ValueError(f"dimensions are not unique: {dimensions}")
    if not dimensions:  # nothing to squeeze: the operand itself, as JAX's (a Python scalar stays a literal)
        return as_array(a)
    return as_array(lax_structural.squeeze(a, dimensions))


# ---------------------------------------------------------------- broadcasting


def _shape_of_sizes(shape: Any) -> tuple:
    """A shape argument (one size, a sequence of sizes or a 1-d array of them) as a tuple of its sizes."""
    if isinstance(shape, (Array, Tracer, np.ndarray)) and get_aval(shape).ndim:
        shape = tuple(np.asarray(shape))
    elif not isinstance(shape, (tuple, list)):
        shape = (shape,)
    return tuple(shape)


def broadcast_to(array: Any, shape: Any, *, out_sharding: Any = None) -> Any:
    """``array`` broadcast to ``shape`` by NumPy's rules (trailing dimensions aligned, size 1 stretching), laid out
    as ``out_sharding`` (over a mesh of Explicit axes) when given."""
    check_scalar_arraylike("broadcast_to", array)
    shape = canonicalize_shape(_shape_of_sizes(shape))
    if any(d < 0 for d in shape):
        aval = get_aval(ensure_array(array))
        lead = len(shape) - aval.ndim
        if lead >= 0 and all(a in (1, d) for a, d in zip(aval.shape, shape[lead:])):
            check_nonnegative("broadcast_in_dim", "shape", shape)  # sizes that fit: refused as JAX's broadcast
        raise ValueError(f"Incompatible types for broadcasting: input type={aval.str_short()} and requested type="
                         f"{aval.update(shape=shape, weak_type=False).str_short()}")
    sharding = resolve_out_sharding(out_sharding, "jnp.broadcast_to")
    if sharding is not None:
        array = ensure_array(array)
        aval = get_aval(array)
        if aval.shape == shape and typed_as(aval, sharding):
            return array  # already of that type: JAX's is the array itself
        _check_laid_out_broadcast(aval, shape, sharding)
        return as_array(lax_structural.broadcast_in_dim(array, shape, tuple(range(len(shape) - aval.ndim, len(shape))),
                                                        out_sharding=out_sharding))
    return as_array(lax_structural.broadcast_like(array, _shaped_like(shape)))


def _check_laid_out_broadcast(aval: Any, shape: tuple[int, ...], sharding: NamedSharding) -> None:
    """JAX's errors for broadcasting a value of ``aval`` to ``shape`` laid out as ``sharding``: its dimensions must
    stretch by NumPy's rules and each keep its layout or be whole. JAX pairs the operand's entries with the spec's
    past the leading dimensions, and writes the requested type with the spec as given, failing in its own code (a
    ``ValueError`` from its ``safe_zip``) when the spec names more dimensions, or fewer where they do not fit."""
    if len(shape) < aval.ndim:
        raise ValueError(f"Cannot broadcast to shape with fewer dimensions: arr_shape={aval.shape} shape={shape}")
    lead = len(shape) - aval.ndim
    given = tuple(sharding.spec)
    if len(given) > len(shape):  # JAX pairs the operand's entries with those past the leading dimensions
        raise ValueError(f"safe_zip() argument 1 has length {len(given) - lead} but argument 0 has length "
                         f"{aval.ndim}. All lengths: ({aval.ndim}, {len(given) - lead})")
    wanted = (given + (None,) * len(shape))[lead:len(shape)]
    if all(size in (1, to) for size, to in zip(aval.shape, shape[lead:])) and all(
            own in (None, want) for own, want in zip(spec_of(aval), wanted)):
        return
    if len(given) != len(shape):
        raise ValueError(f"safe_zip() argument 1 has length {len(given)} but argument 0 has length {len(shape)}. "
                         f"All lengths: ({len(shape)}, {len(given)})")
    requested = aval.update(shape=shape, weak_type=False, sharding=sharding)
    raise ValueError(f"Incompatible types for broadcasting: input type={aval} and requested type={requested}")


def broadcast_shapes(*shapes: Any) -> tuple[int, ...]:
    """The shape that arrays of ``shapes`` broadcast to."""
    if not shapes:
        return ()
    return lax_structural.broadcast_shapes(*(_shape_of_sizes(s) for s in shapes))


def broadcast_arrays(*args: Any) -> list[Any]:
    """``args`` broadcast to their common shape."""
    check_scalar_arraylike("broadcast_arrays", *args)
    return _broadcast_arrays(*map(eager_array, args)) if args else []


@compiled_when_eager
def _broadcast_arrays(*args: Any) -> list[Any]:
    # run eagerly as JAX's jitted function of this name: an operand already of the shape is a new array, and one
    # on other devices is named by its position (``args[i]``)
    shape = lax_structural.broadcast_shapes(*(_shape(a) for a in args))
    return [as_array(broadcast_to(a, shape)) for a in args]


def _atleast_nd_body(name: str, rank: int, placement: Callable[[int], tuple[int, ...]]) -> Any:
    """The jitted ``atleast_{rank}d``: each argument of lower rank gets size-1 dimensions around its own."""
    @named_jit(name)
    def staged(*arys):
        out = []
        for a in arys:
            shape = get_aval(a).shape
            if len(shape) < rank:
                dims = placement(len(shape))
                new_shape = [1] * rank
                for d, size in zip(dims, shape):
                    new_shape[d] = size
                a = lax_structural.broadcast_in_dim(a, tuple(new_shape), dims)
            out.append(a)
        return out[0] if len(out) == 1 else out

    def public(*arys: Any) -> Any:
        check_arraylike(name, *arys)
        if not arys:
            return []
        return staged(*arys)

    public.__name__ = public.__qualname__ = name
    return public


atleast_1d = _atleast_nd_body("atleast_1d", 1, lambda ndim: tuple(range(ndim)))
atleast_1d.__doc__ = "Each argument with at least one dimension (a scalar becomes shape ``(1,)``)."
atleast_2d = _atleast_nd_body("atleast_2d", 2, lambda ndim: tuple(range(2 - ndim, 2)))
atleast_2d.__doc__ = "Each argument with at least two dimensions (new leading size-1 dimensions)."
# NumPy's atleast_3d puts a 1-d array in the middle (1, n, 1) and a 2-d one in front (m, n, 1).
atleast_3d = _atleast_nd_body("atleast_3d", 3, lambda ndim: (1,) if ndim == 1 else tuple(range(ndim)))
atleast_3d.__doc__ = "Each argument with at least three dimensions, placed as NumPy places them."


# ---------------------------------------------------------------- joining


def _converted(arrays: Sequence[Any], dtype: Any, requested_in: str) -> list[Any]:
    """``arrays`` in their common dtype, or in ``dtype`` (strongly typed) when one is given."""
    dt = requested_dtype(dtype, requested_in)
    if dt is None:
        return promote_dtypes(*arrays)
    return [lax_structural.convert_element_type(a, dt) for a in arrays]


def _concatenate_array(array: Any, axis: int | None, dtype: Any) -> Any:
    """The concatenation of the sub-arrays of one array along its first axis: one reshape."""
    shape = _shape(array)
    if axis is None:
        return ravel(array if dtype is None else astype(array, dtype))
    if len(shape) < 2:
        raise ValueError("Zero-dimensional arrays cannot be concatenated.")
    axis = _axis(axis, len(shape) - 1)
    if dtype is not None:
        array = astype(array, dtype)
    dimensions = tuple(range(1, axis + 1)) + (0,) + tuple(range(axis + 1, len(shape)))
    new_shape = list(shape[1:])
    new_shape[axis] *= shape[0]
    if dimensions == tuple(range(len(shape))):
        dimensions = None
    return as_array(lax_structural.reshape(array, tuple(new_shape), dimensions=dimensions))


def concatenate(arrays: Any, axis: int | None = 0, dtype: Any = None) -> Any:
    """The arrays joined along an existing ``axis`` (flattened first when ``axis`` is None)."""
    if _is_array_object(arrays):
        return _concatenate_array(arrays, axis, dtype)
    if not isinstance(arrays, Sequence) or not arrays:  # JAX takes no arrays from an iterator either
        raise ValueError("Need at least one array to concatenate.")
    check_scalar_arraylike("concatenate", *arrays)
    if axis is None:
        return concatenate([ravel(a) for a in arrays], 0, dtype=dtype)
    ndim = _ndim(arrays[0])
    if ndim == 0:
        raise ValueError("Zero-dimensional arrays cannot be concatenated.")
    axis = _axis(axis, ndim)
    arrays = _converted(arrays, dtype, "concatenate")
    if len(arrays) == 1:
        return as_array(arrays[0])
    return as_array(lax_structural.concatenate(arrays, axis))


def concat(arrays: Sequence[Any], /, *, axis: int | None = 0) -> Any:
    """The array API's ``concatenate``."""
    return concatenate(arrays, axis=axis)


def stack(arrays: Any, axis: int = 0, out: None = None, dtype: Any = None) -> Any:
    """The arrays (all of one shape) joined along a new ``axis``."""
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.stack is not supported.")
    if _is_array_object(arrays):
        axis = _axis(axis, _ndim(arrays))
        return concatenate(expand_dims(arrays, axis + 1), axis=axis, dtype=dtype)
    if not len(arrays):
        raise ValueError("Need at least one array to stack.")
    check_scalar_arraylike("stack", *arrays)
    arrays = [eager_array(a) for a in arrays]
    axis = _axis(axis, _ndim(arrays[0]) + 1)
    return as_array(lax_structural.stack(_converted(arrays, dtype, "stack"), axis))


def hstack(tup: Any, dtype: Any = None) -> Any:
    """The arrays joined along their second axis (the first for one-dimensional arrays)."""
    if _is_array_object(tup):
        arrays = vmap(atleast_1d)(tup)
        return concatenate(arrays, axis=0 if _ndim(arrays) == 2 else 1, dtype=dtype)
    check_arraylike("hstack", *tup)
    arrays = [atleast_1d(a) for a in tup]
    return concatenate(arrays, axis=0 if _ndim(arrays[0]) == 1 else 1, dtype=dtype)


def vstack(tup: Any, dtype: Any = None) -> Any:
    """The arrays, made at least two-dimensional, joined along their first axis."""
    if _is_array_object(tup):
        return concatenate(vmap(atleast_2d)(tup), axis=0, dtype=dtype)
    check_arraylike("vstack", *tup)
    return concatenate([atleast_2d(a) for a in tup], axis=0, dtype=dtype)


def dstack(tup: Any, dtype: Any = None) -> Any:
    """The arrays, made at least three-dimensional, joined along their third axis."""
    if _is_array_object(tup):
        return concatenate(vmap(atleast_3d)(tup), axis=2, dtype=dtype)
    check_arraylike("dstack", *tup)
    return concatenate([atleast_3d(a) for a in tup], axis=2, dtype=dtype)


def _as_column(a: Any) -> Any:
    return transpose(atleast_2d(a)) if _ndim(a) < 2 else a


def column_stack(tup: Any) -> Any:
    """The arrays as columns: one-dimensional ones become columns, two-dimensional ones are joined as they are."""
    if _is_array_object(tup):
        return concatenate(vmap(_as_column)(tup) if _ndim(tup) < 3 else tup, axis=1)
    check_arraylike("column_stack", *tup)
    return concatenate([_as_column(a) for a in tup], axis=1)


def _block_depth(arrays: Any) -> int:
    """The list depth of ``arrays`` (0 for an array), JAX's errors for tuples, empty lists and ragged depths."""
    if isinstance(arrays, tuple):
        raise ValueError(f"jax.numpy.block does not allow tuples, got {arrays}")
    if not isinstance(arrays, list):
        return 0
    if not arrays:
        raise ValueError("jax.numpy.block does not allow empty list arguments")
    depths = {_block_depth(a) for a in arrays}
    if len(depths) != 1:
        raise ValueError("Mismatched list depths in jax.numpy.block")
    return depths.pop() + 1


def _block_concatenate(arrays: Any, depth: int) -> Any:
    """The blocks of a list of depth ``depth`` joined along axis ``-depth``, each first raised to the rank of the
    result by leading size-1 dimensions."""
    if not isinstance(arrays, list):
        return arrays
    parts = [_block_concatenate(a, depth - 1) for a in arrays]
    ndim = max(depth, *(get_aval(p).ndim for p in parts))
    parts = [lax_structural.broadcast_to_rank(p, ndim) for p in parts]
    return concatenate(parts, axis=ndim - depth)


@named_jit("block")
def _block(arrays: Any) -> Any:
    return _block_concatenate(arrays, _block_depth(arrays))


def block(arrays: Any) -> Any:
    """An array assembled from nested lists of blocks: the innermost lists are joined along the last axis."""
    return _block(arrays)


# ---------------------------------------------------------------- splitting


def _split(name: str, ary: Any, indices_or_sections: Any, axis: int) -> list[Any]:
    ary = ensure_arraylike(name, ary)
    size = _shape(ary)[axis]  # an axis out of bounds is JAX's IndexError
    if isinstance(indices_or_sections, Tracer):  # JAX's error names the first traced count or index
        context = f"in jax.numpy.{name} argument 1"
        indices_or_sections = (concrete_or_error(indices_or_sections, context) if indices_or_sections.ndim == 0
                               else [concrete_or_error(i, context) for i in indices_or_sections])
    given_ndim = _ndim(indices_or_sections) if _is_array_object(indices_or_sections) else np.ndim(indices_or_sections)
    if given_ndim == 0:
        # a number of sections (JAX truncates a float count); a traced count is JAX's TracerIntegerConversionError
        sections = (int(indices_or_sections) if isinstance(indices_or_sections, float)
                    else operator.index(indices_or_sections))
        part, rest = divmod(size, sections)
        if rest and name != "array_split":
            raise ValueError(f"array split does not result in an equal division: rest is {rest}")
        sizes = [np.int64(part + 1)] * rest + [np.int64(part)] * (sections - rest)
    else:
        indices = [operator.index(i) for i in indices_or_sections]
        bounds = [0] + indices + [size]
        sizes = [np.int64(hi - lo) for lo, hi in zip(bounds[:-1], bounds[1:])]
    return list(lax_structural.split(ary, sizes, axis))


def split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list[Any]:
    """``ary`` cut along ``axis`` into equal sections, or at the given indices."""
    return _split("split", ary, indices_or_sections, axis)


def array_split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list[Any]:
    """``split`` that allows sections of unequal length (the first ones one longer)."""
    return _split("array_split", ary, indices_or_sections, axis)


def hsplit(ary: Any, indices_or_sections: Any) -> list[Any]:
    """``split`` along the second axis (the first for one-dimensional arrays)."""
    return _split("hsplit", ary, indices_or_sections, 0 if _ndim(ary) == 1 else 1)


def vsplit(ary: Any, indices_or_sections: Any) -> list[Any]:
    """``split`` along the first axis."""
    return _split("vsplit", ary, indices_or_sections, 0)


def dsplit(ary: Any, indices_or_sections: Any) -> list[Any]:
    """``split`` along the third axis."""
    return _split("dsplit", ary, indices_or_sections, 2)


@compiled_when_eager(static_argnames=("axis",))
def unstack(x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
    """The slices of ``x`` along ``axis``, as a tuple."""
    require_hashable(axis)  # a static argument of JAX's jitted unstack, checked first
    check_arraylike("unstack", x)
    axis = _axis(axis, _ndim(x))
    return tuple(lax_structural.unstack(x, axis))


# ---------------------------------------------------------------- tiling


def tile(A: Any, reps: Any) -> Any:  # noqa: N803 - NumPy's argument name
    """``A`` repeated ``reps`` times along each axis."""
    A = ensure_arraylike("tile", A)
    reps = (reps,) if np.ndim(reps) == 0 else tuple(reps)
    shape = _shape(A)
    ndim = max(len(shape), len(reps))
    reps = (1,) * (ndim - len(reps)) + reps
    padded_shape = (1,) * (ndim - len(shape)) + shape
    canonicalize_shape(tuple(np.multiply(padded_shape, reps)) if reps else ())  # JAX's TypeError for float reps
    A = lax_structural.broadcast_to_rank(A, ndim)
    return as_array(lax_structural.tile(A, tuple(operator.index(r) for r in reps)))


# ---------------------------------------------------------------- repeating

def _repeat_each(a: Any, repeats: Any, axis: int) -> Any:
    """Each slice of ``a`` along ``axis`` repeated ``repeats`` times (one static count): a broadcast and a reshape."""
    shape = _shape(a)
    widened = shape[:axis + 1] + (repeats,) + shape[axis + 1:]
    kept = tuple(range(axis + 1)) + tuple(range(axis + 2, len(shape) + 1))
    broadcast = lax_structural.broadcast_in_dim(a, widened, kept)
    return lax_structural.reshape(broadcast, shape[:axis] + (shape[axis] * repeats,) + shape[axis + 1:])


def repeat(a: Any, repeats: Any, axis: int | None = None, *, total_repeat_length: int | None = None,
           out_sharding: Any = None) -> Any:
    """Each element (or slice along ``axis``) of ``a`` repeated ``repeats`` times; under ``jit`` array ``repeats``
    need a static ``total_repeat_length``. Over Explicit mesh axes, repeating along a split axis needs
    ``out_sharding``: the repeat is then computed replicated and laid out as asked, as JAX's."""
    check_arraylike("repeat", a, repeats)
    a = ensure_array(a)
    sharding = checked_out_sharding(out_sharding, "repeat")
    if axis is None:
        a, axis = ravel(a), 0
    else:
        axis = _axis(_index_tuple(axis, "'axis' argument of jnp.repeat()")[0], _ndim(a))
    layout = get_aval(a).explicit_sharding
    if out_sharding is None and layout is not None:
        if spec_of(get_aval(a))[axis] is not None:
            raise ValueError("Please pass sharding to `jnp.repeat` via `out_sharding` parameter.")
        out_sharding = layout  # the repeated axis is whole: the others keep their layout
    if out_sharding is None:
        return _repeat(a, repeats, axis, total_repeat_length)
    if layout is None and get_abstract_mesh().empty:  # computed on one device, outside any mesh
        out = _repeat(a, repeats, axis, total_repeat_length)
        if sharding is not None and explicit_mesh_of(sharding.mesh) is not None:
            raise no_context_mesh_error(typed_aval(get_aval(out), sharding))  # JAX's: it cannot be typed so there
        return out
    whole = PartitionSpec() if layout is None else NamedSharding(layout.mesh, PartitionSpec())
    return placement.reshard(_repeat(placement.reshard(a, whole), repeats, axis, total_repeat_length), out_sharding)


def _repeat(a: Any, repeats: Any, axis: int, total_repeat_length: int | None) -> Any:
    if total_repeat_length is None:
        value = concrete_or_error(repeats, "When jit-compiling jnp.repeat, the total number of repeats must be "
                                           "static. To fix this, either specify a static value for `repeats`, or "
                                           "pass a static value to `total_repeat_length`.")
        if value.ndim == 0:
            count = repeats if type(repeats) in (int, float) else value.item()  # a float count is JAX's TypeError
            return as_array(_repeat_each(a, count, axis))
        repeats = np.broadcast_to(np.ravel(value), (_shape(a)[axis],))
        total_repeat_length = int(repeats.sum())
        repeats = as_array(repeats)
    else:
        repeats = broadcast_to(ravel(repeats), (_shape(a)[axis],))
    if total_repeat_length == 0:
        shape = list(_shape(a))
        shape[axis] = 0
        return reshape(array([], dtype=get_aval(a).dtype), tuple(shape))
    # Each output position's source: a 1 where each block starts, summed up.
    exclusive_repeats = roll(repeats, 1).at[0].set(0)
    block_starts = cumsum(exclusive_repeats)
    block_split_indicators = zeros((total_repeat_length,), np.int32).at[block_starts].add(1)
    return take(a, cumsum(block_split_indicators) - 1, axis=axis)


# ---------------------------------------------------------------- flipping and rolling


@named_jit("_flip", ("axis",))
def _flip(m: Any, axis: int | tuple[int, ...] | None) -> Any:
    """``m`` reversed along ``axis`` as given (canonicalized inside, so that -1 and 0 trace apart, as JAX's)."""
    ndim = _ndim(m)
    axes = range(ndim) if axis is None else (_axis(i, ndim) for i in _index_tuple(axis))
    return lax_structural.rev(m, tuple(axes))


def flip(m: Any, axis: int | Sequence[int] | None = None) -> Any:
    """``m`` with the order of its elements reversed along ``axis`` (every axis by default)."""
    m = ensure_arraylike("flip", m)
    if axis is None:
        return _flip(m, None)
    axes = _index_tuple(axis, "The axis argument must be known statically.")
    return _flip(m, axes[0] if isinstance(axis, int) or np.ndim(axis) == 0 else axes)


def fliplr(m: Any) -> Any:
    """``m`` reversed along its second axis."""
    m = ensure_arraylike("fliplr", m)
    return _flip(m, 1)


def flipud(m: Any) -> Any:
    """``m`` reversed along its first axis."""
    m = ensure_arraylike("flipud", m)
    return _flip(m, 0)


@named_jit("rot90", ("k", "axes"))
def rot90(m: Any, k: int = 1, axes: tuple[int, int] = (0, 1)) -> Any:
    """``m`` rotated by ``k`` quarter turns in the plane of ``axes`` (from the first axis towards the second)."""
    check_arraylike("rot90", m)
    ndim = _ndim(m)
    if ndim < 2:
        raise ValueError(f"rot90 requires its first argument to have ndim at least two, but got first argument of "
                         f"shape {_shape(m)}, which has ndim {ndim}")
    ax1, ax2 = axes
    ax1, ax2 = _axis(ax1, ndim), _axis(ax2, ndim)
    if ax1 == ax2:
        raise ValueError("Axes must be different")
    k = k % 4
    if k == 0:
        return m
    if k == 2:
        return _flip(_flip(m, ax1), ax2)
    permutation = list(range(ndim))
    permutation[ax1], permutation[ax2] = permutation[ax2], permutation[ax1]
    if k == 1:
        return lax_structural.transpose(_flip(m, ax2), tuple(permutation))
    return _flip(lax_structural.transpose(m, tuple(permutation)), ax2)


@named_jit("_roll_static", ("shift", "axis"))
def _roll_static(a: Any, shift: tuple[int, ...], axis: tuple[int, ...]) -> Any:
    shape = get_aval(a).shape
    for s, ax in zip(shift, axis):
        size = shape[ax]
        if size == 0:
            continue
        start = (-s) % size
        a = lax_structural.concatenate([lax_slicing.slice_in_dim(a, start, size, axis=ax),
                                        lax_slicing.slice_in_dim(a, 0, start, axis=ax)], ax)
    return a


@named_jit("_roll_dynamic", ("axis",))
def _roll_dynamic(a: Any, shift: Any, axis: tuple[int, ...]) -> Any:
    shift_shape = get_aval(shift).shape
    if shift_shape != (len(axis),):
        shift = lax_structural.broadcast_like(shift, _shaped_like((len(axis),)))
    for i, ax in enumerate(axis):
        s = lax_structural.squeeze(lax_slicing.slice(shift, (i,), (i + 1,), (1,)), (0,))
        s = lax_structural.convert_element_type(s, np.int32)
        size = get_aval(a).shape[ax]
        s = remainder(s, lax_elementwise.max(np.int32(size), np.int32(1)))
        doubled = lax_structural.concatenate([a, a], ax)
        a = lax_slicing.dynamic_slice_in_dim(doubled, lax_elementwise.sub(np.int32(size), s), size, axis=ax)
    return a


def _roll_arguments(shift: Any, axis: Any) -> tuple[np.ndarray, np.ndarray]:
    """``shift`` and ``axis`` broadcast against each other as 1-d arrays, with JAX's errors."""
    axis_arr, shift_arr = np.broadcast_arrays(np.asarray(axis), np.asarray(shift))
    if shift_arr.ndim > 1:
        raise ValueError("'shift' and 'axis' arguments to roll must be scalars or 1D arrays")
    return np.atleast_1d(shift_arr), np.atleast_1d(axis_arr)


def roll(a: Any, shift: Any, axis: int | Sequence[int] | None = None) -> Any:
    """``a`` with its elements shifted cyclically by ``shift`` along ``axis`` (of the flattened array if None)."""
    check_scalar_arraylike("roll", a)
    if axis is None:
        return reshape(roll(ravel(a), shift, 0), _shape(a))
    ndim = _ndim(a)
    axis = _index_tuple(axis)
    shift_value = concrete_or_none(shift) if not isinstance(shift, (tuple, list)) else np.asarray(shift)
    if shift_value is None:
        shift_shape = get_aval(shift).shape
        _, axis_arr = _roll_arguments(np.zeros(shift_shape, np.int32), axis)
        axes = tuple(_axis(int(i), ndim) for i in axis_arr)
        return _roll_dynamic(a, shift, axes)
    shift_arr, axis_arr = _roll_arguments(shift_value, axis)
    axes = tuple(_axis(int(i), ndim) for i in axis_arr)
    return _roll_static(a, tuple(int(s) for s in shift_arr), axes)


# ---------------------------------------------------------------- padding

_PAD_KEYWORDS = {"constant": {"constant_values"}, "edge": set(), "linear_ramp": {"end_values"},
                 "maximum": {"stat_length"}, "mean": {"stat_length"}, "median": {"stat_length"},
                 "minimum": {"stat_length"}, "reflect": {"reflect_type"}, "symmetric": {"reflect_type"},
                 "wrap": set(), "empty": set()}
_STATISTICS = {"maximum": jnp_max, "minimum": jnp_min, "mean": mean, "median": median}


def _pad_pairs(value: Any, ndim: int, name: str) -> tuple[tuple[Any, Any], ...]:
    """A per-axis (before, after) argument of ``pad`` broadcast to ``ndim`` pairs, with JAX's shape error."""
    pairs = np.asarray(value)
    if pairs.shape not in ((ndim, 2), (1, 2), (2,), (1,), ()):
        raise ValueError(f"jnp.pad: {name} with nd={ndim} has unsupported shape {pairs.shape}. Valid shapes are "
                         f"({ndim}, 2), (1, 2), (2,), (1,), or ().")
    return tuple(tuple(row) for row in np.broadcast_to(pairs, (ndim, 2)))


def _is_empty_axis(x: Any, axis: int, widths: tuple[int, int], mode: str) -> bool:
    """Whether ``x`` has no elements along ``axis`` (nothing to pad from); JAX's error if padding is asked there."""
    if _shape(x)[axis]:
        return False
    if any(widths):
        raise ValueError(f"Cannot apply '{mode}' padding to empty axis")
    return True


def _pad_constant(x: Any, pad_width: tuple, constant_values: Any) -> Any:
    dtype = get_aval(x).dtype
    # converted as lax converts (complex values made real warn ComplexWarning), as JAX's
    values = lax_structural.convert_element_type(asarray(constant_values), dtype)
    if get_aval(values).ndim == 0:
        return lax_structural.pad(x, values, [(lo, hi, 0) for lo, hi in pad_width])
    ndim = len(pad_width)
    values = broadcast_to(values, (ndim, 2))
    for axis, widths in enumerate(pad_width):
        for side in (0, 1):
            config = [(0, 0, 0)] * ndim
            config[axis] = (widths[0], 0, 0) if side == 0 else (0, widths[1], 0)
            x = lax_structural.pad(x, values[axis, side], config)
    return x


def _pad_edge(x: Any, pad_width: tuple) -> Any:
    for axis, (before, after) in enumerate(pad_width):
        if _is_empty_axis(x, axis, (before, after), "edge"):
            continue
        size = _shape(x)[axis]
        left = _repeat_each(lax_slicing.slice_in_dim(x, 0, 1, axis=axis), before, axis)
        right = _repeat_each(lax_slicing.slice_in_dim(x, size - 1, size, axis=axis), after, axis)
        x = lax_structural.concatenate([left, x, right], axis)
    return x


def _pad_wrap(x: Any, pad_width: tuple) -> Any:
    for axis, (before, after) in enumerate(pad_width):
        if _is_empty_axis(x, axis, (before, after), "wrap"):
            continue
        size = _shape(x)[axis]
        parts = [x] * (before // size) + [x] + [x] * (after // size)
        if before % size:
            parts.insert(0, lax_slicing.slice_in_dim(x, size - before % size, size, axis=axis))
        if after % size:
            parts.append(lax_slicing.slice_in_dim(x, 0, after % size, axis=axis))
        x = lax_structural.concatenate(parts, axis)
    return x


def _pad_empty(x: Any, pad_width: tuple) -> Any:
    for axis, (before, after) in enumerate(pad_width):
        shape = list(_shape(x))
        shape[axis] = before
        left = empty(tuple(shape), get_aval(x).dtype)
        shape[axis] = after
        right = empty(tuple(shape), get_aval(x).dtype)
        x = lax_structural.concatenate([left, x, right], axis)
    return x


def _pad_statistic(x: Any, pad_width: tuple, mode: str, stat_length: tuple | None) -> Any:
    dtype = get_aval(x).dtype
    for axis, (before, after) in enumerate(pad_width):
        size = _shape(x)[axis]
        statistic = _STATISTICS[mode]
        if stat_length is None:
            stat_before = stat_after = statistic(x, axis=axis, keepdims=True)
        else:
            # x[:n] and x[-n:], with Python's slicing rules for lengths out of range, as JAX's indexing has them
            length_before, length_after = (int(n) for n in stat_length[axis])
            slice_before = lax_slicing.slice_in_dim(x, *slice(None, length_before).indices(size)[:2], axis=axis)
            slice_after = lax_slicing.slice_in_dim(x, *slice(-length_after, None).indices(size)[:2], axis=axis)
            stat_before = statistic(slice_before, axis=axis, keepdims=True)
            stat_after = statistic(slice_after, axis=axis, keepdims=True)
        if mode in ("mean", "median") and not dtypes.issubdtype(dtype, np.inexact):
            # integer means are rounded to the nearest value (ties to even), as NumPy's pad does
            stat_before, stat_after = jnp_round(stat_before), jnp_round(stat_after)
            stat_before, stat_after = astype(stat_before, dtype), astype(stat_after, dtype)
        x = lax_structural.concatenate([_repeat_each(stat_before, before, axis), x,
                                        _repeat_each(stat_after, after, axis)], axis)
    return x


def _pad_reflect(x: Any, pad_width: tuple, mode: str, reflect_type: str) -> Any:
    odd = reflect_type == "odd"
    for axis, (before, after) in enumerate(pad_width):
        if _is_empty_axis(x, axis, (before, after), mode) or before == after == 0:  # JAX leaves such axes alone
            continue
        size = _shape(x)[axis]
        # reflect mirrors around the edge element, symmetric includes it (a single element is always included)
        offset = 1 if mode == "reflect" and size > 1 else 0
        edge = lax_slicing.slice_in_dim(x, 0, 1, axis=axis)
        while before > 0:
            chunk = min(before, size - offset)
            piece = _flip(lax_slicing.slice_in_dim(x, offset, offset + chunk, axis=axis), axis)
            if odd:
                piece = 2 * edge - piece
                edge = lax_slicing.slice_in_dim(piece, 0, 1, axis=axis)
            x = lax_structural.concatenate([piece, x], axis)
            before -= chunk
        length = _shape(x)[axis]
        edge = lax_slicing.slice_in_dim(x, length - 1, length, axis=axis)
        while after > 0:
            chunk = min(after, size - offset)
            length = _shape(x)[axis]
            start = length - offset - chunk
            piece = _flip(lax_slicing.slice_in_dim(x, start, start + chunk, axis=axis), axis)
            if odd:
                piece = 2 * edge - piece
                edge = lax_slicing.slice_in_dim(piece, chunk - 1, chunk, axis=axis)
            x = lax_structural.concatenate([x, piece], axis)
            after -= chunk
    return x


def _pad_linear_ramp(x: Any, pad_width: tuple, end_values: tuple) -> Any:
    dtype = get_aval(x).dtype
    for axis, (before, after) in enumerate(pad_width):
        size = _shape(x)[axis]
        edge_before = lax_slicing.slice_in_dim(x, 0, 1, axis=axis)
        edge_after = lax_slicing.slice_in_dim(x, size - 1, size, axis=axis)
        end_before, end_after = end_values[axis]
        ramp_before = linspace(end_before, lax_structural.squeeze(edge_before, (axis,)), int(before),
                               endpoint=False, dtype=dtype, axis=axis)
        ramp_after = linspace(end_after, lax_structural.squeeze(edge_after, (axis,)), int(after),
                              endpoint=False, dtype=dtype, axis=axis)
        x = lax_structural.concatenate([ramp_before, x, _flip(ramp_after, axis)], axis)
    return x


@named_jit("_pad", ("pad_width", "mode", "stat_length", "end_values", "reflect_type"))
def _pad(array: Any, pad_width: tuple, mode: str, constant_values: Any, stat_length: tuple | None,
         end_values: tuple, reflect_type: str) -> Any:
    if not pad_width:
        return array
    if mode == "constant":
        return _pad_constant(array, pad_width, constant_values)
    if mode == "edge":
        return _pad_edge(array, pad_width)
    if mode == "wrap":
        return _pad_wrap(array, pad_width)
    if mode == "empty":
        return _pad_empty(array, pad_width)
    if mode in _STATISTICS:
        return _pad_statistic(array, pad_width, mode, stat_length)
    if mode in ("reflect", "symmetric"):
        return _pad_reflect(array, pad_width, mode, reflect_type)
    return _pad_linear_ramp(array, pad_width, end_values)


def _pad_with_function(array: Any, pad_width: tuple, function: Callable, kwargs: dict) -> Any:
    """NumPy's callable padding: zeros around ``array``, then ``function(vector, widths, axis, kwargs)`` applied to
    each 1-d slice along each axis in turn."""
    dtype = get_aval(array).dtype
    padded = lax_structural.pad(array, np.zeros((), dtype)[()], [(lo, hi, 0) for lo, hi in pad_width])
    for axis, widths in enumerate(pad_width):
        padded = apply_along_axis(function, axis, padded, widths, axis, kwargs)
    return padded


def pad(array: Any, pad_width: Any, mode: str | Callable[..., Any] = "constant", **kwargs: Any) -> Any:
    """``array`` padded by ``pad_width`` (per axis: before, after) with values chosen by ``mode``, as ``numpy.pad``."""
    array = ensure_arraylike("pad", array)
    ndim = _ndim(array)
    widths = concrete_or_error(pad_width, "pad_width argument of jnp.pad")
    if not dtypes.issubdtype(widths.dtype, np.integer):
        raise TypeError("`pad_width` must be of integral type.")
    pad_width = _pad_pairs(widths, ndim, "pad_width")
    if any(w < 0 for pair in pad_width for w in pair):
        raise ValueError("index can't contain negative values")
    if callable(mode):
        return _pad_with_function(as_array(array), pad_width, mode, kwargs)
    allowed = _PAD_KEYWORDS.get(mode)
    if allowed is None:
        raise NotImplementedError(f"Unimplemented padding mode '{mode}' for np.pad.")
    unsupported = set(kwargs) - allowed
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unsupported}")
    for static in ("stat_length", "end_values"):  # static arguments of JAX's jitted padding
        require_hashable(kwargs.get(static))
    stat_length = kwargs.get("stat_length")
    if stat_length is not None:
        stat_length = _pad_pairs(stat_length, ndim, "stat_length")
        if any(n == 0 for pair in stat_length for n in pair):
            raise ValueError("stat_length of 0 yields no value for padding")
        stat_length = tuple((int(lo), int(hi)) for lo, hi in stat_length)
    # NumPy scalars (strongly typed, as JAX reads them), hashable as static arguments
    end_values = _pad_pairs(kwargs.get("end_values", 0), ndim, "end_values")
    reflect_type = kwargs.get("reflect_type", "even")
    if reflect_type not in ("even", "odd"):
        raise ValueError(f"jnp.pad: reflect_type must be 'even' or 'odd'; got {reflect_type}")
    return _pad(array, pad_width, mode, kwargs.get("constant_values", 0), stat_length, end_values, reflect_type)


# ---------------------------------------------------------------- resizing, appending, trimming


@named_jit("resize", ("new_shape",))
def resize(a: Any, new_shape: Any) -> Any:
    """``a`` flattened, repeated as often as needed and cut to fill ``new_shape``."""
    check_arraylike("resize", a)
    new_shape = _index_tuple(new_shape)
    if any(d < 0 for d in new_shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    flat = ravel(a)
    size, new_size = _shape(flat)[0], math.prod(new_shape)
    if size == 0 or new_size == 0:
        aval = get_aval(a)
        zero = np.zeros((), aval.dtype)[()]
        return lax_structural.broadcast_in_dim(lax_structural.convert_keeping_weak_type(zero, aval.dtype,
                                                                                        aval.weak_type),
                                               new_shape, ())
    repeated = lax_structural.tile(flat, (-(-new_size // size),))
    if _shape(repeated)[0] != new_size:
        repeated = lax_slicing.slice(repeated, (0,), (new_size,))
    return lax_structural.reshape(repeated, new_shape)


@named_jit("append", ("axis",))
def append(arr: Any, values: Any, axis: int | None = None) -> Any:
    """``values`` appended to ``arr`` along ``axis`` (both flattened when ``axis`` is None)."""
    if axis is None:
        return concatenate([ravel(arr), ravel(values)], 0)
    return concatenate([arr, values], axis)


def trim_zeros(filt: Any, trim: str = "fb", axis: int | Sequence[int] | None = None) -> Any:
    """``filt`` without its leading (``'f'``) and/or trailing (``'b'``) zeros along ``axis`` (every axis)."""
    check_arraylike("trim_zeros", filt)
    context = "Error arose in the `filt` argument of trim_zeros()"
    if isinstance(filt, Tracer):
        concrete_or_error(filt, context)
    shape = np.shape(filt)
    if not shape:
        return as_array(filt)
    axes = range(len(shape)) if axis is None else [_axis(i, len(shape)) for i in _index_tuple(axis)]
    starts, limits = [0] * len(shape), list(shape)
    trim = trim.lower()
    for ax in axes:
        # the slices along ``ax`` holding a nonzero element, by jnp.any as JAX's (which names an operand on other
        # devices by that call)
        others = tuple(i for i in range(len(shape)) if i != ax)
        along = np.flatnonzero(concrete_or_error(jnp_any(filt, axis=others), context))
        if along.size == 0:
            starts[ax] = limits[ax] = 0
            continue
        if "f" in trim:
            starts[ax] = int(along[0])
        if "b" in trim:
            limits[ax] = int(along[-1]) + 1
    return as_array(lax_slicing.slice(filt, tuple(starts), tuple(limits)))


# ---------------------------------------------------------------- inserting and deleting


def _along(axis: int, index: Any) -> tuple:
    """The index selecting ``index`` along ``axis`` (every element along the axes before it)."""
    return (slice(None),) * axis + (index,)


def _delete_unique(a: Any, indices: Any, axis: int) -> Any:
    """``a`` without the slices at ``indices`` along ``axis``, assuming no index repeats: the kept positions are
    counted past the sorted deleted ones, so traced indices work."""
    size = _shape(a)[axis]
    indices = where(indices < 0, indices + size, indices)
    indices = sort(clip(indices, 0, size))
    count = _shape(indices)[0]
    index_dtype = dtypes.default_int_dtype()
    indices = indices - lax_structural.iota(index_dtype, count)
    kept = lax_structural.iota(index_dtype, size - count)
    passed = expand_dims(kept, 0) >= expand_dims(indices, 1)
    return getitem(a, _along(axis, kept + jnp_sum(passed, axis=0)))


def delete(arr: Any, obj: Any, axis: int | None = None, *, assume_unique_indices: bool = False) -> Any:
    """``arr`` without the entries (slices along ``axis``) at ``obj``: an index, a slice, an integer array or a
    boolean mask; traced index arrays need ``assume_unique_indices=True``."""
    check_scalar_arraylike("delete", arr, *(() if isinstance(obj, slice) else (obj,)))
    if axis is None:
        arr, axis = ravel(arr), 0
    a = as_array(arr)
    ndim = _ndim(a)
    axis = _axis(axis, ndim)
    size = _shape(a)[axis]
    if isinstance(obj, slice):
        return _delete_unique(a, getitem(lax_structural.iota(dtypes.default_int_dtype(), size), obj), axis)
    try:
        index = operator.index(obj)
    except TypeError:
        pass
    else:
        index = canonicalize_axis(index, size)  # JAX words an index out of range as an axis out of bounds
        starts, limits = [0] * ndim, list(_shape(a))
        limits[axis] = index
        before = lax_slicing.slice(a, tuple(starts), tuple(limits))
        starts[axis], limits[axis] = index + 1, size
        return concatenate([before, lax_slicing.slice(a, tuple(starts), tuple(limits))], axis=axis)
    obj_dtype = obj.dtype if _is_array_object(obj) or isinstance(obj, np.generic) else np.asarray(obj).dtype
    if not (dtypes.issubdtype(obj_dtype, np.integer) or obj_dtype == np.bool_):
        raise ValueError(f"np.delete(arr, obj): got obj.dtype={obj_dtype}; must be integer or bool.")
    if assume_unique_indices and obj_dtype != np.bool_:
        return _delete_unique(a, ravel(obj), axis)
    value = concrete_or_error(obj, "'obj' array argument of jnp.delete()")
    if value.dtype != np.bool_:
        keep = np.ones(size, np.bool_)
        keep[value] = False  # NumPy's IndexError for an index out of bounds
    elif value.shape != (size,):
        raise ValueError("np.delete(arr, obj): for boolean indices, obj must be one-dimensional with length "
                         "matching specified axis.")
    else:
        keep = ~value
    return getitem(a, _along(axis, keep))


def insert(arr: Any, obj: Any, values: Any, axis: int | None = None) -> Any:
    """``arr`` with ``values`` inserted before the entries (slices along ``axis``) at ``obj``: an index, a slice
    or an integer array (traced ones too)."""
    check_scalar_arraylike("insert", arr, 0 if isinstance(obj, slice) else obj, values)
    a = as_array(arr)
    if axis is None:
        a, axis = ravel(a), 0
    axis = _axis(axis, _ndim(a))
    size = _shape(a)[axis]
    if isinstance(obj, slice):
        indices = arange(*obj.indices(size))
    else:
        indices = asarray(obj)
    indices_aval = get_aval(indices)
    if indices_aval.ndim > 1:
        raise ValueError(f"jnp.insert(): obj must be a slice, a one-dimensional array, or a scalar; got {obj}")
    if not dtypes.issubdtype(indices_aval.dtype, np.integer):
        if indices_aval.size == 0 and not isinstance(obj, (Array, Tracer)):
            indices = astype(indices, dtypes.default_int_dtype())
        else:
            raise ValueError(f"jnp.insert(): index array must be integer typed; got {obj}")
    # made an array first, as JAX's: a complex value then converts to a real array's dtype with ComplexWarning
    values = array(as_array(values), ndmin=_ndim(a), dtype=get_aval(a).dtype, copy=False)
    if get_aval(indices).size == 1:
        index = getitem(ravel(indices), 0)
        if indices_aval.ndim == 0:
            values = moveaxis(values, 0, axis)
        indices = full(_shape(values)[axis], index)
    n_insert = lax_structural.broadcast_shapes(_shape(indices), (_shape(values)[axis],))[0]
    out_shape = list(_shape(a))
    out_shape[axis] += n_insert
    out = zeros_like(a, shape=tuple(out_shape))
    indices = where(indices < 0, indices + size, indices)
    indices = clip(indices, 0, size)
    # Each inserted value lands after the values inserted before it; the array's entries fill the rest.
    values_positions = indices.at[argsort(indices)].add(arange(n_insert, dtype=get_aval(indices).dtype))
    array_mask = ones(size + n_insert, dtype=np.bool_).at[values_positions].set(False)
    array_positions = nonzero(array_mask, size=size)[0]
    out = out.at[_along(axis, values_positions)].set(values)
    return out.at[_along(axis, array_positions)].set(a)


# ---------------------------------------------------------------- diagonal, astype


def _in_bounds_index(index: Any, size: int) -> Any:
    """``index`` with negative entries counted from the end, as ``x[index]`` prepares indices."""
    return lax_structural.select_n(index < 0, index, index + size)


@named_jit("diagonal", ("offset", "axis1", "axis2"))
def diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
    """The ``offset`` diagonal of the planes spanned by ``axis1`` and ``axis2``, as the last axis."""
    check_arraylike("diagonal", a)
    ndim = _ndim(a)
    if ndim < 2:
        raise ValueError("diagonal requires an array of at least two dimensions.")
    shape, dtype = _shape(a), get_aval(a).dtype
    if ndim == 2 and offset == 0 and shape[0] == shape[1] and dtype != np.bool_:
        # As JAX's: the main diagonal of a square matrix is a masked sum for Mosaic (TPU kernels), which cannot
        # gather; every other platform takes the gather.
        index_dtype = dtypes.default_int_dtype()
        rows = lax_structural.broadcasted_iota(index_dtype, shape, 0)
        cols = lax_structural.broadcasted_iota(index_dtype, shape, 1)
        mask = lax_structural.convert_element_type(lax_elementwise.eq(lax_elementwise.add(rows, offset), cols), dtype)
        return platform_dependent(mask, a, mosaic=_masked_main_diagonal,
                                  default=lambda _, a: _gathered_diagonal(a, offset, axis1, axis2))
    return _gathered_diagonal(a, offset, axis1, axis2)


def _masked_main_diagonal(mask: Any, a: Any) -> Any:
    return lax_reductions.reduce_sum(lax_elementwise.mul(mask, a), (0,))


def _gathered_diagonal(a: Any, offset: int, axis1: int, axis2: int) -> Any:
    ndim = _ndim(a)
    a = moveaxis(a, (_axis(axis1, ndim), _axis(axis2, ndim)), (-2, -1))
    shape = _shape(a)
    n, m = shape[-2:]
    length = max(0, min(n + min(offset, 0), m - max(offset, 0)))
    index_dtype = dtypes.default_int_dtype()
    i = lax_structural.iota(index_dtype, length)
    j = lax_structural.iota(index_dtype, length)
    if offset > 0:
        rows, cols = i, lax_elementwise.add(np.asarray(offset, index_dtype)[()], j)
    elif offset < 0:
        rows, cols = lax_elementwise.add(np.asarray(-offset, index_dtype)[()], j), i
    else:
        rows, cols = i, j
    # normalized, then made int32 (gather's index type), as x[rows, cols] stages them
    rows, cols = _in_bounds_index(rows, n), _in_bounds_index(cols, m)
    rows, cols = (lax_structural.convert_element_type(i, np.int32) for i in (rows, cols))
    indices = lax_structural.concatenate([lax_structural.broadcast_in_dim(rows, (length, 1), (0,)),
                                          lax_structural.broadcast_in_dim(cols, (length, 1), (0,))], 1)
    batch = tuple(range(ndim - 2))
    dimension_numbers = lax_slicing.GatherDimensionNumbers(offset_dims=batch, collapsed_slice_dims=(ndim - 2, ndim - 1),
                                                           start_index_map=(ndim - 2, ndim - 1))
    if length == 0:  # indexing that selects nothing gives zeros without gathering, as JAX's does
        return lax_structural.broadcast_in_dim(np.zeros((), get_aval(a).dtype)[()], shape[:-2] + (0,), ())
    return lax_slicing.gather(a, indices, dimension_numbers, shape[:-2] + (1, 1),
                              mode=lax_slicing.GatherScatterMode.PROMISE_IN_BOUNDS)


def astype(x: Any, dtype: Any, /, *, copy: bool = False, device: Any = None) -> Any:
    """``x`` converted to ``dtype`` (strongly typed); ``copy``: then copied, as JAX stages it."""
    x = ensure_arraylike("astype", x)
    check_conversion_target(device, x)
    dt = requested_dtype(dtype, "astype") if dtype is not None else dtypes.default_float_dtype()
    aval = get_aval(ensure_array(x))
    warn_complex_astype(aval.dtype, dt)
    target = staged_target(device)
    if target is not None:
        out = converted_staged(ensure_array(x), dt, False, target)
    else:
        out = converted_onto(as_array(lax_structural.convert_unchecked(x, dt)), device)
    return copy_p.bind(out) if copy else out

