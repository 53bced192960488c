"""Abstract values: what tracing knows about an array (shape, dtype, weak type, and inside ``shard_map`` the mesh
axes it varies over)."""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from jaxle_core import config, dtypes, memory_spaces
from jaxle_core.layout import Format
from jaxle_core.memory_spaces import MemorySpace
from jaxle_core.shape_poly import DimExpr
from jaxle_core.sharding import NamedSharding, Sharding


def canonicalize_shape(shape: Any) -> tuple[int, ...]:
    """``shape`` (a Python int or a sequence) as a tuple of Python ints (or symbolic dimensions); each size must
    be an integer (``operator.index``), or TypeError."""
    if isinstance(shape, int):
        shape = (shape,)
    try:
        return tuple(d if type(d) is DimExpr else operator.index(d) for d in shape)
    except TypeError:
        pass  # a float, string or traced size: reported as JAX reports it, not as the conversion failed
    iter(shape)  # a shape that is no sequence (None, a NumPy scalar) gets Python's own TypeError, as in JAX
    raise TypeError(f"Shapes must be 1D sequences of concrete values of integer type, got {shape}.")


class AbstractValue:
    """What tracing knows of a value without its contents: the base of ``ShapedArray`` and the token's type."""

    __slots__ = ()


class ManualAxisType:
    """How a value inside ``shard_map`` relates to the manual mesh axes: the axes it varies over (the others hold
    the same value on every device), and those it is (un)reduced over."""

    __slots__ = ("varying", "unreduced", "reduced")

    def __init__(self, *, varying=frozenset(), unreduced=frozenset(), reduced=frozenset()):
        self.varying, self.unreduced, self.reduced = frozenset(varying), frozenset(unreduced), frozenset(reduced)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ManualAxisType) and (self.varying, self.unreduced, self.reduced) == (
            other.varying, other.unreduced, other.reduced)

    def __hash__(self) -> int:
        return hash((self.varying, self.unreduced, self.reduced))

    def __repr__(self) -> str:
        return f"ManualAxisType(varying={self.varying}, unreduced={self.unreduced}, reduced={self.reduced})"


NO_VMA: frozenset = frozenset()


class MeshOrderedAxes(frozenset):
    """Mesh axes that remember the order of the mesh they were made manual in, so that a type prints them in that
    order wherever it is printed (as JAX's types, which keep their mesh); equal to the plain set."""

    mesh_order: tuple = ()

    def __repr__(self) -> str:
        return repr(frozenset(self))


def in_mesh_order(axes: frozenset, mesh_axes: tuple) -> frozenset:
    """``axes`` remembering the order of ``mesh_axes`` (when they name them all)."""
    if not axes or type(axes) is MeshOrderedAxes or not axes <= frozenset(mesh_axes):
        return axes
    ordered = MeshOrderedAxes(axes)
    ordered.mesh_order = tuple(a for a in mesh_axes if a in axes)
    return ordered


def _context_axes() -> tuple:
    from jaxle_core.mesh import get_abstract_mesh  # local: the mesh builds on avals

    return get_abstract_mesh().axis_names


def vma_order(axes: frozenset) -> list:
    """``axes`` in the order of the mesh they were made manual in, else of the context mesh (as types print them),
    the others after, by name."""
    if type(axes) is MeshOrderedAxes:
        return list(axes.mesh_order)
    names = _context_axes()
    return sorted(axes, key=lambda a: (names.index(a), "") if a in names else (len(names), str(a)))


def _axes_text(kind: str, names: list) -> str:
    return f"{kind}:{names[0]}" if len(names) == 1 else f"{kind}:({','.join(names)})"


