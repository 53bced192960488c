"""Argument checks and dtype promotion shared by every jnp function.

jnp functions accept arrays, tracers, NumPy arrays and scalars, and Python
scalars; lists and tuples are refused (as in JAX) except where a function
documents otherwise. Mixed operands are promoted with JAX's lattice (weak
types respected) and, for elementwise functions, to a common rank.
"""

from __future__ import annotations

import functools
import inspect
import operator
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import jaxle_tree as tree
from jaxle_core import config, dtypes, trace_warnings
from jaxle_core.array import Array
from jaxle_core.auto_mesh_types import check_context_mesh
from jaxle_core.avals import ShapedArray, argument_avals, get_aval
from jaxle_core.backend import current_backend, put_host_value
from jaxle_core.core import EvalTrace, Tracer, concrete_value, current_trace, mark_inline
from jaxle_core.device_mismatch import is_device_mismatch, named_by_call
from jaxle_core.jit import JitWrapped, backend_function, flat_argument_names, jit
from jaxle_core.lax import structural as lax_structural
from jaxle_core.lax.placement import check_auto_axes_only, note_staged_at, staged_device_put
from jaxle_core.lax.structural import convert_element_type_p
from jaxle_core.memory_spaces import MemorySpace
from jaxle_core.mesh import PartitionSpec, get_abstract_mesh, get_mesh
from jaxle_core.shape_poly import is_symbolic_dim
from jaxle_core.sharding import NamedSharding
from jaxle_core.sharding_types import check_type_divides, typed_aval, untyped
from jaxle_core.source_info import current, summarize
from jaxle_core.staging import StagingTrace, made_while_staging, transforms_eager_code

__all__ = ["is_arraylike", "check_arraylike", "check_scalar_arraylike", "ensure_arraylike", "eager_array",
           "promote_dtypes", "promote_shapes",
           "promote_args",
           "promote_dtypes_inexact", "promote_args_inexact", "promote_dtypes_numeric", "promote_args_numeric",
           "canonicalize_axis", "optional_index", "ensure_array", "invalid_value_error", "requested_dtype", "named_jit",
           "concrete_index",
           "concrete_or_none", "concrete_or_error", "compiled_when_eager", "as_array", "host_constant",
           "passed_through", "scalar_like", "check_jitted_arguments",
           "weak_scalar_like", "strip_weak_type", "zero_of", "staged_when_converted"]

_PYTHON_SCALARS = (bool, int, float, complex)
_SCALARS = _PYTHON_SCALARS + (np.generic,)
_ARRAYLIKE_TYPES = (Array, Tracer, np.ndarray) + _SCALARS


def is_arraylike(x: Any) -> bool:
    """Whether jnp accepts ``x`` as an array argument: an array, a tracer, or a NumPy or Python scalar."""
    return isinstance(x, _ARRAYLIKE_TYPES) or hasattr(x, "__jax_array__")


def check_arraylike(fun_name: str, *args: Any) -> None:
    """JAX's TypeError for the first argument that is not array-like (a list, a tuple, ...). As JAX's check, it lets
    any scalar NumPy knows pass (a string, bytes, a ``Fraction``): what the function does with it next refuses it
    (``ensure_arraylike``'s TypeError, or a dtype's)."""
    for position, arg in enumerate(args):
        if not is_arraylike(arg) and not np.isscalar(arg):
            raise TypeError(f"{fun_name} requires ndarray or scalar arguments, got {type(arg)} at position "
                            f"{position}.")


def check_scalar_arraylike(fun_name: str, *args: Any) -> None:
    """``check_arraylike``, then JAX's TypeError for a scalar it let pass that is not an array's value (a string,
    bytes, a ``Fraction``), as functions that make their arguments arrays at once refuse it."""
    check_arraylike(fun_name, *args)
    for arg in args:
        if not is_arraylike(arg):
            raise TypeError(f"asarray: expected ArrayLike, got {arg} of type {type(arg)}.")


def ensure_arraylike(fun_name: str, *args: Any) -> Any:
    """``args`` checked as ``check_scalar_arraylike`` does, then made arrays outside transformations
    (``eager_array``); the one argument, else a tuple of them."""
    check_scalar_arraylike(fun_name, *args)
    arrays = tuple(eager_array(a) for a in args)
    return arrays[0] if len(arrays) == 1 else arrays


def eager_array(x: Any) -> Any:
    """``x`` made an array (``as_array``) outside transformations, as the JAX functions that take their operands as
    arrays before computing do: under ``set_mesh`` their eager results on host values then report a layout for
    each dimension, as JAX's do. Inside a transformation only an object's ``__jax_array__`` is taken (a host value
    stays a constant of the trace)."""
    return as_array(x) if isinstance(current_trace(), EvalTrace) else ensure_array(x)


def ensure_array(x: Any) -> Any:
    """``x`` as jnp functions take an operand: an object's ``__jax_array__``, anything else as it is, except a string
    or bytes (which ``check_arraylike`` lets pass), refused with JAX's TypeError as making it an array refuses it."""
    if isinstance(x, (Tracer, Array)):  # neither has ``__jax_array__`` (a tracer's lookup of it would cost most)
        return x
    if hasattr(x, "__jax_array__"):
        return x.__jax_array__()
    if isinstance(x, (str, bytes)):
        raise invalid_value_error(x, np.asarray(x).dtype)
    return x


