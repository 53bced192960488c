"""JAX's type-promotion lattice: ``promote_types`` and ``result_type``.

Promotion is the least upper bound on a lattice whose nodes are the array
dtypes plus three weak nodes, ``i*``, ``f*`` and ``c*``, standing for Python
int, float and complex scalars (and weakly typed values). In the standard
lattice::

    bool → i* → u8 → u16 → u32 → u64 → f*        i* → i8 → i16 → i32 → i64 → f*
    u8 → i16,  u16 → i32,  u32 → i64  (and u32 → i32 when x64 is off)
    f* → bf16, f16 → f32 → f64 → c128,   f32 → c64 → c128,   f* → c* → c64
    i* → int1/int2/int4/uint1/uint2/uint4 and f* → every 4/6/8-bit float: dead ends,
    so those types never promote implicitly to anything but themselves.

In the strict lattice only the weak nodes promote; distinct strong dtypes have
no common bound.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from jaxle_core import config as _config
from jaxle_core import dtypes as _d


@dataclass(slots=True, eq=False, repr=False)
class _WeakNode:
    """A weak lattice node (i*, f*, c*): the type of a Python scalar."""

    name: str
    python_type: type

    def __repr__(self) -> str:
        return self.name


WEAK_INT, WEAK_FLOAT, WEAK_COMPLEX = _WeakNode("int", int), _WeakNode("float", float), _WeakNode("complex", complex)
_WEAK_NODE_OF_TYPE = {int: WEAK_INT, float: WEAK_FLOAT, complex: WEAK_COMPLEX}
_NARROW_DTYPES = _d.INTN_DTYPES + _d.FLOAT8_DTYPES + _d.FLOAT6_DTYPES + _d.FLOAT4_DTYPES


def _edges(strict: bool, x64: bool) -> dict[Any, tuple]:
    """Direct promotions (node → the nodes just above it) of one lattice."""
    d = _d
    all_ints = d.INTN_DTYPES + (d.int8, d.int16, d.int32, d.int64, d.uint8, d.uint16, d.uint32, d.uint64)
    if strict:
        return {WEAK_INT: (*all_ints, WEAK_FLOAT),
                WEAK_FLOAT: (*d.FLOAT_DTYPES, WEAK_COMPLEX),
                WEAK_COMPLEX: d.COMPLEX_DTYPES}
    return {
        d.bool_: (WEAK_INT,),
        WEAK_INT: (d.uint8, d.int8, WEAK_FLOAT, *d.INTN_DTYPES),
        d.uint8: (d.uint16, d.int16),
        d.uint16: (d.uint32, d.int32),
        d.uint32: (d.uint64, d.int64) if x64 else (d.uint64, d.int64, d.int32),
        d.uint64: (WEAK_FLOAT,),
        d.int8: (d.int16,),
        d.int16: (d.int32,),
        d.int32: (d.int64,),
        d.int64: (WEAK_FLOAT,),
        WEAK_FLOAT: (d.bfloat16, d.float16, WEAK_COMPLEX, *d.FLOAT8_DTYPES, *d.FLOAT6_DTYPES, *d.FLOAT4_DTYPES),
        d.bfloat16: (d.float32,),
        d.float16: (d.float32,),
        d.float32: (d.float64, d.complex64),
        d.float64: (d.complex128,),
        WEAK_COMPLEX: (d.complex64,),
        d.complex64: (d.complex128,),
    }


@functools.cache
def _upper_bounds(strict: bool, x64: bool) -> dict[Any, frozenset]:
    """Every node's set of upper bounds (itself included): the transitive closure of the edges."""
    edges = _edges(strict, x64)
    nodes = [*_d.JAX_DTYPES, WEAK_INT, WEAK_FLOAT, WEAK_COMPLEX]
    bounds: dict[Any, frozenset] = {}

    def visit(node):
        if node not in bounds:
            above = {node}
            for parent in edges.get(node, ()):
                above |= visit(parent)
            bounds[node] = frozenset(above)
        return bounds[node]

    for node in nodes:
        visit(node)
    return bounds


@functools.lru_cache(1024)
def _least_upper_bound(strict: bool, x64: bool, nodes: frozenset | tuple) -> Any:
    """The join of ``nodes``; an error names them in their order when given as a tuple (promote_types' inputs),
    sorted when given as a set."""
    bounds = _upper_bounds(strict, x64)
    try:
        common = frozenset.intersection(*(bounds[n] for n in nodes))
    except KeyError:
        bad = next(n for n in nodes if n not in bounds)
        raise ValueError(f"dtype={bad!r} is not a valid dtype for JAX type promotion.") from None
    least = [c for c in common if common <= bounds[c]]
    if len(least) == 1:
        return least[0]
    raise _d.TypePromotionError(_no_path_message(strict, nodes))