def vma_text(axes: frozenset, unreduced: frozenset = NO_VMA, reduced: frozenset = NO_VMA,
             mesh_axes: tuple = ()) -> str:
    """``{V:i}``, ``{V:(i,j)}``, ``{U:y, R:z}``: how a type shows the mesh axes it varies over, is unreduced over
    (a partial sum awaiting its reduction) and is reduced over (nothing when none). Axes are listed in the order
    of ``mesh_axes`` (an Explicit layout's mesh), else of the context mesh."""
    if not (axes or unreduced or reduced):
        return ""

    def ordered_names(group: frozenset) -> list:
        if mesh_axes:
            return [str(a) for a in sorted(group, key=lambda a: mesh_axes.index(a) if a in mesh_axes else len(
                mesh_axes))]
        return [str(a) for a in vma_order(group)]

    parts = [_axes_text(kind, ordered_names(group)) for kind, group in (("V", axes), ("U", unreduced),
                                                                          ("R", reduced)) if group]
    return "{" + ", ".join(parts) + "}"


def _dimension_text(size: Any, entry: Any) -> str:
    """One dimension of a type: ``8``, or with the Explicit mesh axes splitting it ``8@x`` / ``8@(x,y)``."""
    if entry is None:
        return str(size)
    axes = entry if isinstance(entry, tuple) else (entry,)
    return f"{size}@{axes[0]}" if len(axes) == 1 else f"{size}@({','.join(map(str, axes))})"


_KEEP: Any = object()  # ``update``'s default for the sharding: the aval's own


