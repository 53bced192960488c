"""Arrays made from a shape and a value: ``full``, ``full_like``, ``empty`` (a primitive in JAX 0.10.2) and
``shape_as_value``; ``dtype`` is JAX's rule for the dtype such an array gets from a value."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxle_core import dtypes
from jaxle_core.array import Array
from jaxle_core.avals import ShapedArray
from jaxle_core.backend import current_backend
from jaxle_core.core import Primitive, Tracer
from jaxle_core.lax.standard import canonical_shape
from jaxle_core.lax.structural import broadcast, convert_keeping_weak_type, warn_complex_to_real
from jaxle_core.mesh import AbstractMesh
from jaxle_core.sharding_types import check_type_mesh, resolve_out_sharding

__all__ = ["dtype", "empty", "filled_like", "full", "full_like", "shape_as_value"]


def dtype(x) -> np.dtype:
    """The dtype JAX gives ``x`` (a value, array or dtype-like), canonicalised for the x64 setting."""
    return dtypes.dtype(x)


def _filled(shape: tuple[int, ...], fill_value, requested, like, requester: str, sharding):
    """``fill_value`` broadcast to ``shape``, as the ``requested`` dtype or else ``like``'s (weakly typed where
    ``like`` is); ``requester`` is the function named in the warning about an unavailable dtype."""
    if np.shape(fill_value):
        raise TypeError(f"full must be called with scalar fill_value, got fill_value.shape {np.shape(fill_value)}.")
    if requested is None:
        new_dtype, weak_type = dtypes.dtype(like), dtypes.is_weakly_typed(like)
    else:
        new_dtype, weak_type = dtypes.dtype(requested, requested_in=requester), False
    if isinstance(new_dtype, dtypes.ExtendedDType):  # filled with an element of its own (a key): broadcast as it is
        return broadcast(fill_value, shape, out_sharding=sharding) if shape else fill_value
    warn_complex_to_real(dtypes.dtype(fill_value), new_dtype, stacklevel=3)  # as JAX's, before converting
    python_value = _weak_python_fill(fill_value, new_dtype) if weak_type else None
    if python_value is not None:  # JAX broadcasts the Python value itself: its literal prints it exactly
        return broadcast(python_value, shape, out_sharding=sharding)
    value = convert_keeping_weak_type(fill_value, new_dtype, weak_type)
    # as JAX's, a value of no shape given a type's layout (over an abstract mesh) is still broadcast to it (a
    # reshard where it is not typed so)
    typed = sharding is not None and isinstance(getattr(sharding, "mesh", None), AbstractMesh)
    return broadcast(value, shape, out_sharding=sharding) if shape or typed else value


def _weak_python_fill(fill_value, new_dtype: np.dtype):
    """``fill_value`` as the Python scalar of ``new_dtype``'s kind (a weakly typed default dtype), or None."""
    if type(fill_value) not in (bool, int, float, complex):
        return None
    if dtypes.issubdtype(new_dtype, np.complexfloating):
        value = complex(fill_value)
    elif dtypes.issubdtype(new_dtype, np.floating):
        value = float(fill_value) if type(fill_value) is not complex else None
    elif dtypes.issubdtype(new_dtype, np.signedinteger) and type(fill_value) is not complex:
        value = int(fill_value)
        info = np.iinfo(new_dtype)
        value = value if info.min <= value <= info.max else None
    else:
        value = None
    return value if value is not None and dtypes.dtype(value) == new_dtype else None


def full(shape: Sequence[int] | int, fill_value, dtype=None, *, sharding=None):
    """An array of ``shape`` whose elements are the scalar ``fill_value`` (converted to ``dtype`` if given)."""
    if isinstance(dtype, dtypes.ExtendedDType):  # its own rule (keys: key data filled with the value), as JAX's
        return dtype.full(canonical_shape(shape), fill_value)
    return _filled(canonical_shape(shape), fill_value, dtype, fill_value, "full", sharding)