def invalid_value_error(x: Any, dt: np.dtype) -> TypeError:
    """JAX's TypeError for making an array of ``x``, whose NumPy dtype ``dt`` no JAX array has."""
    return TypeError(f"Value '{x}' with dtype {dt} is not a valid JAX array type. Only arrays of numeric types are "
                     "supported by JAX.")


def staged_when_converted(x: Any) -> Any:
    """``x`` (a concrete array) as a jaxle array that, under a staging trace, is made a constant of the jaxpr at once:
    JAX's conversion stages it when it happens, so the jaxpr lists constants in the order they were converted, not
    first used. Anything else is returned as it is."""
    if isinstance(x, (np.ndarray, Array)) and np.ndim(x):
        x = ensure_array(x)
        trace = current_trace()
        if isinstance(trace, StagingTrace):
            trace.to_atom(x)
    return x


def host_constant(value: Any, weak_type: bool = False, over_mesh: bool = True, python_scalar: Any = None) -> Array:
    """A host value as an Array; while staging, a scalar one is marked to stage inline as a literal (as JAX's
    constants made by jnp functions are; it keeps ``python_scalar``, the Python scalar it was made from, if any),
    while eagerly made ones (under grad or vmap of eager code too) are hoisted like any computed array. Under
    ``set_mesh`` an eagerly made one is replicated over the mesh's devices, as JAX places it, unless not
    ``over_mesh`` (then on the default device, uncommitted)."""
    out = put_host_value(value, weak_type, eager=None if over_mesh else False)
    if not isinstance(current_trace(), EvalTrace) and not transforms_eager_code():
        if np.ndim(value) == 0:
            mark_inline(out, python_scalar)
        else:
            made_while_staging(out)
    return out


def as_array(x: Any) -> Any:
    """``x`` as a jaxle array: tracers and arrays unchanged, anything else put on the current backend (Python
    scalars weakly typed), as ``jnp`` functions that compute nothing still return arrays."""
    x = ensure_array(x)
    if isinstance(x, (Array, Tracer)):
        return x
    get_aval(x)  # JAX's TypeError for values that are not arrays
    weak = type(x) in _PYTHON_SCALARS
    return host_constant(x, weak, python_scalar=x if weak else None)


def placed_on(out: Any, device: Any, made_there: bool = False) -> Any:
    """``out`` put on a creation function's ``device=`` argument (a device or a sharding) when one is given, outside
    transformations (inside them the value stays where the computation puts it). ``made_there``: as JAX makes the
    arrays of its filling functions on the device, strongly typed and over no mesh; else typed as ``out`` is."""
    if device is None or isinstance(out, Tracer):
        return out
    if made_there:
        return current_backend().device_put(np.asarray(out), device)  # a host value: no weak type, no mesh
    return current_backend().device_put(out, device, weak_type=get_aval(out).weak_type)


def put_staged(out: Any, device: Any, as_sharding: bool) -> Any:
    """``out`` placed on a creation function's ``device=`` argument as JAX's ``arange`` (``as_sharding``: a device
    given as its sharding) and ``eye`` (the device as given) place it: inside a transformation by a staged
    ``device_put``, else made there (``placed_on``)."""
    if device is None or isinstance(current_trace(), EvalTrace):
        return placed_on(out, device, made_there=as_sharding)
    sharding = current_backend().device_sharding(device) if as_sharding and not hasattr(device, "device_set") \
        else None  # (a backend without shardings puts it on the device)
    return staged_device_put([out], device if sharding is None else sharding)[0]


def check_device_or_out_sharding(device: Any, out_sharding: Any) -> None:
    """JAX's ValueError for a creation function given both a ``device`` and an ``out_sharding``."""
    if device is not None and out_sharding is not None:
        raise ValueError(f"Only one of `device` or `out_sharding` can be set. Got {device=} and {out_sharding=}")


# what a ``device=`` argument may look like without being a device or a sharding
_NOT_SHARDINGS = (str, MemorySpace, PartitionSpec)


def staged_target(device: Any) -> Any:
    """The sharding a conversion to ``device=`` (``array``, ``asarray``, ``astype``) stages its value to inside a
    transformation, as JAX's does (``converted_staged``): a device's own sharding, or a sharding as given (a
    NamedSharding over Explicit axes types the converted value, as JAX's ``convert_element_type`` does under
    ``set_mesh``); None eagerly, for what is not a sharding (refused by ``check_conversion_target``) and on a backend
    without shardings."""
    if device is None or isinstance(current_trace(), EvalTrace) or isinstance(device, _NOT_SHARDINGS):
        return None
    return device if hasattr(device, "device_set") else current_backend().device_sharding(device)


