"""JAX's dtypes: the set of array dtypes, x64 canonicalisation, weak types and dtype queries.

Promotion (``promote_types``, ``result_type``) lives in ``promotion.py`` and is
re-exported here, so ``dtypes`` is the one place callers import from.
"""

from __future__ import annotations

import abc
import math
from typing import Any

import ml_dtypes
import numpy as np

from jaxle_core import config as _config
from jaxle_core import trace_warnings
from jaxle_core.shape_poly import DimExpr

DType = np.dtype

# ---- the dtypes (numpy dtype objects; ml_dtypes supplies the non-NumPy ones)

bool_ = np.dtype(np.bool_)
int8, int16, int32, int64 = (np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64))
uint8, uint16, uint32, uint64 = (np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64))
float16, float32, float64 = (np.dtype(t) for t in (np.float16, np.float32, np.float64))
complex64, complex128 = np.dtype(np.complex64), np.dtype(np.complex128)
bfloat16 = np.dtype(ml_dtypes.bfloat16)
int1, int2, int4 = (np.dtype(t) for t in (ml_dtypes.int1, ml_dtypes.int2, ml_dtypes.int4))
uint1, uint2, uint4 = (np.dtype(t) for t in (ml_dtypes.uint1, ml_dtypes.uint2, ml_dtypes.uint4))
float4_e2m1fn = np.dtype(ml_dtypes.float4_e2m1fn)
float6_e2m3fn, float6_e3m2fn = np.dtype(ml_dtypes.float6_e2m3fn), np.dtype(ml_dtypes.float6_e3m2fn)
float8_e3m4 = np.dtype(ml_dtypes.float8_e3m4)
float8_e4m3 = np.dtype(ml_dtypes.float8_e4m3)
float8_e4m3b11fnuz = np.dtype(ml_dtypes.float8_e4m3b11fnuz)
float8_e4m3fn = np.dtype(ml_dtypes.float8_e4m3fn)
float8_e4m3fnuz = np.dtype(ml_dtypes.float8_e4m3fnuz)
float8_e5m2 = np.dtype(ml_dtypes.float8_e5m2)
float8_e5m2fnuz = np.dtype(ml_dtypes.float8_e5m2fnuz)
float8_e8m0fnu = np.dtype(ml_dtypes.float8_e8m0fnu)

# The dtype of tangents of integer and boolean values: zero bytes, no values.
float0 = np.dtype([("float0", np.void, 0)])

INTN_DTYPES = (int1, int2, int4, uint1, uint2, uint4)
FLOAT8_DTYPES = (float8_e3m4, float8_e4m3, float8_e4m3b11fnuz, float8_e4m3fn, float8_e4m3fnuz,
                 float8_e5m2, float8_e5m2fnuz, float8_e8m0fnu)
FLOAT6_DTYPES = (float6_e2m3fn, float6_e3m2fn)
FLOAT4_DTYPES = (float4_e2m1fn,)
# Floats that NumPy does not know as floating (kind 'V'): bfloat16 and the narrow floats.
CUSTOM_FLOAT_DTYPES = (bfloat16, *FLOAT8_DTYPES, *FLOAT6_DTYPES, *FLOAT4_DTYPES)
SIGNED_DTYPES = (int1, int2, int4, int8, int16, int32, int64)
UNSIGNED_DTYPES = (uint1, uint2, uint4, uint8, uint16, uint32, uint64)
FLOAT_DTYPES = (*FLOAT4_DTYPES, *FLOAT6_DTYPES, *FLOAT8_DTYPES, bfloat16, float16, float32, float64)
COMPLEX_DTYPES = (complex64, complex128)
JAX_DTYPES = (bool_, *UNSIGNED_DTYPES, *SIGNED_DTYPES, *FLOAT_DTYPES, *COMPLEX_DTYPES)
_JAX_DTYPE_SET = frozenset(JAX_DTYPES) | {float0}

_TO_32BIT = {int64: int32, uint64: uint32, float64: float32, complex128: complex64}

# Python scalar types and the (pre-canonicalisation) dtype of their values.
PYTHON_SCALAR_DTYPES: dict[type, np.dtype] = {bool: bool_, int: int64, float: float64, complex: complex128}
# Python scalars of these types are weakly typed; bool is not.
WEAK_SCALAR_TYPES = (int, float, complex, DimExpr)  # a symbolic dimension is a weakly typed int


class TypePromotionError(ValueError):
    """Raised when dtypes have no implicit promotion path."""


# ---- extended dtypes: element types that are not NumPy's (PRNG keys), stored as arrays of a NumPy dtype


