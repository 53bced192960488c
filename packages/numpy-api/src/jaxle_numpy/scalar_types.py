"""Dtype objects and scalar types (`jnp.float32(3)` is an Array), finfo/iinfo and the dtype queries."""

from __future__ import annotations

import builtins
import math
from typing import Any

import ml_dtypes
import numpy as np

from jaxle_core import dtypes
from jaxle_core.array import Array
from jaxle_core.core import Tracer
from jaxle_numpy.util import canonicalize_axis

__all__ = [
    # scalar types
    "bool", "bool_", "int1", "int2", "int4", "int8", "int16", "int32", "int64", "uint1", "uint2", "uint4", "uint8",
    "uint16", "uint32", "uint64", "bfloat16", "float16", "float32", "float64", "complex64", "complex128",
    "float4_e2m1fn", "float6_e2m3fn", "float6_e3m2fn", "float8_e3m4", "float8_e4m3", "float8_e4m3b11fnuz",
    "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu", "int_", "uint",
    "float_", "complex_", "single", "double", "csingle", "cdouble",
    # NumPy's abstract scalar classes and other classes
    "generic", "number", "inexact", "floating", "complexfloating", "integer", "signedinteger", "unsignedinteger",
    "character", "flexible", "object_", "dtype", "finfo", "iinfo", "ndarray", "ComplexWarning",
    # constants
    "e", "euler_gamma", "inf", "nan", "pi", "newaxis",
    # dtype and shape queries
    "promote_types", "result_type", "can_cast", "issubdtype", "isdtype", "iscomplexobj", "isrealobj", "isscalar",
    "iterable", "ndim", "shape", "size",
    # printing
    "printoptions", "get_printoptions", "set_printoptions", "array_repr", "array_str",
]


class _ScalarMeta(type):
    """The metaclass of jnp's scalar types: a type that names a dtype and makes arrays of it when called.

    ``jnp.float32`` compares equal to ``np.float32`` and to its dtype and hashes as ``np.float32`` (so it works
    wherever NumPy's type does, and as a dtype argument through its ``dtype`` attribute), NumPy's scalars are its
    instances, and calling it converts the argument: ``jnp.float32(3)`` is ``jnp.asarray(3, dtype=jnp.float32)``.
    """

    dtype: np.dtype

    def __hash__(cls) -> int:
        return hash(cls.dtype.type)

    def __eq__(cls, other: object) -> builtins.bool:
        return cls is other or other is cls.dtype.type or (isinstance(other, np.dtype) and other == cls.dtype)

    def __ne__(cls, other: object) -> builtins.bool:
        return not cls == other

    def __instancecheck__(cls, instance: Any) -> builtins.bool:
        return isinstance(instance, cls.dtype.type)

    def __call__(cls, x: Any) -> Array:
        from jaxle_numpy.creation import asarray  # creation's functions take scalar types as dtypes

        return asarray(x, dtype=cls.dtype)


def _scalar_type(name: str, dt: np.dtype) -> _ScalarMeta:
    return _ScalarMeta(name, (object,), {"dtype": dt, "__module__": "jaxle_numpy",
                                         "__doc__": f"The {name} scalar type: calling it makes a {name} Array."})