def converted_staged(x: Any, dtype: np.dtype, weak_type: bool, sharding: Any, located: bool = True) -> Any:
    """``x`` converted to ``dtype`` for ``sharding`` as JAX stages it: a ``convert_element_type`` naming the
    sharding (folded for a scalar constant), then a sharding constraint to it, whose devices the program is then
    checked against when lowered (under ``set_mesh``, those of the mesh); its errors name the user's line, or
    none where JAX converts inside a jitted function of its own (not ``located``)."""
    context = get_abstract_mesh()
    if isinstance(sharding, NamedSharding) and not context.empty and sharding.mesh.abstract_mesh != context:
        # JAX's refusal of a sharding over another mesh (one over this mesh is checked as the value is typed)
        _check_under_mesh(get_aval(x).update(dtype=dtype, weak_type=weak_type), sharding, located)
    out = convert_element_type_p.bind(x, new_dtype=dtype, weak_type=weak_type, sharding=sharding)
    if not located:
        note_staged_at(sharding, "")
    return out


def check_conversion_target(device: Any, value: Any = None, staged: bool = True) -> None:
    """JAX's errors for ``device=`` of the functions that place their ``value`` by converting it to that sharding
    (``array``, ``asarray``, ``astype``, ``linspace``): a memory space is not a sharding, under ``set_mesh`` one
    device (or one device's sharding) is outside the mesh the conversion runs over, and an array committed to other
    devices cannot be converted there. A conversion ``staged`` to a device (``staged_target``) is checked when its
    program is lowered, as JAX's is."""
    if device is None:
        return
    if isinstance(device, NamedSharding):
        if get_mesh().empty:  # a sharding constraint; under set_mesh checked with the value (``converted_onto``)
            check_auto_axes_only(device)
        return
    if isinstance(device, _NOT_SHARDINGS):
        raise ValueError(f"sharding={device!r} must be an instance of jax.sharding.Sharding")
    if staged and staged_target(device) is not None:
        return
    devices = sorted(device.device_set, key=lambda d: d.id) if hasattr(device, "device_set") else [device]
    target = _constraint_inside_jit(devices, located=value is not None)
    committed = isinstance(value, Array) and getattr(value, "committed", False)
    own = sorted(value.sharding.device_set, key=lambda d: d.id) if committed else devices
    argument = f"argument args[0] of convert_element_type with shape {get_aval(value).str_short()} and {_on(own)}" \
        if committed else ""
    mesh = get_mesh()
    if not mesh.empty and hasattr(mesh, "devices"):
        mesh_devices = list(mesh.devices.flat)
        context = f"jit's context mesh {_on(mesh_devices)}"
        if committed and set(own) != set(mesh_devices):  # the argument meets the mesh first
            raise _incompatible(argument, context)
        raise _incompatible(context, target)
    if committed and set(own) != set(devices):
        raise _incompatible(argument, target)


def _incompatible(first: str, second: str) -> ValueError:
    return ValueError(f"Received incompatible devices for jitted computation. Got {first} and {second}")


def _traced_at(located: bool = True) -> str:
    """The user's line a conversion is traced at inside a transformation (``jit``), as JAX's errors name it; empty
    outside one (an eager conversion), or where JAX converts inside a jitted function of its own (not
    ``located``)."""
    return summarize(current()) if located and not isinstance(current_trace(), EvalTrace) else ""


def _in_staged_program() -> bool:
    """Whether a program is being staged (``jit``, ``make_jaxpr``, a control-flow body), whatever transformations
    run inside it: JAX's refusal of a value typed over another mesh names the user's line there only (not where an
    eager ``vmap`` or derivative converts it)."""
    trace = current_trace()
    while trace is not None:
        if type(trace) is StagingTrace:
            return True
        trace = trace.parent
    return False


def _constraint_inside_jit(devices: list, located: bool = True) -> str:
    """How JAX's errors name the sharding constraint to ``devices`` a conversion stages (``_traced_at``)."""
    return f"sharding_constraint inside jit {_on(devices)} at {_traced_at(located)}"


def _on(devices: list) -> str:
    return f"with device ids {_ids(devices)} on platform {devices[0].platform.upper()}"


def converted_onto(out: Any, device: Any, computed_there: bool = False) -> Any:
    """``out``, a value converted for a ``device=`` argument (see ``check_conversion_target``), placed there as JAX's
    conversion places it: under ``set_mesh`` a NamedSharding checked as JAX checks it (``_check_under_mesh``), laid
    out as ``_conversion_layout`` says. ``computed_there``: JAX computes the value with that sharding as its type
    (``linspace``), which under any ``set_mesh`` lays out each dimension of a mesh of Explicit axes."""
    aval = get_aval(out)
    if isinstance(device, NamedSharding) and not get_mesh().empty:
        _check_under_mesh(aval, device, located=not computed_there)
    if not isinstance(out, (Array, Tracer)) and not isinstance(current_trace(), EvalTrace):
        return out  # a host scalar whose conversion staging folded: a literal of the jaxpr, as JAX's
    layout = _conversion_layout(device, aval.ndim, computed_there)
    if layout is not device and isinstance(out, Array) and getattr(out, "sharding", None) == layout:
        # already laid out so under another name (replicated over the mesh): put again under the type's name
        return current_backend().device_put(np.asarray(out), layout, weak_type=aval.weak_type)
    return placed_on(out, layout)