def _no_path_message(strict: bool, nodes: frozenset | tuple) -> str:
    names = tuple(dict.fromkeys(str(n) for n in nodes)) if isinstance(nodes, tuple) else tuple(sorted(map(str, nodes)))
    prefix = f"Input dtypes {names} have no available implicit dtype promotion path"
    if strict:
        return (f"{prefix} when jax_numpy_dtype_promotion=strict. Try explicitly casting inputs to the desired "
                "output type, or set jax_numpy_dtype_promotion=standard.")
    for group, what, example in ((_d.FLOAT8_DTYPES, "8-bit floats", "float32"),
                                 (_d.FLOAT6_DTYPES, "6-bit floats", "float32"),
                                 (_d.FLOAT4_DTYPES, "4-bit floats", "float32"),
                                 (_d.INTN_DTYPES, "1-bit, 2-bit and 4-bit integers", "int32")):
        if any(n in group for n in nodes if isinstance(n, np.dtype)):
            return (f"{prefix}. To avoid unintended promotion, {what} do not support implicit promotion. If you'd "
                    f"like your inputs to be promoted to another type, you can do so explicitly using e.g. "
                    f"x.astype('{example}')")
    return f"{prefix}. Try explicitly casting inputs to the desired output type."


def _is_strict() -> bool:
    return _config.numpy_dtype_promotion.value == _config.NumpyDtypePromotion.STRICT


def promote_types(a: Any, b: Any) -> np.dtype:
    """The dtype a binary operation on ``a`` and ``b`` computes in (``jnp.promote_types``).

    Python ``int``, ``float`` and ``complex`` are weak and keep the other side's width:
    ``promote_types('uint8', int) == uint8``. The result is not canonicalised.
    """
    node_a = _WEAK_NODE_OF_TYPE.get(a) if isinstance(a, type) else None
    node_b = _WEAK_NODE_OF_TYPE.get(b) if isinstance(b, type) else None
    lub = _least_upper_bound(_is_strict(), _config.x64_enabled(),
                             (node_a or np.dtype(a), node_b or np.dtype(b)))
    return np.dtype(lub.python_type) if isinstance(lub, _WeakNode) else lub


def _node(dt: np.dtype, weak: bool) -> Any:
    """The lattice node of a value of dtype ``dt``, weakly typed or not."""
    if not weak or dt == _d.bool_:
        return dt
    if dt in _d.CUSTOM_FLOAT_DTYPES or dt.kind == "f":
        return WEAK_FLOAT
    if dt.kind in "iu" or dt in _d.INTN_DTYPES:
        return WEAK_INT
    return WEAK_COMPLEX


def _dtype_and_weak_type(arg: Any) -> tuple[np.dtype, bool]:
    if arg is None:
        return _d.default_float_dtype(), False
    weak = arg is int or arg is float or arg is complex or (not isinstance(arg, type) and _d.is_weakly_typed(arg))
    return _d.dtype(arg), weak


def result_type(*args: Any, return_weak_type_flag: bool = False) -> np.dtype | tuple[np.dtype, bool]:
    """The dtype (and, on request, weak type) of an operation on ``args``, by JAX's promotion rules.

    Args may be dtypes, dtype names, Python scalars or their types (weak), NumPy
    arrays or scalars (strong), ``None`` (the default float dtype), or anything
    with a ``.dtype`` (weakly typed if its ``.aval.weak_type`` or ``.weak_type`` is True).
    The result is canonicalised; a weak result has the default dtype of its kind.
    """
    if not args:
        raise ValueError("at least one array or dtype is required")
    dtypes, weak_types = zip(*(_dtype_and_weak_type(arg) for arg in args))
    strict = _is_strict()
    if len(dtypes) == 1:
        out, weak = dtypes[0], weak_types[0]
    elif len(set(dtypes)) == 1 and not all(weak_types):
        out, weak = dtypes[0], False
    elif all(weak_types) and not strict:
        # Bound the strong counterparts, then mark weak: keeps e.g. weak int16 + weak int16 at int16's kind.
        lub = _least_upper_bound(strict, _config.x64_enabled(), frozenset(dtypes))
        out = _d.canonicalize_dtype(lub.python_type if isinstance(lub, _WeakNode) else lub)
        weak = True
    else:
        lub = _least_upper_bound(strict, _config.x64_enabled(), frozenset(map(_node, dtypes, weak_types)))
        weak = isinstance(lub, _WeakNode)
        out = _d.canonicalize_dtype(lub.python_type if weak else lub)
    weak = weak and out != _d.bool_
    if weak:
        out = _d.default_dtype_for_kind(out)
    return (out, weak) if return_weak_type_flag else out