bool_ = _scalar_type("bool", dtypes.bool_)
int1 = _scalar_type("int1", dtypes.int1)
int2 = _scalar_type("int2", dtypes.int2)
int4 = _scalar_type("int4", dtypes.int4)
int8 = _scalar_type("int8", dtypes.int8)
int16 = _scalar_type("int16", dtypes.int16)
int32 = _scalar_type("int32", dtypes.int32)
int64 = _scalar_type("int64", dtypes.int64)
uint1 = _scalar_type("uint1", dtypes.uint1)
uint2 = _scalar_type("uint2", dtypes.uint2)
uint4 = _scalar_type("uint4", dtypes.uint4)
uint8 = _scalar_type("uint8", dtypes.uint8)
uint16 = _scalar_type("uint16", dtypes.uint16)
uint32 = _scalar_type("uint32", dtypes.uint32)
uint64 = _scalar_type("uint64", dtypes.uint64)
bfloat16 = _scalar_type("bfloat16", dtypes.bfloat16)
float16 = _scalar_type("float16", dtypes.float16)
float32 = _scalar_type("float32", dtypes.float32)
float64 = _scalar_type("float64", dtypes.float64)
complex64 = _scalar_type("complex64", dtypes.complex64)
complex128 = _scalar_type("complex128", dtypes.complex128)
float4_e2m1fn = _scalar_type("float4_e2m1fn", dtypes.float4_e2m1fn)
float6_e2m3fn = _scalar_type("float6_e2m3fn", dtypes.float6_e2m3fn)
float6_e3m2fn = _scalar_type("float6_e3m2fn", dtypes.float6_e3m2fn)
float8_e3m4 = _scalar_type("float8_e3m4", dtypes.float8_e3m4)
float8_e4m3 = _scalar_type("float8_e4m3", dtypes.float8_e4m3)
float8_e4m3b11fnuz = _scalar_type("float8_e4m3b11fnuz", dtypes.float8_e4m3b11fnuz)
float8_e4m3fn = _scalar_type("float8_e4m3fn", dtypes.float8_e4m3fn)
float8_e4m3fnuz = _scalar_type("float8_e4m3fnuz", dtypes.float8_e4m3fnuz)
float8_e5m2 = _scalar_type("float8_e5m2", dtypes.float8_e5m2)
float8_e5m2fnuz = _scalar_type("float8_e5m2fnuz", dtypes.float8_e5m2fnuz)
float8_e8m0fnu = _scalar_type("float8_e8m0fnu", dtypes.float8_e8m0fnu)

# NumPy's aliases, which name the 64-bit types whatever the x64 setting (values are canonicalised when made).
int_, uint, float_, complex_ = int64, uint64, float64, complex128
single, double, csingle, cdouble = float32, float64, complex64, complex128

generic, number, inexact, floating = np.generic, np.number, np.inexact, np.floating
complexfloating, integer, signedinteger, unsignedinteger = (np.complexfloating, np.integer, np.signedinteger,
                                                            np.unsignedinteger)
character, flexible, object_ = np.character, np.flexible, np.object_

dtype = np.dtype
finfo = ml_dtypes.finfo
iinfo = ml_dtypes.iinfo


class _ArrayTypeMeta(type):
    """Instances are jnp's arrays on any backend and, as JAX's ``isinstance(x, jax.Array)`` says, traced values:
    code testing ``isinstance(x, jnp.ndarray)`` works the same inside jit, vmap and grad."""

    def __instancecheck__(cls, instance: Any) -> builtins.bool:
        return isinstance(instance, (Array, Tracer))

    def __subclasscheck__(cls, subclass: type) -> builtins.bool:
        return issubclass(subclass, Array)


class ndarray(metaclass=_ArrayTypeMeta):
    """The type of jnp's arrays (``jax.Array``): concrete arrays of every backend and traced values."""

ComplexWarning = np.exceptions.ComplexWarning

e = math.e
euler_gamma = 0.5772156649015329
inf = math.inf
nan = math.nan
pi = math.pi
newaxis = None


# ---------------------------------------------------------------- dtype queries

def promote_types(a: Any, b: Any) -> np.dtype:
    """The dtype that values of dtypes ``a`` and ``b`` promote to, by JAX's lattice (not canonicalised)."""
    return dtypes.promote_types(a, b)


def result_type(*args: Any) -> np.dtype:
    """The dtype of an operation on ``args`` (arrays, scalars, dtypes), weak types respected, canonicalised.

    As in JAX, jnp's own scalar types (``jnp.float64``) stand for their canonical dtype without the warning that
    asking for an unavailable 64-bit dtype by name or NumPy type gives."""
    return dtypes.result_type(*[dtypes.canonicalize_dtype(arg.dtype) if type(arg) is _ScalarMeta else arg
                                for arg in args])


def _value_dtype(x: Any) -> Any:
    """The dtype of an array or tracer, or ``x`` itself (a dtype-like or NumPy value) for NumPy to interpret."""
    return x.dtype if isinstance(x, (Array, Tracer)) else x


def can_cast(from_: Any, to: Any, casting: str = "safe") -> builtins.bool:
    """Whether NumPy's casting rule ``casting`` allows a cast from ``from_`` (a dtype or array) to dtype ``to``."""
    if type(from_) in dtypes.PYTHON_SCALAR_DTYPES:
        raise TypeError("can_cast() does not support Python ints, floats, and complex because the result used to "
                        "depend on the value.")
    return builtins.bool(np.can_cast(_value_dtype(from_), _value_dtype(to), casting))


def issubdtype(arg1: Any, arg2: Any) -> builtins.bool:
    """``np.issubdtype`` that also places bfloat16, the narrow floats and int4 & co in NumPy's hierarchy."""
    return dtypes.issubdtype(arg1, arg2)