class extended(np.generic):  # noqa: N801 - JAX's name (``jax.dtypes.extended``)
    """The scalar-type category of every extended dtype: ``issubdtype(key.dtype, extended)`` holds."""


class prng_key(extended):  # noqa: N801 - JAX's name (``jax.dtypes.prng_key``)
    """The scalar-type category of PRNG key dtypes."""


class ExtendedDType(abc.ABC):
    """A dtype whose elements are not NumPy scalars. Each element is stored as ``physical_shape`` values of
    ``physical_dtype``: an array of shape ``s`` is, physically, an array of shape ``s + physical_shape``.

    Subclasses give ``type`` (a subclass of ``extended``), ``name`` (printed in jaxprs and reprs, e.g.
    ``key<fry>``), the physical layout, and ``wrap``: the concrete array of this dtype over a physical array.
    Primitives that move elements around (reshape, slice, ...) apply to such arrays through the physical
    rules of ``jaxle_core.extended``.
    """

    type: type = extended
    name: str
    physical_shape: tuple[int, ...]
    physical_dtype: np.dtype

    @abc.abstractmethod
    def wrap(self, physical: Any) -> Any:
        """The concrete array of this dtype whose physical representation is the Array ``physical``."""

    def full(self, shape: tuple[int, ...], fill_value: Any) -> Any:
        """An array of ``shape`` of this dtype each of whose elements is ``fill_value`` (``lax.full``'s rule for it;
        none by default)."""
        raise TypeError(f"Cannot interpret '{self.name}' as a data type")

    @property
    def itemsize(self) -> int:
        return math.prod(self.physical_shape) * self.physical_dtype.itemsize

    def __str__(self) -> str:
        return self.name

    __repr__ = __str__


# ---- canonicalisation under the x64 flag

_canonical_cache: dict[tuple[bool, Any], np.dtype] = {}


def canonicalize_dtype(dtype: Any) -> np.dtype:
    """The dtype JAX uses for ``dtype``: 64-bit types map to 32-bit ones unless x64 is enabled."""
    if isinstance(dtype, ExtendedDType):
        return dtype
    x64 = _config.x64_enabled()
    try:
        return _canonical_cache[x64, dtype]
    except (KeyError, TypeError):
        pass
    try:
        dt = np.dtype(dtype)
    except TypeError as err:
        raise TypeError(f"dtype {dtype!r} not understood") from err
    result = dt if x64 else _TO_32BIT.get(dt, dt)
    try:
        _canonical_cache[x64, dtype] = result
    except TypeError:  # unhashable dtype-like: not cached
        pass
    return result


def default_int_dtype() -> np.dtype:
    return int64 if _config.x64_enabled() else int32


def default_uint_dtype() -> np.dtype:
    return uint64 if _config.x64_enabled() else uint32


def default_float_dtype() -> np.dtype:
    return float64 if _config.x64_enabled() else float32


def default_complex_dtype() -> np.dtype:
    return complex128 if _config.x64_enabled() else complex64


def default_dtype_for_kind(dt: np.dtype) -> np.dtype:
    """The default dtype of ``dt``'s kind: what a weakly typed value of dtype ``dt`` becomes."""
    if dt in CUSTOM_FLOAT_DTYPES or dt.kind == "f":
        return default_float_dtype()
    if dt.kind == "i":
        return default_int_dtype()
    if dt.kind == "u":
        return default_uint_dtype()
    if dt.kind == "c":
        return default_complex_dtype()
    if dt.kind == "b":
        return bool_
    raise TypePromotionError(f"weakly typed values of dtype {dt} have no default dtype")


def _canonicalize_requested(dt: np.dtype, requested_in: str = "dtype", stacklevel: int = 3) -> np.dtype:
    """Canonicalise an explicitly requested dtype, warning or raising per jax_explicit_x64_dtypes; the message
    names ``requested_in`` (nothing when empty), the warning the caller ``stacklevel`` frames up."""
    if _config.x64_enabled():
        return dt
    narrow = _TO_32BIT.get(dt)
    if narrow is None:
        return dt
    mode = _config.explicit_x64_dtypes.value
    if mode == _config.ExplicitX64Mode.ALLOW:
        return dt
    where = f" requested in {requested_in}" if requested_in else ""
    if mode == _config.ExplicitX64Mode.ERROR:
        raise ValueError(f"Explicitly requested dtype {dt}{where} is not available. To enable more dtypes, set the "
                         "jax_enable_x64 or allow_explicit_x64_dtypes configuration options.See "
                         "https://github.com/jax-ml/jax#current-gotchas for more.")
    trace_warnings.warn(f"Explicitly requested dtype {dt}{where} is not available, and will be truncated to dtype "
                        f"{narrow}. To enable more dtypes, set the jax_enable_x64 configuration option or the "
                        "JAX_ENABLE_X64 shell environment variable. See https://github.com/jax-ml/jax#current-gotchas "
                        "for more.", UserWarning, stacklevel=stacklevel)
    return narrow


