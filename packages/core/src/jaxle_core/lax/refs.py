"""Mutable array references (``jax.new_ref``, ``jax.Ref``, ``jax.ref``): the abstract value, the eager ``Ref``,
indexers and the primitives that read and write a reference.

A reference's abstract value is ``AbstractRef`` (printed ``Ref{f32[3]}``). Outside any transformation
``new_ref`` makes a ``Ref``, a host object holding an array that the reference primitives replace; staged, the
primitives become equations printed as JAX prints them (``c:f32[2] <- b[1:]``, ``b[0] <- 5.0:f32[]``,
``b[1,:] += c``). Before a staged program runs, the discharge pass (``jaxle_core.discharge``) turns each
reference into a value threaded through it; the eager primitives run through the same rules.
"""

from __future__ import annotations

import builtins
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jaxle_core import core, dtypes
from jaxle_core.avals import AbstractValue, ShapedArray, abstract_value_types, aval_handlers, get_aval
from jaxle_core.core import JaxprEqn, Primitive, Tracer
from jaxle_core.lax.structural import convert_element_type
from jaxle_core.mesh import PartitionSpec
from jaxle_core.pretty import Doc, PpContext, concat, pp_atom, pp_eqn_rules, text

__all__ = ["AbstractRef", "Ref", "Slice", "addupdate", "addupdate_p", "ds", "empty_ref", "empty_ref_p", "free_ref",
           "free_ref_p", "freeze", "freeze_p", "get", "get_p", "new_ref", "new_ref_p", "ref_set", "swap", "swap_p"]


# ---------------------------------------------------------------- the abstract value


class AbstractRef(AbstractValue):
    """The abstract value of a mutable reference to an array of ``inner_aval``."""

    __slots__ = ("inner_aval", "memory_space", "kind")

    def __init__(self, inner_aval: ShapedArray, memory_space: Any = None, kind: Any = None):
        self.inner_aval = inner_aval
        self.memory_space = memory_space
        self.kind = kind

    shape = property(lambda self: self.inner_aval.shape)
    dtype = property(lambda self: self.inner_aval.dtype)
    weak_type = property(lambda self: self.inner_aval.weak_type)
    ndim = property(lambda self: self.inner_aval.ndim)
    size = property(lambda self: self.inner_aval.size)

    def str_short(self, short_dtypes: bool = False) -> str:
        return f"Ref{{{self.inner_aval.str_short(short_dtypes)}}}"

    __str__ = str_short

    def __repr__(self) -> str:
        return self.str_short()

    def __eq__(self, other: object) -> bool:
        return (type(other) is AbstractRef and self.inner_aval == other.inner_aval
                and self.memory_space == other.memory_space)

    def __hash__(self) -> int:
        return hash((AbstractRef, self.inner_aval, self.memory_space))

    def strip_weak_type(self) -> AbstractRef:
        return AbstractRef(self.inner_aval.strip_weak_type(), self.memory_space, self.kind)

    def update(self, **changes: Any) -> AbstractRef:
        return AbstractRef(self.inner_aval.update(**changes), self.memory_space, self.kind)


abstract_value_types.append(AbstractRef)


def is_ref_aval(aval: Any) -> bool:
    return type(aval) is AbstractRef


def value_aval(aval: Any) -> Any:
    """The aval a reference's contents have (``aval`` itself for anything else)."""
    return aval.inner_aval if type(aval) is AbstractRef else aval


# ---------------------------------------------------------------- the eager reference


class _RefMeta(type):
    def __instancecheck__(cls, x: Any) -> bool:
        # As JAX's: a traced reference is a Ref too.
        return type.__instancecheck__(cls, x) or (isinstance(x, Tracer) and is_ref_aval(x.aval))