def _check_under_mesh(aval: ShapedArray, sharding: NamedSharding, located: bool) -> None:
    """JAX's errors for a value of ``aval`` converted to ``sharding`` under ``set_mesh``. When the mesh set has
    Explicit axes, the sharding is the value's type: its Explicit axes must divide the dimensions they split, and
    its mesh must be the one set (unless both have Auto axes only). Unless every axis of the mesh set is Explicit,
    the conversion is also a sharding constraint: naming Auto axes only, over the devices of the mesh set. The
    errors name the user's line (``_traced_at``)."""
    context = get_mesh()
    if context.abstract_mesh.explicit_axes:
        check_type_divides(sharding, aval.shape)
        check_context_mesh(convert_element_type_p, [typed_aval(untyped(aval), sharding)], context.abstract_mesh,
                           _traced_at(located and _in_staged_program()))
    if context.abstract_mesh.are_all_axes_explicit or not hasattr(sharding.mesh, "devices"):
        return
    check_auto_axes_only(sharding)
    context_devices, devices = list(context.devices.flat), list(sharding.mesh.devices.flat)
    if devices != context_devices:
        raise _incompatible(f"jit's context mesh {_on(context_devices)}", _constraint_inside_jit(devices, located))


def _conversion_layout(device: Any, ndim: int, computed_there: bool) -> Any:
    """Where a value converted to the ``device=`` sharding goes: under ``set_mesh`` of a mesh with Explicit axes (of
    any mesh when ``computed_there``), a NamedSharding over Explicit axes gets an entry for each of the value's
    ``ndim`` dimensions (as the converted value's type lays it out in JAX)."""
    if not isinstance(device, NamedSharding) or get_mesh().empty or not (
            computed_there or get_abstract_mesh().explicit_axes):
        return device
    if len(device.mesh.explicit_axes) != len(device.mesh.axis_names):  # a sharding constraint, as given
        return device
    spec = device.spec
    return NamedSharding(device.mesh, PartitionSpec(*spec, *[None] * (ndim - len(spec))),
                         memory_kind=device.memory_kind)


def _ids(devices: Any) -> str:
    return f"[{', '.join(str(d.id) for d in devices)}]"


def _promotion_operands(args: tuple) -> list[Any]:
    """``args`` made operands (``ensure_array``) for promotion. As JAX's promotion reads a string or bytes operand
    (which ``check_arraylike`` lets pass) as the name of a dtype first, one that names none gets its TypeError
    ("data type 'abc' not understood")."""
    try:
        return [ensure_array(a) for a in args]
    except TypeError:  # (any string or bytes among them is refused there)
        for a in args:
            if isinstance(a, (str, bytes)):
                dtypes.dtype(a)
        raise


def warn_complex_astype(old_dtype: Any, new_dtype: Any, stacklevel: int = 2) -> None:
    """JAX's DeprecationWarning for ``astype`` from a complex dtype to a real (or integer, boolean) one, attributed
    as ``warnings.warn(stacklevel=...)`` in the function calling this would attribute it. Key dtypes have no NumPy
    kind: casting one is convert_element_type's to check."""
    if getattr(old_dtype, "kind", None) == "c" and getattr(new_dtype, "kind", None) != "c":
        trace_warnings.warn("Casting from complex to real dtypes will soon raise a ValueError. Please first use "
                            "jnp.real or jnp.imag to take the real/imaginary component of your input.",
                            DeprecationWarning, stacklevel=stacklevel + 1)


def promote_dtypes(*args: Any) -> list[Any]:
    """``args`` converted to their common dtype, weak types respected (no change of rank).

    A Python scalar meeting a strongly typed operand becomes a constant of the common dtype (JAX converts it on the
    host, so ``x * 0.3`` on float32 stages the literal ``0.30000001192092896:f32[]``); among weak types it stays the
    Python value.
    """
    args = _promotion_operands(args)
    for x in args:
        get_aval(x)  # raises JAX's TypeError for values that are not arrays
    dtype, weak = _result_type(args)
    return [_to_dtype(a, dtype, weak) for a in args]


# result_type of operands that are jaxle arrays, tracers or Python scalars depends only on each one's type, dtype
# and weak type and on the trace-context flags (x64, promotion mode); eager code repeats few such signatures, so
# the answers are kept (jnp's hot path: the promotion lattice walk costs several microseconds per call).
_result_types: dict[tuple, tuple[np.dtype, bool]] = {}
_RESULT_TYPES_KEPT = 4096


def _result_type(args: list[Any]) -> tuple[np.dtype, bool]:
    """``dtypes.result_type(*args, return_weak_type_flag=True)``, memoised by the operands' signature."""
    key = [config.trace_context()]
    for a in args:
        kind = type(a)
        if kind in _PYTHON_SCALARS:
            key.append(kind)
        elif isinstance(a, (Array, Tracer)) and type(a.aval) is ShapedArray:
            aval = a.aval
            key.append((kind, aval.dtype, aval.weak_type))
        else:
            return dtypes.result_type(*args, return_weak_type_flag=True)
    key = tuple(key)
    result = _result_types.get(key)
    if result is None:
        result = dtypes.result_type(*args, return_weak_type_flag=True)
        if len(_result_types) >= _RESULT_TYPES_KEPT:
            _result_types.clear()
        _result_types[key] = result
    return result