class ShapedArray(AbstractValue):
    """An array known only by its shape, dtype and weak-typedness; inside a ``shard_map`` checking types
    (``check_vma=True``) also by the manual mesh axes it varies over (``vma``); over a mesh with Explicit axes also
    by its layout (``explicit_sharding``: a NamedSharding over the abstract mesh, its spec one entry per dimension
    naming Explicit axes only; None everywhere else, so that tracing without such a mesh never looks further); and by
    the memory space it lives in (``memory_space``: ``MemorySpace.Device`` unless it is in host memory).

    The type of an Array laid out over a mesh of Auto axes (and of a traced argument taking it) names that mesh
    (``auto_mesh``, its abstract mesh; reported by ``sharding`` with no axis named), as JAX's types do, and is part
    of the type's identity as in JAX (see auto_mesh_types.py)."""

    __slots__ = ("shape", "dtype", "weak_type", "vma", "_hash", "explicit_sharding", "memory_space", "unreduced",
                 "reduced", "auto_mesh")
    array_abstraction_level = 1

    def __init__(self, shape, dtype, weak_type: bool = False, vma: frozenset = NO_VMA, sharding: Any = None,
                 memory_space: MemorySpace = MemorySpace.Device, unreduced: frozenset = NO_VMA,
                 reduced: frozenset = NO_VMA, auto_mesh: Any = None):
        shape = tuple(shape)
        # Shapes come from jaxle's own rules as ints; anything else is checked (and converted) once here.
        for d in shape:
            if type(d) is not int:
                shape = canonicalize_shape(shape)
                break
        self.shape = shape
        self.dtype = dtype if isinstance(dtype, (np.dtype, dtypes.ExtendedDType)) else np.dtype(dtype)
        self.weak_type = bool(weak_type)
        self.vma = vma if not vma or type(vma) is MeshOrderedAxes else in_mesh_order(vma, _context_axes())
        self._hash = None
        self.explicit_sharding = sharding
        self.memory_space = memory_space
        self.auto_mesh = auto_mesh
        if memory_space is not MemorySpace.Device:
            memory_spaces.enable()
        # the manual axes the value is unreduced over (a partial sum) and reduced over (see unreduced_types.py)
        self.unreduced = unreduced
        self.reduced = reduced

    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: math.prod(self.shape))  # symbolic for symbolic shapes

    @property
    def sharding(self) -> Any:
        """How the array is laid out: its ``explicit_sharding``, else as JAX's avals say outside any mesh,
        replicated over the empty abstract mesh (``NamedSharding(AbstractMesh(()), P(None, ...))``)."""
        if self.explicit_sharding is not None:
            return self.explicit_sharding
        from jaxle_core.mesh import AbstractMesh, PartitionSpec  # local: mesh and sharding build on avals
        from jaxle_core.sharding import NamedSharding

        mesh = AbstractMesh((), ()) if self.auto_mesh is None else self.auto_mesh
        return NamedSharding(mesh, PartitionSpec(*[None] * len(self.shape)))

    @property
    def manual_axis_type(self) -> ManualAxisType:
        return ManualAxisType(varying=self.vma, unreduced=self.unreduced, reduced=self.reduced)

    mat = manual_axis_type  # JAX's short name

    def update(self, shape=None, dtype=None, weak_type=None, vma=None, sharding=_KEEP, memory_space=None,
               unreduced=None, reduced=None, auto_mesh=_KEEP) -> ShapedArray:
        """A copy with the given fields replaced; a new shape drops the layout and the Auto mesh (a block, a batch:
        it no longer says how the whole is laid out)."""
        reshaped = shape is not None and tuple(shape) != self.shape
        if sharding is _KEEP:
            sharding = None if reshaped else self.explicit_sharding
        if auto_mesh is _KEEP:
            auto_mesh = None if reshaped else self.auto_mesh
        return ShapedArray(
            self.shape if shape is None else shape,
            self.dtype if dtype is None else dtype,
            self.weak_type if weak_type is None else weak_type,
            self.vma if vma is None else vma,
            sharding,
            self.memory_space if memory_space is None else memory_space,
            self.unreduced if unreduced is None else unreduced,
            self.reduced if reduced is None else reduced,
            auto_mesh,
        )

    def to_tangent_aval(self) -> ShapedArray:
        """The type of tangents to values of this type (``float0`` for integers and booleans)."""
        from jaxle_core.ad.jvp import tangent_aval  # local: differentiation is a layer above the types

        return tangent_aval(self)

    def strip_weak_type(self) -> ShapedArray:
        return self.update(weak_type=False) if self.weak_type else self

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is ShapedArray
            and self.shape == other.shape
            and self.dtype == other.dtype
            and self.weak_type == other.weak_type
            and self.vma == other.vma
            and self.explicit_sharding == other.explicit_sharding
            and self.memory_space is other.memory_space
            and self.unreduced == other.unreduced
            and self.reduced == other.reduced
            and self.auto_mesh == other.auto_mesh
        )

    def __hash__(self) -> int:
        # Avals key every jit and dispatch cache lookup; they never change, so hash once.
        if self._hash is None:
            self._hash = hash((self.shape, self.dtype, self.weak_type, self.vma, self.explicit_sharding,
                               self.memory_space, self.unreduced, self.reduced, self.auto_mesh))
        return self._hash

    def str_short(self, short_dtypes: bool = False, mesh_axis_types: bool = False) -> str:
        """The type's short text (``f32[3]``); ``mesh_axis_types``: followed by its mesh's axes by type, as JAX's
        (``f32[3]({})`` outside any mesh)."""
        name = dtypes.short_dtype_name(self.dtype) if short_dtypes else self.dtype.name
        if self.memory_space is not MemorySpace.Device:
            name = f"{name}<{self.memory_space.name.lower()}>"
        mesh_axes = f"({_axes_by_type(self.sharding.mesh)})" if mesh_axis_types else ""
        if self.explicit_sharding is None:
            axes = vma_text(self.vma, self.unreduced, self.reduced)
            return f"{name}[{','.join(str(d) for d in self.shape)}]{axes}{mesh_axes}"
        spec = self.explicit_sharding.spec
        dims = map(_dimension_text, self.shape, spec)
        axes = vma_text(self.vma, spec.unreduced | self.unreduced, spec.reduced | self.reduced,
                        self.explicit_sharding.mesh.axis_names)
        return f"{name}[{','.join(dims)}]{axes}{mesh_axes}"

    def __str__(self) -> str:
        """The type as ``jax.typeof`` shows it: a weakly typed value's is marked with ``~`` (``~float32[]``)."""
        return f"~{self.str_short()}" if self.weak_type else self.str_short()

    def __repr__(self) -> str:
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapedArray({self.str_short()}{weak})"


def _axes_by_type(mesh: Any) -> dict:
    """A mesh's axis names grouped by their type, as JAX prints them in a type (``{Explicit: ('x',)}``)."""
    grouped: dict = {}
    for name, axis_type in zip(mesh.axis_names, mesh.axis_types):
        grouped.setdefault(axis_type, []).append(name)
    return {axis_type: tuple(names) for axis_type, names in grouped.items()}


