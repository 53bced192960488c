"""Building blocks shared by lax primitive definitions: dtype and shape rules."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import ShapedArray, canonicalize_shape
from jaxle_core.core import Primitive
from jaxle_core.shape_poly import DimExpr

# Dtype categories that primitives accept, named as JAX's error messages name them.
BOOL = ("bool", lambda d: d == np.bool_)
SIGNED = ("signedinteger", lambda d: np.issubdtype(d, np.signedinteger))
UNSIGNED = ("unsignedinteger", lambda d: np.issubdtype(d, np.unsignedinteger))
INTEGER = ("integer", lambda d: dtypes.issubdtype(d, np.integer))  # int4 & co included, as in JAX
FLOATING = ("floating", lambda d: dtypes.issubdtype(d, np.floating))
COMPLEX = ("complexfloating", lambda d: np.issubdtype(d, np.complexfloating))
INEXACT = (FLOATING, COMPLEX)
NUMBER = (INTEGER, FLOATING, COMPLEX)
# The same dtypes named as one kind, as JAX's messages for cumulative reductions name them.
NUMBER_KIND = ("number", lambda d: d != np.bool_ and any(test(d) for _, test in NUMBER))
ANY = (BOOL, INTEGER, FLOATING, COMPLEX)


# (dtype, accepted kinds) pairs already found to match: tracing checks every operand of every equation (the kinds
# are a tuple, hashable, so that the pair can be remembered)
_accepted: set[tuple[np.dtype, tuple]] = set()


def check_dtype(name: str, dtype: np.dtype, accepted: tuple, position: int | None = None) -> None:
    if (dtype, accepted) in _accepted:
        return
    if not dtypes.is_extended(dtype) and any(test(dtype) for _, test in accepted):
        _accepted.add((dtype, accepted))
        return
    kinds = ", ".join(kind for kind, _ in accepted)
    if position is None:
        raise TypeError(f"{name} does not accept dtype {dtype.name}. Accepted dtypes are subtypes of {kinds}.")
    raise TypeError(f"{name} does not accept dtype {dtype.name} at position {position}. Accepted dtypes at "
                    f"position {position} are subtypes of {kinds}.")


def broadcast_shapes(name: str, *shapes: tuple[int, ...]) -> tuple[int, ...]:
    """The shape of an elementwise result: equal ranks with size-1 dims stretching, or rank-0 operands."""
    if shapes and shapes.count(shapes[0]) == len(shapes):  # all equal: the usual case, paid on every equation
        return tuple(shapes[0])
    ranked = [s for s in shapes if len(s)]
    if not ranked:
        return ()
    if len({len(s) for s in ranked}) != 1:
        raise TypeError(f"{name}: arrays must have the same number of dimensions, got "
                        f"{set(len(s) for s in shapes)}")
    result = []
    for sizes in zip(*ranked):
        others = {d for d in sizes if d != 1}
        if len(others) > 1:
            raise TypeError(f"{name} got incompatible shapes for broadcasting: "
                            f"{', '.join(str(s) for s in shapes)}.")
        result.append(others.pop() if others else 1)
    return tuple(result)


def check_same_dtypes(name: str, avals: Sequence[ShapedArray], tip: str | None) -> None:
    """JAX's error for operands of different dtypes, naming the promoting ``jnp`` function when there is a ``tip``."""
    if len({a.dtype for a in avals}) > 1:
        names = ", ".join(a.dtype.name for a in avals)
        message = f"lax.{name} requires arguments to have the same dtypes, got {names}."
        if tip is not None:
            message += f" (Tip: jnp.{tip} is a similar function that does automatic type promotion on inputs)."
        raise TypeError(message)


def elementwise_aval(name: str, avals: Sequence[ShapedArray], accepted: Sequence | None,
                     out_dtype: Callable[[np.dtype], np.dtype] | None = None,
                     same_dtypes: bool = True) -> ShapedArray:
    """Output aval of an n-ary elementwise primitive (dtype checks, broadcasting, weak types)."""
    if accepted is not None:
        for i, aval in enumerate(avals):
            check_dtype(name, aval.dtype, accepted, i if len(avals) > 1 else None)
    if len(avals) == 1:  # a unary primitive's (what tracing pays for on every such equation): nothing to compare
        aval = avals[0]
        return ShapedArray(aval.shape, aval.dtype if out_dtype is None else out_dtype(aval.dtype), aval.weak_type)
    if same_dtypes:
        check_same_dtypes(name, avals, _jnp_names.get(name, name))
    shape = broadcast_shapes(name, *[a.shape for a in avals])
    dtype = avals[0].dtype if out_dtype is None else out_dtype(avals[0].dtype)
    return ShapedArray(shape, dtype, all(a.weak_type for a in avals))