_RANK_PROMOTION_DOCS = "https://docs.jax.dev/en/latest/rank_promotion_warning.html"


def promote_shapes(fun_name: str, *args: Any) -> list[Any]:
    """``args`` given leading size-1 dimensions up to the largest rank, as NumPy broadcasting implies
    (``jax_numpy_rank_promotion`` may ask for a warning or an error when non-scalar ranks differ). As in JAX, 0-d
    operands are left to lax's scalar broadcasting beside operands of one rank; beside several ranks every
    operand, 0-d ones included, is brought to the common rank."""
    shapes = [get_aval(a).shape for a in args]
    if len({len(s) for s in shapes}) <= 1:  # one rank: nothing to broadcast here
        return list(args)
    if len({len(s) for s in shapes if s}) < 2:  # scalars beside one rank: lax broadcasts them
        return list(args)
    _check_rank_promotion(fun_name, shapes)
    rank = len(lax_structural.broadcast_shapes(*shapes))  # JAX's ValueError for shapes that do not broadcast
    return [a if len(s) == rank else lax_structural.broadcast_in_dim(a, (1,) * (rank - len(s)) + tuple(s),
                                                                     tuple(range(rank - len(s), rank)))
            for a, s in zip(args, shapes)]


def _check_rank_promotion(fun_name: str, shapes: list[tuple[int, ...]]) -> None:
    mode = config.config.jax_numpy_rank_promotion
    if mode == "allow":
        return
    described = " ".join(map(str, shapes))
    if mode == "raise":
        raise ValueError(f"Operands could not be broadcast together for {fun_name} on shapes {described} and with "
                         f"the config option jax_numpy_rank_promotion='raise'. For more information, see "
                         f"{_RANK_PROMOTION_DOCS}.")
    warnings.warn(f"Following NumPy automatic rank promotion for {fun_name} on shapes {described}. Set the "
                  "jax_numpy_rank_promotion config option to 'allow' to disable this warning; for more "
                  f"information, see {_RANK_PROMOTION_DOCS}.", stacklevel=4)


def check_no_float0s(fun_name: str, *args: Any) -> None:
    """JAX's TypeError for a float0 operand (the tangent of an integer): no arithmetic is defined on them."""
    if any(getattr(arg, "dtype", None) == dtypes.float0 for arg in args):
        raise TypeError(f"Called {fun_name} with a float0 array. float0s do not support any operations by design "
                        "because they are not compatible with non-trivial vector spaces. No implicit dtype conversion "
                        "is done. You can use np.zeros_like(arr, dtype=np.float) to cast a float0 array to a regular "
                        "zeros array. \nIf you didn't expect to get a float0 you might have accidentally taken a "
                        "gradient with respect to an integer argument.")


def promote_args(fun_name: str, *args: Any) -> list[Any]:
    """Check, promote to a common dtype and to a common rank: what an elementwise jnp function does first."""
    check_arraylike(fun_name, *args)
    check_no_float0s(fun_name, *args)
    return promote_shapes(fun_name, *promote_dtypes(*args))


def _to_dtype(x: Any, dtype: np.dtype, weak: bool) -> Any:
    aval = get_aval(x)
    if type(x) in _PYTHON_SCALARS and not (weak and aval.dtype == dtype):
        return lax_structural.convert_keeping_weak_type(x, dtype, weak)
    if aval.dtype == dtype and aval.weak_type == weak:
        return x
    return lax_structural.convert_keeping_weak_type(x, dtype, weak)


def promote_dtypes_inexact(*args: Any) -> list[Any]:
    """Promote to a common dtype, then to an inexact one (integers and booleans become the default float)."""
    args = _promotion_operands(args)
    dtype, weak = _result_type(args)
    dtype = dtypes.to_inexact_dtype(dtype)
    return [_to_dtype(a, dtype, weak) for a in args]


def promote_dtypes_complex(*args: Any) -> list[Any]:
    """Promote to a common dtype, then to a complex one."""
    args = _promotion_operands(args)
    dtype, weak = _result_type(args)
    return [_to_dtype(a, dtypes.to_complex_dtype(dtype), weak) for a in args]


def promote_args_inexact(fun_name: str, *args: Any) -> list[Any]:
    """``promote_args`` to an inexact dtype: what ``jnp.sin`` and friends do with integer inputs."""
    check_arraylike(fun_name, *args)
    check_no_float0s(fun_name, *args)
    return promote_shapes(fun_name, *promote_dtypes_inexact(*args))


def promote_dtypes_numeric(*args: Any) -> list[Any]:
    """Promote to a common dtype, with booleans becoming int32 (JAX's choice even with x64 on)."""
    args = _promotion_operands(args)
    dtype, weak = _result_type(args)
    if dtype == np.bool_:
        dtype = np.dtype(np.int32)
    return [_to_dtype(a, dtype, weak) for a in args]


def promote_args_numeric(fun_name: str, *args: Any) -> list[Any]:
    check_arraylike(fun_name, *args)
    check_no_float0s(fun_name, *args)
    return promote_shapes(fun_name, *promote_dtypes_numeric(*args))