class ShapeDtypeStruct:
    """A shape and dtype standing in for an array, as ``eval_shape`` returns."""

    __slots__ = ("shape", "dtype", "weak_type", "sharding", "format")

    def __init__(self, shape, dtype, *, weak_type: bool = False, sharding: Any = None):
        """``sharding``: a Sharding, or a ``Format`` (a memory layout with its sharding)."""
        if dtype is None:
            raise ValueError("ShapeDtypeStruct: dtype must be specified.")
        self.shape = tuple(shape)
        self.dtype = dtype if isinstance(dtype, dtypes.ExtendedDType) else np.dtype(dtype)
        self.weak_type = weak_type
        if isinstance(sharding, Format):
            self.format, self.sharding = sharding, sharding.sharding
        else:
            self.sharding = sharding
            self.format = Format(None, sharding if isinstance(sharding, Sharding) else None)

    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: math.prod(self.shape))  # symbolic for symbolic shapes

    def __repr__(self) -> str:
        weak = ", weak_type=True" if self.weak_type else ""
        sharding = "" if self.sharding is None else f", sharding={self.sharding}"
        layout = "" if self.format.layout is None else f", format={self.format.layout}"  # JAX prints the layout
        return f"ShapeDtypeStruct(shape={self.shape}, dtype={self.dtype.name}{sharding}{layout}{weak})"

    @classmethod
    def of(cls, aval: ShapedArray) -> ShapeDtypeStruct:
        """The struct describing ``aval`` (with its type's layout over Explicit mesh axes, as JAX's)."""
        return cls(aval.shape, aval.dtype, weak_type=aval.weak_type, sharding=aval.explicit_sharding)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ShapeDtypeStruct)
            and (self.shape, self.dtype, self.weak_type) == (other.shape, other.dtype, other.weak_type)
        )

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype, self.weak_type))


# A Python scalar's aval depends only on its type and the x64 flag; built once each (on every jitted call with a
# scalar argument and every promotion of one).
_scalar_avals: dict[tuple[type, bool], ShapedArray] = {}


def _scalar_aval(x) -> ShapedArray:
    key = (type(x), config.x64_enabled())
    aval = _scalar_avals.get(key)
    if aval is None:
        aval = _scalar_avals[key] = ShapedArray((), dtypes.dtype(type(x), canonicalize=True),
                                                weak_type=type(x) is not bool)
    return aval


def _numpy_aval(x) -> ShapedArray:
    if not dtypes.is_valid_dtype(x.dtype):  # strings, datetimes, objects, void, long double
        raise TypeError(f"Value '{x}' with dtype {x.dtype} is not a valid JAX array type. "
                        "Only arrays of numeric types are supported by JAX.")
    return ShapedArray(x.shape, dtypes.canonicalize_dtype(x.dtype))


class AvalProperties:
    """What arrays and tracers read off their abstract value ``aval`` (which each subclass provides): ``shape``,
    ``dtype``, ``ndim``, ``size``, ``weak_type`` and ``len()``."""

    __slots__ = ()

    @property
    def aval(self) -> ShapedArray:
        raise NotImplementedError

    shape = property(lambda self: self.aval.shape)
    dtype = property(lambda self: self.aval.dtype)
    ndim = property(lambda self: self.aval.ndim)
    size = property(lambda self: self.aval.size)
    weak_type = property(lambda self: self.aval.weak_type)

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]


# Types whose aval is computed directly; jaxle's own array and tracer types
# register themselves here (they carry an ``aval``).
aval_handlers: dict[type, Any] = {
    bool: _scalar_aval,
    int: _scalar_aval,
    float: _scalar_aval,
    complex: _scalar_aval,
    np.ndarray: _numpy_aval,
}
for _t in (np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
           np.float16, np.float32, np.float64, np.complex64, np.complex128):
    aval_handlers[_t] = _numpy_aval


# Abstract values other than ShapedArray that values may carry (tokens register theirs).
abstract_value_types: list[type] = [ShapedArray]


class InvalidInputException(TypeError):
    """The TypeError JAX raises (under this name) for a primal of ``vjp`` that is not an array."""