def check_user_dtype(dtype: Any, fun_name: str = "", stacklevel: int = 2) -> np.dtype:
    """A user's ``dtype=`` argument checked and canonicalised as ``jax._src.dtypes.check_and_canonicalize_user_dtype``
    does: NumPy's own error for what names no dtype, JAX's for None, an array or a dtype arrays cannot have; a Python
    scalar type gives its kind's default dtype; an explicit 64-bit dtype with x64 off is narrowed with JAX's warning
    (naming ``fun_name`` if given), attributed to the caller ``stacklevel`` frames above this function's caller."""
    if dtype is None:
        raise ValueError("dtype must be specified.")
    if isinstance(dtype, _UNCANONICALIZED_TYPES):
        raise ValueError("Passing an array as a dtype argument is no longer supported; instead of dtype=arr use "
                         "dtype=arr.dtype.")
    if isinstance(dtype, ExtendedDType):
        return dtype
    if isinstance(dtype, type) and dtype in PYTHON_SCALAR_DTYPES:
        return canonicalize_dtype(PYTHON_SCALAR_DTYPES[dtype])
    dt = np.dtype(dtype)
    if dt not in _JAX_DTYPE_SET:
        raise TypeError(f"JAX only supports number, bool, and string dtypes, got dtype {dtype}"
                        + (f" in {fun_name}" if fun_name else ""))
    return _canonicalize_requested(dt, fun_name, stacklevel + 2)


# Types whose `.dtype` is already what JAX made (device arrays, tracers): never canonicalised again.
_UNCANONICALIZED_TYPES: tuple[type, ...] = ()


def register_uncanonicalized_type(cls: type) -> None:
    """Mark ``cls`` (an array or tracer type) so that ``dtype(x)`` returns ``x.dtype`` as it is."""
    global _UNCANONICALIZED_TYPES
    _UNCANONICALIZED_TYPES = (*_UNCANONICALIZED_TYPES, cls)


def is_valid_dtype(dt: Any) -> bool:
    """Whether ``dt`` is a dtype JAX arrays can have (float0 included)."""
    if isinstance(dt, np.dtype):  # every array's aval asks: skip the conversion
        return dt in _JAX_DTYPE_SET
    if isinstance(dt, ExtendedDType):
        return True
    try:
        return np.dtype(dt) in _JAX_DTYPE_SET
    except TypeError:
        return False


def check_valid_dtype(dt: np.dtype) -> None:
    """Raise TypeError unless ``dt`` is a dtype JAX arrays can have."""
    if dt not in _JAX_DTYPE_SET:
        raise TypeError(f"Dtype {dt} is not a valid JAX array type. Only arrays of numeric types are supported by JAX.")


def _check_value_dtype(x: Any, dt: np.dtype) -> None:
    if dt not in _JAX_DTYPE_SET:
        raise TypeError(f"Value '{x}' with dtype {dt} is not a valid JAX array type. "
                        "Only arrays of numeric types are supported by JAX.")


def _check_requested_dtype(x: Any, requested_in: str) -> None:
    try:
        dt = np.dtype(x)
    except TypeError:
        return  # not a dtype name at all: the lookup that follows reports it as NumPy does
    if dt not in _JAX_DTYPE_SET:
        raise TypeError(f"JAX only supports number, bool, and string dtypes, got dtype {x} in {requested_in}")