def full_like(x, fill_value, dtype=None, shape: Sequence[int] | None = None, sharding=None):
    """An array like ``x`` (its shape and dtype unless ``shape``/``dtype`` are given) filled with ``fill_value``;
    of an array committed to devices, on those devices (see ``_followed_placement``)."""
    return filled_like(x, fill_value, dtype, shape, sharding)


def filled_like(x, fill_value, dtype=None, shape: Sequence[int] | None = None, sharding=None,
                located: bool = True):
    """``full_like``; a traced ``x`` typed over a mesh of Auto axes names that mesh to its ``broadcast_in_dim``,
    whose check refuses it under ``set_mesh`` of a mesh with other axes (with JAX's ``ValueError`` ending with the
    user's line, or with none, as JAX's, where a jnp function JAX jits calls it: not ``located``)."""
    if sharding is None and shape is None and isinstance(x, Tracer):
        check_type_mesh(x.aval, "broadcast_in_dim", located)
    fill_shape = tuple((x.shape if hasattr(x, "shape") else np.shape(x)) if shape is None else canonical_shape(shape))
    extended = dtype if dtype is not None else getattr(x, "dtype", None)
    if isinstance(extended, dtypes.ExtendedDType):
        return extended.full(fill_shape, fill_value)
    placement = None if sharding is not None else _followed_placement(x, fill_shape, dtype)
    if placement is not None:  # the value put there whole, named by that very sharding
        filled = _filled(fill_shape, fill_value, dtype, x, "full_like", None)
        return current_backend().device_put(np.asarray(filled), placement)
    if sharding is None and fill_shape == tuple(np.shape(x)):
        sharding = getattr(getattr(x, "aval", None), "explicit_sharding", None)  # over Explicit axes: x's layout
    return _filled(fill_shape, fill_value, dtype, x, "full_like", sharding)


def _followed_placement(x, shape: tuple[int, ...], dtype) -> Any:
    """Where JAX puts ``full_like``'s result for a concrete array ``x`` committed to devices: ``x``'s sharding,
    unless the result is weakly typed (then it is made as any new array), or has another shape than ``x`` and
    ``x``'s sharding splits it (its layout fits ``x``'s shape only); None to make it as any new array."""
    if not isinstance(x, Array) or not getattr(x, "committed", False):
        return None
    if dtype is None and dtypes.is_weakly_typed(x):
        return None
    placement = x.sharding
    return placement if shape == tuple(x.shape) or placement.is_fully_replicated else None


# ---------------------------------------------------------------- empty

empty_p = Primitive("empty")


# The parameters are kept as given and not checked, the dtype not canonicalised (as JAX 0.10.2 does: float64 even
# without x64, a shape of floats read as integers).
def _empty_shape(shape) -> tuple[int, ...]:
    return (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(d) for d in shape)


@empty_p.def_abstract_eval
def _empty_aval(*, shape, dtype, out_sharding):
    return ShapedArray(_empty_shape(shape), np.dtype(dtype))


@empty_p.def_impl
def _empty_impl(*, shape, dtype, out_sharding):
    return np.zeros(_empty_shape(shape), np.dtype(dtype))


def empty(shape: Sequence[int] | int, dtype, *, out_sharding=None):
    """An array of ``shape`` and ``dtype`` whose contents are unspecified (zeros here, as XLA makes them)."""
    return empty_p.bind(shape=shape if isinstance(shape, (int, np.integer)) else tuple(shape), dtype=dtype,
                        out_sharding=resolve_out_sharding(out_sharding, "lax.empty"))


def shape_as_value(shape: Sequence[int]):
    """``shape`` as a one-dimensional int32 array (a NumPy constant; the empty shape gives an Array, as in JAX)."""
    dims = [operator.index(d) for d in shape]
    if not dims:
        return full((0,), 0, np.int32)
    return np.array(dims, np.int32)