def optional_index(axis: Any) -> int | None:
    """A single ``axis`` (or None) as an integer, refusing other types (a list, a float, a tracer) with the errors
    JAX's ``operator.index`` gives."""
    return None if axis is None else operator.index(axis)


def canonicalize_axis(axis: int, ndim: int) -> int:
    """``axis`` in ``range(ndim)``, negative axes counted from the end; NumPy's AxisError-like ValueError else, and
    ``operator.index``'s TypeError for an axis that is no integer (a float, a name), as JAX's."""
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim


def concrete_or_none(x: Any) -> np.ndarray | None:
    """The NumPy value of ``x``, or None when ``x`` is traced and its value is not known while tracing."""
    x = ensure_array(x)
    if isinstance(x, Tracer):
        x = concrete_value(x)
        if x is None or isinstance(x, Tracer):
            return None
    return np.asarray(x)


def concrete_or_error(x: Any, context: str) -> np.ndarray:
    """The NumPy value of ``x``; JAX's ConcretizationTypeError, naming ``context``, when it is only traced."""
    value = concrete_or_none(x)
    if value is None:
        raise x.concretization_error(context)
    return value


def requested_dtype(dtype: Any, fun_name: str, stacklevel: int = 2) -> np.dtype | None:
    """A ``dtype=`` argument as the dtype JAX uses (64-bit types narrowed with JAX's warning naming ``fun_name``
    when x64 is off, attributed to the caller ``stacklevel`` frames above this function: by default the caller of
    the function asking, as JAX's; non-numeric dtypes and arrays refused), or None when not given."""
    if isinstance(dtype, (Array, Tracer)):
        raise ValueError("Passing an array as a dtype argument is no longer supported; instead of dtype=arr use "
                         "dtype=arr.dtype.")
    if isinstance(dtype, np.ndarray):
        raise TypeError("Cannot construct a dtype from an array")
    return None if dtype is None else dtypes.dtype(dtype, requested_in=fun_name, stacklevel=stacklevel + 3)


def named_jit(name: str, static_argnames: tuple[str, ...] = (), doc: str | None = None) -> Callable[[Callable], Any]:
    """A decorator: ``jit`` under JAX's function name, so that jaxprs print ``jit[name=<name> ...]`` as JAX's
    (``doc``, when given, becomes the function's docstring)."""
    def wrap(fun: Callable) -> Any:
        fun.__name__ = fun.__qualname__ = name
        if doc is not None:
            fun.__doc__ = doc
        return jit(fun, static_argnames=static_argnames)
    return wrap


_NO_DEFAULT = object()


def compiled_when_eager(fun: Callable | None = None, *, static_argnames: tuple[str, ...] = (),
                        dynamic_argnames: tuple[str, ...] = (), traced_name: str | None = None,
                        operands_first: bool = False, jax_jits: bool = True) -> Any:
    """``fun`` (a jnp function that JAX jits inline) with its eager calls on jaxle arrays and Python scalars run as
    one program compiled per operand signature, as JAX's run: promotion is traced once, not redone on every call.

    Its leading positional parameters not named in ``static_argnames`` are the operands; an eager call takes the
    compiled path when every other argument it passes is its parameter's default, one of ``static_argnames``
    (with a hashable value) or one of ``dynamic_argnames`` (the parameters JAX's jitted function traces, such as a
    reduction's ``initial`` and ``where``) given an array or a Python scalar. Under a transformation, or given other
    arguments, ``fun`` itself
    runs, so jaxprs and errors are unchanged. Used bare or as ``@compiled_when_eager(static_argnames=...)``.
    Where the backend dispatches jitted calls itself (jaxle_xla), the result is the backend's jitted function, as
    JAX's jnp functions are. ``traced_name``: the name errors give it, that of the function JAX jits where it is
    not ``fun``'s own (``_reduce_sum`` for ``sum``). ``operands_first``: the operands are checked as
    ``check_scalar_arraylike`` does before the other arguments, as JAX's functions that make their operands arrays
    before calling the function they jit (``argmax``) do. ``jax_jits``: whether JAX's function is jitted (else
    compiled here for speed alone): a jitted one refuses what it cannot trace as an array before running
    (``check_arguments``), one that is not reports what its body does with it.
    """
    if fun is None:
        return functools.partial(compiled_when_eager, static_argnames=static_argnames,
                                 dynamic_argnames=dynamic_argnames, traced_name=traced_name,
                                 operands_first=operands_first, jax_jits=jax_jits)
    wrapped = _CompiledWhenEager(fun, static_argnames, dynamic_argnames, traced_name, operands_first, jax_jits)
    compiled = backend_function(wrapped)
    if compiled is wrapped or not static_argnames:
        return compiled

    @functools.wraps(fun)
    def with_static_arguments(*args: Any, **kwargs: Any) -> Any:
        # The backend's jitted function refuses unhashable static arguments (an axis given as a list) before
        # running anything; jnp takes them, as JAX's functions do, by running ``fun`` itself.
        try:
            return compiled(*args, **kwargs)
        except ValueError as error:
            if not str(error).startswith("Non-hashable static arguments"):
                raise
        return fun(*args, **kwargs)

    return with_static_arguments