class Ref(metaclass=_RefMeta):
    """A mutable reference to an array (``jax.Ref``): made by ``new_ref``, read with ``ref[idx]``, written with
    ``ref[idx] = value``; the array it holds is replaced, never changed in place."""

    __slots__ = ("_value", "_aval", "__weakref__")

    def __init__(self, value: Any, aval: AbstractRef):
        self._value = value
        self._aval = aval

    aval = property(lambda self: self._aval)
    shape = property(lambda self: self._aval.shape)
    dtype = property(lambda self: self._aval.dtype)
    ndim = property(lambda self: self._aval.ndim)
    size = property(lambda self: self._aval.size)
    weak_type = property(lambda self: self._aval.weak_type)

    def __getitem__(self, index: Any) -> Any:
        return get(self, index)

    def __setitem__(self, index: Any, value: Any) -> None:
        ref_set(self, index, value)

    def addupdate(self, x: Any, idx: Any = ()) -> None:
        """Add ``x`` to ``self[idx]``."""
        addupdate(self, idx, x)

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __repr__(self) -> str:
        return "Ref(" + repr(self._value).removeprefix("Array(")


aval_handlers[Ref] = lambda ref: ref._aval
core.mutable_value_types.add(Ref)


def _ref_tracer_getitem(tracer: Tracer, index: Any) -> Any:
    return get(tracer, index)


def _ref_tracer_setitem(tracer: Tracer, index: Any, value: Any) -> None:
    ref_set(tracer, index, value)


core.aval_methods[AbstractRef] = {"__getitem__": _ref_tracer_getitem, "__setitem__": _ref_tracer_setitem,
                                  "addupdate": lambda tracer, x, idx=(): addupdate(tracer, idx, x)}


# ---------------------------------------------------------------- indexers


@dataclass(frozen=True, slots=True)
class Slice:
    """``size`` elements from ``start`` (an int or a traced integer scalar), every ``stride``-th: what ``jax.ds``
    makes, accepted wherever a reference is indexed."""

    start: Any
    size: int
    stride: int = 1

    def __repr__(self) -> str:
        return f"Slice(start={self.start!r}, size={self.size!r}, stride={self.stride!r})"


def ds(start: Any, size: int | None = None, stride: int | None = None) -> Slice:
    """A dynamic slice (``jax.ds``): ``size`` elements from ``start``; ``ds(n)`` is the first ``n``."""
    if size is None:
        start, size = 0, start
    return Slice(start, operator.index(size), 1 if stride is None else operator.index(stride))


@dataclass(frozen=True, slots=True)
class IndexDim:
    """How one dimension of a reference is indexed: ``kind`` is "int", "slice" or "array"; ``start`` is the static
    integer or slice start, None where the equation's next index operand gives it (a traced start or index
    array); ``size`` and ``stride`` describe a slice."""

    kind: str
    start: int | None
    size: int = 1
    stride: int = 1


Indexer = tuple[IndexDim, ...] | None  # None: the whole reference (``ref[...]``)


def _static_int(x: Any) -> int | None:
    """``x`` as a Python int when it is a concrete integer scalar (an int, a NumPy or concrete jaxle scalar)."""
    if isinstance(x, (bool, np.bool_)):
        return None
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, Tracer):
        return None
    shape, dtype = np.shape(x), getattr(x, "dtype", None)
    if shape == () and dtype is not None and np.issubdtype(dtype, np.integer):
        return int(x)
    return None


def _index_operand(x: Any) -> Any:
    """A traced or array index, checked as JAX checks indices."""
    aval = get_aval(x)
    if not np.issubdtype(aval.dtype, np.integer):
        raise TypeError(f"Indexer must have integer or boolean type, got indexer with type {aval.dtype}")
    return x