def not_a_jax_type(x: Any, full_stop: bool = False, exception: type[TypeError] = TypeError) -> TypeError:
    """JAX's TypeError (or ``exception``) for a value that is not an array. JAX's argument checks (a jit call's,
    grad's, vjp's) end the message with a full stop; ``typeof`` (vmap's, jvp's, a custom_vjp's) does not, and quotes
    the type of anything but a string (``of type '<class 'bytes'>'``)."""
    kind = type(x) if full_stop or isinstance(x, str) else f"'{type(x)}'"
    return exception(f"Argument '{x}' of type {kind} is not a valid JAX type{'.' if full_stop else ''}")


def get_aval(x: Any) -> ShapedArray:
    """The abstract value of an array-like; a TypeError for anything else."""
    handler = aval_handlers.get(type(x))
    if handler is not None:
        return handler(x)
    aval = getattr(x, "aval", None)
    if type(aval) in abstract_value_types:
        return aval
    if isinstance(x, np.generic) and dtypes.is_valid_dtype(x.dtype):
        return _numpy_aval(x)
    if isinstance(x, (bool, int, float, complex)):
        return _scalar_aval(x)
    raise not_a_jax_type(x)


def abstract_argument_aval(x: Any) -> ShapedArray:
    """The aval of an array, or of any other object with ``shape`` and ``dtype`` (a ``ShapeDtypeStruct``, a user's
    class; ``weak_type`` is read when present, and a ``sharding`` over Explicit mesh axes types it): the abstract
    arguments that ``eval_shape``, ``make_jaxpr``, ``jit(f).trace``/``.lower`` and ``linear_transpose`` accept. A
    TypeError for anything else."""
    try:
        return get_aval(x)
    except TypeError:
        shape, dtype = getattr(x, "shape", None), getattr(x, "dtype", None)
        if shape is None or dtype is None or isinstance(x, (np.ndarray, np.generic)):
            raise
        if not isinstance(dtype, dtypes.ExtendedDType):
            dtype = np.dtype(dtype)  # a TypeError for a name NumPy does not know
        if not dtypes.is_valid_dtype(dtype):
            raise
        aval = ShapedArray(canonicalize_shape(shape), dtypes.canonicalize_dtype(dtype),
                           bool(getattr(x, "weak_type", False)))
        sharding = getattr(x, "sharding", None)
        if sharding is None:
            return aval
        from jaxle_core.sharding_types import typed_aval  # local: sharding in types builds on avals

        if isinstance(sharding, NamedSharding):  # as JAX's, a layout over a mesh types its memory (one device's not)
            aval = aval.update(memory_space=memory_spaces.space_of_kind(sharding.memory_kind))
        return typed_aval(aval, sharding)


def python_int_fits(x: int) -> bool:
    """Whether a Python int fits the default integer dtype (int32, or int64 with x64) it is passed as."""
    bound = _INT64_BOUND if config.x64_enabled() else _INT32_BOUND
    return -bound <= x < bound


_INT32_BOUND, _INT64_BOUND = 2**31, 2**63


def argument_avals(fun: Any, args: list, arg_names: Any, abstractify: Any = get_aval) -> tuple[ShapedArray, ...]:
    """The avals of a traced function's flat arguments. A value that is not an array gets JAX's TypeError naming
    its path among the arguments; ``arg_names()`` lists those paths and is only called then."""
    avals = []
    for i, x in enumerate(args):
        if type(x) is int and not python_int_fits(x):
            raise OverflowError(f"An overflow was encountered while parsing an argument to a jitted computation, "
                                f"whose argument path is {arg_names()[i]}. Got {int} with value {x}")
        try:
            avals.append(abstractify(x))
        except TypeError:
            raise TypeError(
                f"Error interpreting argument to {fun} as an abstract array. The problematic value is of type "
                f"{type(x)} and was passed to the function at path {arg_names()[i]}.\nThis typically means that a "
                "jit-wrapped function was called with a non-array argument, and this argument was not marked as "
                "static using the static_argnums or static_argnames parameters of jax.jit.") from None
    return tuple(avals)


def is_array_like(x: Any) -> bool:
    try:
        get_aval(x)
    except TypeError:
        return False
    return True