def dtype(x: Any, canonicalize: bool = True, *, requested_in: str = "dtype", stacklevel: int = 3) -> np.dtype:
    """The JAX dtype of a value or dtype-like, as ``jax._src.dtypes.dtype`` gives it.

    Python scalars and their types give the default dtype of their kind; an
    explicitly named 64-bit dtype (a string, NumPy type or dtype) is narrowed
    with a warning when x64 is off; NumPy arrays and scalars are narrowed
    silently. ``canonicalize=False`` skips every narrowing. The warning names ``requested_in`` as the
    function the dtype was asked of; a lax function asking for a dtype arrays cannot have (a string, object or
    datetime type) gets JAX's TypeError naming it. The warning is attributed to the caller ``stacklevel`` frames up
    (3: the caller of this function).
    """
    if x is None:
        raise ValueError("dtype must be specified." if requested_in != "dtype" else f"Invalid argument to dtype: {x}.")
    if isinstance(x, ExtendedDType):
        return x
    requested = requested_in != "dtype"
    # a dtype asked for by name reads bytes as NumPy does (b"f4"); elsewhere bytes are a value without a dtype
    named = (str, np.dtype, bytes) if requested else (str, np.dtype)
    if requested and isinstance(x, (type, *named)):
        _check_requested_dtype(x, requested_in)
    if requested and type(x) in (bool, int, float, complex):
        # a Python number asked of as a dtype is refused (its value would name a dtype of its kind)
        raise TypeError(f"Cannot interpret '{x}' as a data type")
    if isinstance(x, type):
        py_dtype = PYTHON_SCALAR_DTYPES.get(x)
        if py_dtype is not None:
            return canonicalize_dtype(py_dtype) if canonicalize else py_dtype
        # NumPy's scalar types, and a facade's (jnp.float32) that name their dtype by a `dtype` attribute.
        if issubclass(x, np.generic) or isinstance(getattr(x, "dtype", None), np.dtype):
            dt = np.dtype(x)
            _check_value_dtype(x, dt)
            return _canonicalize_requested(dt, requested_in, stacklevel) if canonicalize else dt
    else:
        py_dtype = PYTHON_SCALAR_DTYPES.get(type(x))
        if py_dtype is not None:
            return canonicalize_dtype(py_dtype) if canonicalize else py_dtype
    if isinstance(x, _UNCANONICALIZED_TYPES):
        return x.dtype
    if isinstance(x, named):
        dt = np.dtype(x)
        _check_value_dtype(x, dt)
        return _canonicalize_requested(dt, requested_in, stacklevel) if canonicalize else dt
    dt = getattr(x, "dtype", None)
    if isinstance(x, DimExpr):  # a symbolic dimension: an int
        dt = np.dtype(int64)
    elif not isinstance(dt, np.dtype):
        try:
            dt = np.result_type(x)
        except TypeError as err:
            raise TypeError(f"Cannot determine dtype of {x}") from err
    _check_value_dtype(x, dt)
    return canonicalize_dtype(dt) if canonicalize else dt


# ---- weak types

def is_weakly_typed(x: Any) -> bool:
    """True for Python int/float/complex values and for values whose aval (or self) is weakly typed."""
    if type(x) in WEAK_SCALAR_TYPES:
        return True
    aval = getattr(x, "aval", x)
    return getattr(aval, "weak_type", False) is True


def is_python_scalar(x: Any) -> bool:
    return type(x) in PYTHON_SCALAR_DTYPES


def scalar_type_to_dtype(typ: type, value: Any = None) -> np.dtype:
    """The canonical dtype of Python scalar type ``typ``; an int ``value`` that does not fit raises OverflowError."""
    dt = canonicalize_dtype(PYTHON_SCALAR_DTYPES[typ])
    if typ is int and value is not None:
        info = np.iinfo(dt)
        if not info.min <= value <= info.max:
            raise OverflowError(f"Python int {value} too large to convert to {dt}")
    return dt


def coerce_to_array(x: Any, dtype: Any = None) -> np.ndarray:
    """A NumPy array of ``x``; Python scalars get JAX's dtype for them (int → int32 without x64)."""
    if dtype is None and type(x) in PYTHON_SCALAR_DTYPES:
        dtype = scalar_type_to_dtype(type(x), x)
    return np.asarray(x, dtype)


# ---- dtype queries

_NP_ABSTRACT_OF_FLOAT = {np.floating, np.inexact, np.number, np.generic}
_NP_ABSTRACT_OF_SIGNED = {np.signedinteger, np.integer, np.number, np.generic}
_NP_ABSTRACT_OF_UNSIGNED = {np.unsignedinteger, np.integer, np.number, np.generic}
_CUSTOM_FLOAT_TYPES = frozenset(dt.type for dt in CUSTOM_FLOAT_DTYPES)
_SIGNED_INTN_TYPES = frozenset(dt.type for dt in (int1, int2, int4))
_UNSIGNED_INTN_TYPES = frozenset(dt.type for dt in (uint1, uint2, uint4))


def _scalar_type(x: Any) -> type:
    if isinstance(x, type) and issubclass(x, np.generic):
        return x
    if isinstance(x, ExtendedDType):
        return x.type
    return np.dtype(x).type