_KIND_TESTS = {
    "bool": lambda dt: dt == np.bool_,
    "signed integer": lambda dt: dtypes.issubdtype(dt, np.signedinteger),
    "unsigned integer": lambda dt: dtypes.issubdtype(dt, np.unsignedinteger),
    "integral": lambda dt: dtypes.issubdtype(dt, np.integer),
    "real floating": lambda dt: dtypes.issubdtype(dt, np.floating),
    "complex floating": lambda dt: dtypes.issubdtype(dt, np.complexfloating),
    "numeric": lambda dt: dtypes.issubdtype(dt, np.number),
}


def _is_of_kind(dt: np.dtype, kind: Any) -> builtins.bool:
    if isinstance(kind, str):
        test = _KIND_TESTS.get(kind)
        if test is not None:
            return test(dt)
        try:
            return dt == np.dtype(kind)
        except TypeError:
            raise ValueError(f"Unrecognized kind={kind!r} expected one of {list(_KIND_TESTS)}, or a compatible input "
                             "for jnp.dtype()") from None
    try:
        return dt == np.dtype(_value_dtype(kind))
    except (TypeError, ValueError):
        raise TypeError(f"Expected kind to be a dtype, string, or tuple; got kind={kind!r}") from None


def isdtype(dtype: Any, kind: Any) -> builtins.bool:
    """The array API's dtype test: ``kind`` is a kind name ('real floating', 'numeric', ...), a dtype, or a tuple
    of those (any of them)."""
    dt = np.dtype(_value_dtype(dtype))
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return any(_is_of_kind(dt, k) for k in kinds)


def iscomplexobj(x: Any) -> builtins.bool:
    """Whether ``x`` (an array, a scalar, nested lists) has a complex dtype. As JAX's, Python and NumPy scalars
    and strings are answered by their type, anything else by its ``dtype`` or else as ``jnp.asarray`` makes it an
    array (bytes or a dtype class get its TypeError)."""
    if isinstance(x, (complex, np.complexfloating)):
        return True
    if x is None or isinstance(x, (bool, int, float, str, np.generic)):
        return False
    try:
        kind = x.dtype.type
    except AttributeError:
        from jaxle_numpy.creation import asarray  # noqa: PLC0415 - creation builds on this module

        kind = asarray(x).dtype
    return dtypes.issubdtype(kind, np.complexfloating)


def isrealobj(x: Any) -> builtins.bool:
    """Whether ``x`` does not have a complex dtype."""
    return not iscomplexobj(x)


def isscalar(element: Any) -> builtins.bool:
    """True for Python and NumPy scalars and for zero-dimensional arrays (jnp treats those as scalars)."""
    if hasattr(element, "__jax_array__"):
        element = element.__jax_array__()
    if isinstance(element, (np.ndarray, Array, Tracer)):
        return element.ndim == 0
    return builtins.bool(np.isscalar(element))


def iterable(y: Any) -> builtins.bool:
    """Whether ``iter(y)`` succeeds (zero-dimensional arrays are not iterable)."""
    try:
        iter(y)
    except TypeError:
        return False
    return True


def ndim(a: Any) -> int:
    """The number of dimensions of an array, tracer, or anything NumPy can make an array of."""
    return a.ndim if hasattr(a, "ndim") else np.ndim(a)


def shape(a: Any) -> tuple[int, ...]:
    """The shape of an array, tracer, shape-and-dtype struct, or anything NumPy can make an array of."""
    return tuple(a.shape) if hasattr(a, "shape") else np.shape(a)


def size(a: Any, axis: int | tuple[int, ...] | None = None) -> int:
    """The number of elements of ``a``, or its extent along ``axis`` (several axes multiply)."""
    dims = shape(a)
    if axis is None:
        return math.prod(dims)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    canonical = [canonicalize_axis(ax, len(dims)) for ax in axes]
    if len(set(canonical)) != len(canonical):
        raise ValueError(f"repeated axis: {tuple(axes)}")
    return math.prod(dims[ax] for ax in canonical)


# ---------------------------------------------------------------- printing: NumPy's options govern Array repr too

printoptions = np.printoptions
get_printoptions = np.get_printoptions
set_printoptions = np.set_printoptions
array_repr = np.array_repr
array_str = np.array_str

# Defined last: from here on the module's `bool` is the scalar type, not Python's.
bool = bool_  # noqa: A001