class _CompiledWhenEager(JitWrapped):
    """A jitted ``fun`` whose calls run compiled only when eager, on operands that pass as they are (see
    ``compiled_when_eager``); every other call runs ``fun`` itself."""

    def __init__(self, fun: Callable, static_argnames: tuple[str, ...], dynamic_argnames: tuple[str, ...] = (),
                 traced_name: str | None = None, operands_first: bool = False, jax_jits: bool = True):
        super().__init__(fun, static_argnames=static_argnames)
        self.traced_name = traced_name
        self._operands_first = operands_first
        self._jax_jits = jax_jits
        parameters = inspect.signature(fun).parameters.values()
        self._positional = [p.name for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        self._static = frozenset(static_argnames)
        self._dynamic = frozenset(dynamic_argnames)
        self._n_operands = next((i for i, name in enumerate(self._positional) if name in self._static),
                                len(self._positional))
        self._defaults = {p.name: p.default for p in parameters if p.default is not p.empty}
        self._variadic = any(p.kind == p.VAR_POSITIONAL for p in parameters)  # then every positional is an operand
        # the parameters a call may pass a traced value by name (every positional one where all are operands)
        self._traced_names = self._dynamic.union(self._positional if self._variadic
                                                 else self._positional[:self._n_operands])
        self.warned: set = set()  # the signatures whose trace gave warnings (see trace_warnings)

    def _static_keywords(self, args: tuple, kwargs: dict) -> dict | None:
        """The call's static and dynamic arguments by name, or None when it passes anything else."""
        positional = self._positional
        keywords = dict(zip(positional[self._n_operands:], args[self._n_operands:]))
        if len(args) > len(positional) or not keywords.keys().isdisjoint(kwargs):
            return None
        keywords.update(kwargs)
        for name, value in list(keywords.items()):
            default = self._defaults.get(name, _NO_DEFAULT)
            if value is default or (type(value) is type(default) and value == default):
                del keywords[name]  # spelled out or not, one signature
            elif name not in self._static and not (name in self._dynamic and (_compiled_operand(value)
                                                                              or type(value) is int)):
                return None
        try:
            hash(tuple(value for name, value in keywords.items() if name in self._static))
        except TypeError:
            return None
        return keywords

    def warning_scope(self, args: tuple, kwargs: dict) -> trace_warnings.Scope | None:
        """As JAX traces this function once per signature, for its eager and traced calls alike, the warnings of a
        run of ``fun`` or of a trace of its compiled form come once per signature."""
        return trace_warnings.Scope(self, args, kwargs) if self._jax_jits else None

    def warning_signature(self, args: tuple, kwargs: dict) -> tuple | None:
        """The signature JAX's jitted function would trace a call under (the operands' types, the other arguments
        given: static ones by value, array ones by type), or None when it takes what it cannot trace."""
        n = len(args) if self._variadic else self._n_operands
        keywords = dict(zip(self._positional[n:], args[n:]))
        keywords.update(kwargs)
        try:
            operands = tuple(get_aval(a) for a in args[:n])
            named = []
            for name, value in sorted(keywords.items()):
                default = self._defaults.get(name, _NO_DEFAULT)
                if value is default or (type(value) is type(default) and value == default):
                    continue  # spelled out or not, one signature
                named.append((name, get_aval(value) if is_arraylike(value) else (type(value), value)))
            key = (operands, tuple(named), config.trace_context())
            hash(key)
        except Exception:  # noqa: BLE001 - an argument that is not an array, or a value that does not compare
            return None
        return key

    def check_arguments(self, args: tuple, kwargs: dict) -> None:
        """What JAX's jitted function raises before running for a call passing, as an operand or as one of
        ``dynamic_argnames``, a value it cannot take as an array (a string, any object) or an int too large for the
        default integer type: its TypeError or OverflowError naming the value's path among the arguments (``x``,
        ``a``, ``arys[0]``, ``where``)."""
        n = len(args) if self._variadic else self._n_operands
        positional = self._positional
        untraced = {i for i in range(n, len(args)) if i >= len(positional) or positional[i] not in self._dynamic}
        traced = {k: v for k, v in kwargs.items() if k in self._dynamic or k in positional[:n]}
        flat = [*tree.tree_leaves([a for i, a in enumerate(args) if i not in untraced]), *tree.tree_leaves(traced)]
        argument_avals(_FunctionName(self.traced_name or self.fun.__qualname__, self.fun), flat,
                       lambda: flat_argument_names(self._signature, args, untraced, traced))

    def call_entry(self, args: tuple, kwargs: dict) -> tuple[Any, Any]:
        n = len(args) if self._variadic else self._n_operands
        if type(current_trace()) is EvalTrace and len(args) >= n and all(map(_compiled_operand, args[:n])):
            if len(args) == n and not kwargs:
                return super().call_entry(args, kwargs)
            keywords = self._static_keywords(args, kwargs)
            if keywords is not None:
                result, entry = super().call_entry(args[:n], keywords)
                # A backend running the entry on later calls passes them the call's operands and non-static
                # arguments: only calls passing nothing but operands, static arguments and dynamic ones by name
                # can share it.
                shared = ((self._static | self._dynamic).issuperset(kwargs)
                          and self._static.issuperset(self._positional[n:len(args)]))
                return result, entry if shared else None
        if self._operands_first:
            check_scalar_arraylike(self.fun.__name__, *args[:n])
        if self._jax_jits and not ((not kwargs or self._traced_names.isdisjoint(kwargs)) and _taken_as_arrays(args)):
            self.check_arguments(args, kwargs)  # (the usual traced call passes nothing it could refuse)
        try:
            if not self._jax_jits:
                return self.fun(*args, **kwargs), None
            previous = trace_warnings.enter(trace_warnings.Scope(self, args, kwargs))
            try:
                return self.fun(*args, **kwargs), None
            finally:
                trace_warnings.leave(previous)
        except ValueError as error:  # a device mismatch is named by this call's operands (tracers: none), as JAX's
            if not is_device_mismatch(error):
                raise
            # the operands by position, then the arrays given by keyword (``weights``), in the order JAX's are flat
            positional = [*self._positional, *(f"args[{i}]" for i in range(len(self._positional), n))]
            named = [*zip(positional, args[:n]),
                     *((k, v) for k, v in sorted(kwargs.items()) if k not in self._static and isinstance(v, Array))]
            raise named_by_call(error, [v for _, v in named], [k for k, _ in named],
                                self.traced_name or self.fun.__qualname__) from None


def _taken_as_arrays(args: tuple) -> bool:
    """Whether every jitted function takes each of ``args`` as an array: a tracer, an array, a float, or a Python
    bool, complex or int that fits any default integer type."""
    for x in args:
        if not (isinstance(x, (Tracer, Array, float)) or _compiled_operand(x)):
            return False
    return True


class _FunctionName:
    """How errors show a jitted jnp function: as Python shows the function JAX jits (``<function _reduce_sum at
    0x...>`` for ``sum``), ``fun`` giving the address."""

    def __init__(self, name: str, fun: Callable):
        self.name, self.fun = name, fun

    def __str__(self) -> str:
        return f"<function {self.name} at {id(self.fun):#x}>"


def check_jitted_arguments(fun: Callable, *, traced_name: str | None = None, **arguments: Any) -> None:
    """For a jnp function ``fun`` that JAX jits whole but jaxle runs as checks around a jitted part: JAX's TypeError
    (or OverflowError) for any of ``arguments`` (its traced parameters, by name) that its jitted function could not
    trace, naming ``fun`` (as ``traced_name`` when given) and the argument's path, before anything else runs."""
    def names() -> list[str]:
        return [name + tree.keystr(path) for name, value in arguments.items()
                for path, _ in tree.tree_flatten_with_path(value)[0]]

    argument_avals(_FunctionName(traced_name or fun.__name__, fun), tree.tree_leaves(list(arguments.values())),
                   names)


def passed_through(x: Any) -> Any:
    """``x`` as a jnp function that JAX jits returns an operand it leaves unchanged: an eager array as a new array
    (under a mesh of Explicit axes laid out as its type says, one entry per dimension), anything else made an array
    (``as_array``); a tracer stays as it is."""
    return _identity(x) if isinstance(x, Array) else as_array(x)


@compiled_when_eager
def _identity(x: Any) -> Any:
    return x


def _compiled_operand(x: Any) -> bool:
    """Whether ``x`` passes into a compiled call as it is: an array, or a Python scalar (a weakly typed argument, as
    in JAX) other than an int too large for int32, which eager promotion reports instead."""
    if isinstance(x, Array) or type(x) in (bool, float, complex):
        return True
    return type(x) is int and -2**31 <= x < 2**31


def scalar_like(x: Any, value: Any) -> np.generic:
    """``value`` as a NumPy scalar of ``x``'s dtype: the literal JAX stages for a constant beside ``x``."""
    return np.asarray(value).astype(get_aval(x).dtype)[()]


def weak_scalar_like(x: Any, value: Any) -> Any:
    """``value`` as the literal JAX's ``lax._const`` stages beside ``x``: ``scalar_like``, except that a weakly typed
    scalar ``x`` gets a Python scalar of its kind (a weak literal, so the result stays weak as in JAX; weak arrays
    get the strong scalar, as JAX's do)."""
    aval = get_aval(x)
    if aval.weak_type and not aval.shape:
        return dtypes.scalar_type_of(aval.dtype)(value)
    return scalar_like(x, value)


def strip_weak_type(x: Any) -> Any:
    """``x`` strongly typed (a ``convert_element_type`` to its own dtype is staged only when ``x`` is weak), as JAX's
    boolean reductions convert their operand first."""
    aval = get_aval(x)
    return lax_structural.convert_element_type(x, aval.dtype) if aval.weak_type else x


def zero_of(x: Any) -> np.generic:
    """Zero of ``x``'s dtype (``lax._zero``)."""
    return scalar_like(x, 0)


def concrete_index(x: Any, context: str) -> int:
    """An integer argument (``operator.index`` semantics); a traced one gets JAX's ConcretizationTypeError
    naming ``context`` (e.g. "'num' argument of jnp.linspace")."""
    if isinstance(x, Tracer):
        x = concrete_or_error(x, context)
    return x if is_symbolic_dim(x) else operator.index(x)