def issubdtype(a: Any, b: Any) -> bool:
    """``np.issubdtype`` that also places bfloat16, the narrow floats and int4 & co in NumPy's hierarchy."""
    a_type, b_type = _scalar_type(a), _scalar_type(b)
    if a_type in _CUSTOM_FLOAT_TYPES:
        return b_type is a_type or b_type in _NP_ABSTRACT_OF_FLOAT
    if a_type in _SIGNED_INTN_TYPES:
        return b_type is a_type or b_type in _NP_ABSTRACT_OF_SIGNED
    if a_type in _UNSIGNED_INTN_TYPES:
        return b_type is a_type or b_type in _NP_ABSTRACT_OF_UNSIGNED
    if issubclass(a_type, np.generic) and issubclass(b_type, np.generic):
        return issubclass(a_type, b_type)  # NumPy's answer for its scalar types, without its Python call
    return bool(np.issubdtype(a_type, b_type))


def is_extended(dt: Any) -> bool:
    """Whether ``dt`` is an extended dtype (a PRNG key dtype, say)."""
    return isinstance(dt, ExtendedDType)


def is_inexact(dt: Any) -> bool:
    return issubdtype(dt, np.inexact)


finfo = ml_dtypes.finfo
iinfo = ml_dtypes.iinfo

_TO_INEXACT = {bool_: float32, **{d: float32 for d in (int4, uint4, int8, uint8, int16, uint16, int32, uint32)},
               int64: float64, uint64: float64}


def to_inexact_dtype(dt: Any) -> np.dtype:
    """``dt`` if inexact, else the float dtype JAX computes in for it (int64 → float64, others → float32)."""
    dt = np.dtype(dt)
    return _TO_INEXACT.get(dt, dt)


def to_complex_dtype(dt: Any) -> np.dtype:
    """The complex dtype matching ``dt``'s precision (complex128 only for 64-bit inputs)."""
    return complex128 if to_inexact_dtype(dt) in (float64, complex128) else complex64


def scalar_type_of(x: Any) -> type:
    """The Python scalar type (bool, int, float or complex) matching a value's dtype."""
    dt = dtype(x)
    if dt in CUSTOM_FLOAT_DTYPES:
        return float
    if dt in INTN_DTYPES:
        return int
    for kind, typ in ((np.bool_, bool), (np.integer, int), (np.floating, float), (np.complexfloating, complex)):
        if np.issubdtype(dt, kind):
            return typ
    raise TypeError(f"Invalid scalar value {x}")


def short_dtype_name(dt: Any) -> str:
    """The dtype's name in printed jaxprs: f32, bf16, i8, u4, c64, f8_e4m3fn, bool, float0, key<fry>."""
    if isinstance(dt, ExtendedDType):
        return dt.name
    dt = np.dtype(dt)
    if dt == float0:
        return "float0"
    name = dt.name
    for long, short in (("float", "f"), ("uint", "u"), ("int", "i"), ("complex", "c")):
        name = name.replace(long, short)
    return name


_SUBBYTE_BITS = {int1: 1, uint1: 1, int2: 2, uint2: 2, int4: 4, uint4: 4, float4_e2m1fn: 4,
                 float6_e2m3fn: 6, float6_e3m2fn: 6}


def itemsize_bits(dt: Any) -> int:
    """Bits per element: 4 for int4, 6 for float6_e2m3fn, 16 for bfloat16, 8 for bool."""
    dt = np.dtype(dt)
    return _SUBBYTE_BITS.get(dt, dt.itemsize * 8)


def __getattr__(name: str) -> Any:
    # promote_types and result_type live in promotion.py, which imports this module.
    if name in ("promote_types", "result_type"):
        from jaxle_core import promotion
        return getattr(promotion, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DType", "TypePromotionError", "bool_", "int1", "int2", "int4", "int8", "int16", "int32", "int64",
    "uint1", "uint2", "uint4", "uint8", "uint16", "uint32", "uint64", "bfloat16", "float16", "float32", "float64",
    "complex64", "complex128", "float4_e2m1fn", "float6_e2m3fn", "float6_e3m2fn", "float8_e3m4", "float8_e4m3",
    "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu",
    "float0", "JAX_DTYPES", "canonicalize_dtype", "default_int_dtype", "default_uint_dtype", "default_float_dtype",
    "default_complex_dtype", "dtype", "is_weakly_typed", "is_python_scalar", "scalar_type_to_dtype",
    "coerce_to_array", "issubdtype", "is_inexact", "finfo", "iinfo", "to_inexact_dtype", "to_complex_dtype",
    "scalar_type_of", "short_dtype_name", "itemsize_bits", "check_valid_dtype", "is_valid_dtype",
    "register_uncanonicalized_type", "extended", "prng_key", "ExtendedDType", "is_extended",
]  # plus promote_types and result_type, served from promotion.py by __getattr__