def to_indexer(shape: tuple[int, ...], index: Any) -> tuple[Indexer, list[Any]]:
    """The indexer of ``ref[index]`` on a reference of ``shape`` and its index operands."""
    if index is None or index is Ellipsis or (type(index) is tuple and all(i is Ellipsis for i in index)
                                              and len(index) < 2):
        return None, []
    items = index if isinstance(index, tuple) else (index,)
    if sum(1 for item in items if item is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    n_real = sum(1 for item in items if item is not Ellipsis)
    if n_real > len(shape):
        raise IndexError(f"Too many indices: array is {len(shape)}-dimensional, but {n_real} were indexed")
    fill = (builtins.slice(None),) * (len(shape) - n_real)
    at = next((k for k, item in enumerate(items) if item is Ellipsis), None)
    items = items + fill if at is None else items[:at] + fill + items[at + 1:]
    dims: list[tuple[IndexDim, Any]] = []  # each dimension's index and its operand (None: static)
    for item, size in zip(items, shape):
        if isinstance(item, builtins.slice):
            if item.step is not None and item.step < 1:
                raise ValueError(f"slice must have a step >= 1 (found: {item.step})")
            start, stop, step = item.indices(size)
            dims.append((IndexDim("slice", start, len(range(start, stop, step)), step), None))
        elif isinstance(item, Slice):
            start = _static_int(item.start)
            operand = None if start is not None else _index_operand(item.start)
            dims.append((IndexDim("slice", start, item.size, item.stride), operand))
        elif item is None:
            raise TypeError("Indexing a reference with None (a new axis) is not supported")
        else:
            static = _static_int(item)
            if static is not None:
                dims.append((IndexDim("int", static), None))
                continue
            kind = "int" if get_aval(item).ndim == 0 else "array"
            dims.append((IndexDim(kind, None), _index_operand(item)))
    array_shapes = [get_aval(operand).shape for d, operand in dims if d.kind == "array"]
    if array_shapes:
        # As JAX: with integer arrays among the indices, the integers become arrays of their broadcast shape.
        common = np.broadcast_shapes(*array_shapes)
        dims = [(IndexDim("array", None), broadcast_to(np.int32(d.start) if operand is None else operand, common))
                if d.kind == "int" else (d, operand) for d, operand in dims]
    return tuple(d for d, _ in dims), [operand for _, operand in dims if operand is not None]


def _array_shapes(indexer: Indexer, operand_avals: Sequence[Any]) -> list[tuple[int, ...]]:
    shapes, operands = [], iter(operand_avals)
    for d in indexer:
        dynamic = d.start is None
        aval = next(operands) if dynamic else None
        if d.kind == "array":
            shapes.append(aval.shape)
        elif d.kind == "int":
            shapes.append(())
    return shapes


def indexed_shape(shape: tuple[int, ...], indexer: Indexer, operand_avals: Sequence[Any]) -> tuple[int, ...]:
    """The shape of ``ref[indexer]`` (NumPy's rules: integer arrays, with the integers among them, broadcast
    together and stand where they are when adjacent, first otherwise)."""
    if indexer is None:
        return tuple(shape)
    if not any(d.kind == "array" for d in indexer):
        return tuple(d.size for d in indexer if d.kind == "slice")
    advanced = [i for i, d in enumerate(indexer) if d.kind != "slice"]
    broadcast = np.broadcast_shapes(*_array_shapes(indexer, operand_avals))
    sizes = [d.size for d in indexer]
    if advanced == list(range(advanced[0], advanced[-1] + 1)):
        before = [sizes[i] for i in range(advanced[0]) if indexer[i].kind == "slice"]
        after = [sizes[i] for i in range(advanced[-1] + 1, len(indexer)) if indexer[i].kind == "slice"]
        return tuple(before) + tuple(broadcast) + tuple(after)
    return tuple(broadcast) + tuple(sizes[i] for i, d in enumerate(indexer) if d.kind == "slice")


def _describe_transforms(shape: tuple[int, ...], indexer: Indexer, operand_avals: Sequence[Any]) -> str:
    """The indexer as JAX's messages show it."""
    if indexer is None:
        return "()"
    operands, parts = iter(operand_avals), []
    for d in indexer:
        start = repr(next(operands)) if d.start is None else d.start
        parts.append(f"Slice(start={start}, size={d.size}, stride={d.stride})" if d.kind == "slice" else str(start))
    int_shapes = _array_shapes(indexer, operand_avals)
    int_shape = np.broadcast_shapes(*int_shapes) if int_shapes else ()
    return (f"(NDIndexer(indices=({', '.join(parts)}{',' if len(parts) == 1 else ''}), shape={shape}, "
            f"int_indexer_shape={int_shape}, validate=False),)")


# ---------------------------------------------------------------- primitives


class RefPrimitive(Primitive):
    """A primitive on references. Evaluated eagerly it runs its discharge rule on the references' arrays and
    stores what the rule writes back (``jaxle_core.discharge.apply_eagerly``)."""

    def bind(self, *args, **params):
        if core.evaluates_eagerly(args):
            from jaxle_core.discharge import apply_eagerly  # local: discharge imports this module

            return apply_eagerly(self, args, params)
        return super().bind(*args, **params)


def _check_ref(name: str, aval: Any) -> AbstractRef:
    if not is_ref_aval(aval):
        raise ValueError(f"`{name}` must be called on `Ref` types: {aval}.")
    return aval


new_ref_p = RefPrimitive("new_ref")
empty_ref_p = RefPrimitive("empty_ref")
get_p = RefPrimitive("get")
swap_p = RefPrimitive("swap")
swap_p.effectful = True
addupdate_p = RefPrimitive("addupdate")
addupdate_p.multiple_results = True
addupdate_p.effectful = True
freeze_p = RefPrimitive("freeze")
free_ref_p = RefPrimitive("free_ref")
free_ref_p.multiple_results = True
free_ref_p.effectful = True

# The primitives whose operands or results are references: a jaxpr holding one must be discharged before it runs.
ref_primitives = {new_ref_p, empty_ref_p, get_p, swap_p, addupdate_p, freeze_p, free_ref_p}


@new_ref_p.def_abstract_eval
def _new_ref_aval(aval: ShapedArray, *, kind: Any, memory_space: Any) -> AbstractRef:
    if is_ref_aval(aval):
        raise TypeError(f"new_ref: a reference cannot hold a reference, got {aval}")
    return AbstractRef(aval, memory_space, kind)


@empty_ref_p.def_abstract_eval
def _empty_ref_aval(*, ty: ShapedArray, memory_space: Any) -> AbstractRef:
    return AbstractRef(ty, memory_space)


def _check_laid_out_index(ref: AbstractRef, indexer: Indexer) -> None:
    """JAX's refusal of an index that would change the layout of a reference laid out over Explicit mesh axes: an
    integer (or integer array) index, or a slice of part of a split dimension."""
    sharding = getattr(ref.inner_aval, "explicit_sharding", None)
    if indexer is None or sharding is None or all(p is None for p in sharding.spec):
        return
    if any(d.kind != "slice" for d in indexer):
        raise TypeError("sharded ref (array reference) can only be indexed by slices, not integers")
    for axis, (d, size, split) in enumerate(zip(indexer, ref.shape, sharding.spec)):
        if split is not None and (d.start, d.size, d.stride) != (0, size, 1):
            raise ValueError("sharded ref (array reference) can only be sliced along unsharded axes, but ref of "
                             f"shape {tuple(ref.shape)} was sliced on axis {axis}, which is sharded like {split}")


def _indexed_aval(ref: AbstractRef, indexer: Indexer, index_avals: Sequence[Any]) -> ShapedArray:
    """The type of ``ref[indexer]``: over Explicit mesh axes, laid out as the reference (the split dimensions are
    whole, ``_check_laid_out_index``), as JAX's."""
    shape = indexed_shape(ref.shape, indexer, index_avals)
    sharding = getattr(ref.inner_aval, "explicit_sharding", None)
    if sharding is not None:
        kept = sharding.spec if indexer is None else [p for p, d in zip(sharding.spec, indexer) if d.kind == "slice"]
        spec = kept if len(kept) == len(shape) else [None] * len(shape)  # integer arrays index unsplit dimensions
        sharding = sharding.update(spec=PartitionSpec(*spec))
    return ShapedArray(shape, ref.dtype, ref.weak_type, sharding=sharding)


@get_p.def_abstract_eval
def _get_aval(ref: Any, *index_avals: Any, indexer: Indexer) -> ShapedArray:
    ref = _check_ref("get", ref)
    _check_laid_out_index(ref, indexer)
    return _indexed_aval(ref, indexer, index_avals)


def _check_update(name: str, ref: Any, value: Any, indexer: Indexer, index_avals: Sequence[Any]) -> ShapedArray:
    ref = _check_ref(name, ref)
    _check_laid_out_index(ref, indexer)
    expected = indexed_shape(ref.shape, indexer, index_avals)
    if tuple(value.shape) != expected:
        raise ValueError(f"Invalid shape for `{name}`. Ref shape: {ref.shape}. Expected shape: {expected}. "
                         f"Value shape: {tuple(value.shape)}. "
                         f"Transforms: {_describe_transforms(ref.shape, indexer, index_avals)}. ")
    if value.dtype != ref.dtype:
        raise ValueError(f"Invalid dtype for `{name}`. Ref dtype: {ref.dtype}. Value dtype: {value.dtype}. ")
    return _indexed_aval(ref, indexer, index_avals)


@swap_p.def_abstract_eval
def _swap_aval(ref: Any, value: Any, *index_avals: Any, indexer: Indexer) -> ShapedArray:
    return _check_update("swap", ref, value, indexer, index_avals)


@addupdate_p.def_abstract_eval
def _addupdate_aval(ref: Any, value: Any, *index_avals: Any, indexer: Indexer) -> list:
    _check_update("addupdate", ref, value, indexer, index_avals)
    return []


@freeze_p.def_abstract_eval
def _freeze_aval(ref: Any) -> ShapedArray:
    return _check_ref("freeze", ref).inner_aval


@free_ref_p.def_abstract_eval
def _free_ref_aval(ref: Any) -> list:
    _check_ref("free_ref", ref)
    return []


broadcast_to_p = RefPrimitive("broadcast_to")
ref_primitives.add(broadcast_to_p)


@broadcast_to_p.def_abstract_eval
def _broadcast_to_aval(aval: ShapedArray, *, shape: tuple[int, ...]) -> ShapedArray:
    return ShapedArray(shape, aval.dtype, aval.weak_type)


def broadcast_to(x: Any, shape: tuple[int, ...]) -> Any:
    """``x`` broadcast to ``shape``: how an integer index joins integer array indices (staged as JAX stages it)."""
    return broadcast_to_p.bind(x, shape=tuple(shape))


# ---------------------------------------------------------------- printing


def _pp_index(eqn: JaxprEqn, ref_position: int, first_index: int, context: PpContext) -> Doc:
    """``b[1:]``, ``b[0,c]``, ``b[d:d+2]`` or ``b[...]``, as JAX prints a reference's indexer."""
    ref = pp_atom(eqn.invars[ref_position], context)
    indexer = eqn.params["indexer"]
    if indexer is None:
        return ref + text("[...]")
    operands = iter(eqn.invars[first_index:])
    shape = eqn.invars[ref_position].aval.shape
    parts = []
    for d, size in zip(indexer, shape):
        if d.start is None:
            operand = next(operands)
            name = context.name(operand) if isinstance(operand, core.Var) else str(np.asarray(operand.val).item())
            parts.append(f"{name}:{name}+{d.size}" if d.kind == "slice" else name)
        elif d.kind == "slice":
            stop = d.start + d.size
            parts.append(f"{d.start or ''}:{stop if stop != size else ''}")
        else:
            parts.append(str(d.start))
    return ref + text(f"[{','.join(parts)}]")


def _pp_get(eqn: JaxprEqn, context: PpContext) -> Doc:
    out = eqn.outvars[0]
    lhs = text(f"{context.name(out)}:{out.aval.str_short(short_dtypes=True)} <- ")
    return concat([lhs, _pp_index(eqn, 0, 1, context)])


def _pp_swap(eqn: JaxprEqn, context: PpContext) -> Doc:
    out = eqn.outvars[0]
    target = _pp_index(eqn, 0, 2, context)
    value = pp_atom(eqn.invars[1], context)
    # a plain write where the old value is an unread output of the printed jaxpr itself, named ``_`` up front (as
    # JAX decides: a dropped output, a nested jaxpr's unread one, prints in full)
    if context.var_names.get(out) == "_":
        return concat([target, text(" <- "), value])
    lhs = text(f"{context.name(out)}:{out.aval.str_short(short_dtypes=True)}, ")
    return concat([lhs, target, text(" <- "), _pp_index(eqn, 0, 2, context), text(", "), value])


def _pp_addupdate(eqn: JaxprEqn, context: PpContext) -> Doc:
    return concat([_pp_index(eqn, 0, 2, context), text(" += "), pp_atom(eqn.invars[1], context)])


pp_eqn_rules[get_p] = _pp_get
pp_eqn_rules[swap_p] = _pp_swap
pp_eqn_rules[addupdate_p] = _pp_addupdate


# ---------------------------------------------------------------- public functions


def new_ref(init_val: Any, *, memory_space: Any = None, kind: str | None = None) -> Ref:
    """A new mutable reference holding ``init_val`` (``jax.new_ref``)."""
    return new_ref_p.bind(init_val, kind=kind, memory_space=memory_space)


def empty_ref(ty: Any, memory_space: Any = None) -> Ref:
    """A new reference of the shape and dtype of ``ty`` (a ``ShapeDtypeStruct`` or aval) whose contents are not
    set."""
    aval = ShapedArray(tuple(ty.shape), dtypes.canonicalize_dtype(ty.dtype), bool(getattr(ty, "weak_type", False)))
    return empty_ref_p.bind(ty=aval, memory_space=memory_space)


def freeze(ref: Any) -> Any:
    """The array ``ref`` holds (``jax.freeze``)."""
    return freeze_p.bind(ref)


def free_ref(ref: Any) -> tuple:
    """Release ``ref``; it must not be used afterwards."""
    return tuple(free_ref_p.bind(ref))


def get(ref: Any, idx: Any = None) -> Any:
    """``ref[idx]``: the indexed part of the array ``ref`` holds."""
    indexer, operands = to_indexer(get_aval(ref).shape, idx)
    return get_p.bind(ref, *operands, indexer=indexer)


def _implicit_cast(dtype: np.dtype, value: Any) -> Any:
    """``value`` as ``swap`` writes it, as JAX's: a weakly typed float written into a float reference, and any
    integer into an integer one, converted to the reference's dtype first."""
    try:
        aval = get_aval(value)
    except TypeError:
        return value
    if type(aval) is not ShapedArray:
        return value
    floats = dtypes.issubdtype(dtype, np.floating) and dtypes.issubdtype(aval.dtype, np.floating)
    integers = dtypes.issubdtype(dtype, np.integer) and dtypes.issubdtype(aval.dtype, np.integer)
    # JAX 0.10.2 asks for the weak type of floats only
    if (aval.weak_type and floats) or integers:
        return convert_element_type(value, dtype)
    return value


def swap(ref: Any, idx: Any, value: Any) -> Any:
    """Write ``value`` to ``ref[idx]`` and return what was there."""
    aval = get_aval(ref)
    indexer, operands = to_indexer(aval.shape, idx)
    return swap_p.bind(ref, _implicit_cast(aval.dtype, value), *operands, indexer=indexer)


def ref_set(ref: Any, idx: Any, value: Any) -> None:
    """``ref[idx] = value`` (``jax.ref.set``)."""
    swap(ref, idx, value)


def addupdate(ref: Any, idx: Any, x: Any) -> None:
    """``ref[idx] += x``, as one operation."""
    indexer, operands = to_indexer(get_aval(ref).shape, idx)
    addupdate_p.bind(ref, x, *operands, indexer=indexer)