_jnp_names = {"and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor", "not": "bitwise_not",
              "sub": "subtract", "mul": "multiply", "div": "divide", "rem": "remainder", "max": "maximum",
              "min": "minimum", "pow": "power", "eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal",
              "gt": "greater", "ge": "greater_equal", "shift_left": "left_shift",
              "shift_right_logical": "right_shift", "shift_right_arithmetic": "right_shift",
              # the total-order comparisons have no jnp counterpart, so JAX's error gives no tip
              "eq_to": None, "le_to": None, "lt_to": None}


def elementwise_primitive(name: str, impl: Callable, accepted: Sequence | None = ANY,
                          out_dtype: Callable[[np.dtype], np.dtype] | None = None,
                          same_dtypes: bool = True) -> Primitive:
    """A primitive applied elementwise: its aval rule checks dtypes and broadcasts shapes."""
    primitive = Primitive(name)
    primitive.def_abstract_eval(
        lambda *avals, **params: elementwise_aval(name, avals, accepted, out_dtype, same_dtypes))
    primitive.def_impl(impl)
    return primitive


def lenient_axis(axis) -> int:
    """An axis that JAX also takes as an integral float (``axis=1.0`` of ``cumsum``, ``broadcasted_iota`` and the
    ``*_in_dim`` helpers): the programs that pass one run unchanged, but a fractional axis, which JAX truncates,
    raises ``operator.index``'s TypeError instead."""
    if isinstance(axis, (float, np.floating)) and float(axis).is_integer():
        return int(axis)
    return operator.index(axis)


def normalize_axis(axis: int, ndim: int, what: str = "axis") -> int:
    """``axis`` (an integer, ``operator.index`` semantics) counted from 0, or ValueError when out of range."""
    axis = operator.index(axis)
    if not -ndim <= axis < max(ndim, 1):
        raise ValueError(f"{what} {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim if ndim else 0


def canonical_shape(shape) -> tuple[int, ...]:
    """``shape`` (an integer or a sequence of integers) as a tuple of ints, with JAX's error for anything else."""
    return canonicalize_shape((shape,) if isinstance(shape, (int, np.integer)) else shape)


def as_int_tuple(values: Sequence[int] | int) -> tuple[int, ...]:
    """Integer parameters (axes, permutations, strides, sizes) as Python ints, with ``operator.index``
    semantics: a float or string raises TypeError instead of being truncated."""
    if isinstance(values, (int, np.integer)) or not hasattr(values, "__iter__"):
        return (operator.index(values),)
    return tuple(operator.index(v) for v in values)


def check_integer_elements(name: str, what: str, values: Sequence) -> tuple[int, ...]:
    """``values`` as ints, or JAX's TypeError naming ``what`` of ``name`` and the types of its elements."""
    if not all(isinstance(v, (int, np.integer, DimExpr)) for v in values):
        raise TypeError(f"{name} {what} must have every element be an integer type, got "
                        f"{tuple(type(v) for v in values)}.")
    return tuple(v if type(v) is DimExpr else operator.index(v) for v in values)


def check_nonnegative(name: str, what: str, values: tuple[int, ...]) -> None:
    if any(v < 0 for v in values):
        raise TypeError(f"{name} {what} must have every element be nonnegative, got {values}.")


_INT64_MAX = np.iinfo(np.int64).max


def check_element_count(shape: tuple[int, ...]) -> None:
    """Reject a shape whose element count does not fit in 64 bits (XLA cannot represent it)."""
    count = 1
    for d in shape:
        if type(d) is not DimExpr:  # symbolic sizes are checked when the program runs
            count *= max(d, 1)
    if count > _INT64_MAX:
        raise ValueError(f"overflow in static extent product: dimensions=[{', '.join(map(str, shape))}].")
