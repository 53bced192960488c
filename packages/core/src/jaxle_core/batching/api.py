"""``vmap``: vectorising a function over a batch axis of its arguments."""

from __future__ import annotations

import contextlib
import functools
import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

import jaxle_tree as tree
from jaxle_core import core, dtypes
from jaxle_core.avals import ShapedArray, get_aval, is_array_like
from jaxle_core.batching.trace import BatchLayout, BatchTrace, BatchTracer, at_dim
from jaxle_core.shard_map import spec_axes, spec_entry_axes


def _check_axes_spec(in_axes: Any, args: tuple) -> list[Any]:
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)
    if isinstance(in_axes, tuple) and len(in_axes) != len(args):
        raise ValueError("vmap in_axes must be an int, None, or a tuple of entries corresponding to the positional "
                         f"arguments passed to the function, but got len(in_axes)={len(in_axes)}, "
                         f"len(args)={len(args)}")
    spec = in_axes if isinstance(in_axes, tuple) else (in_axes,) * len(args)
    return tree.tree_broadcast(spec, args, is_leaf=lambda x: x is None)


def _check_axis_leaves(kind: str, axes: Any) -> None:
    # Exactly ints (not bools or NumPy integers) and None, as JAX accepts.
    if not all(a is None or type(a) is int for a in tree.tree_leaves(axes, is_leaf=lambda x: x is None)):
        raise TypeError(f"vmap {kind} must be an int, None, or (nested) container with those types as leaves, but "
                        f"got {axes}.")


def _argument_names(fun: Callable, args: tuple, kwargs: dict) -> list[str]:
    """Names of the flattened arguments for error messages (``x``, ``params['w']``, ``kwargs['y']``)."""
    try:
        params = list(inspect.signature(fun).parameters)
    except (TypeError, ValueError):
        params = []
    names = []
    for path, _ in tree.tree_flatten_with_path(args)[0]:
        index = path[0].idx if path and hasattr(path[0], "idx") else None
        base = params[index] if index is not None and index < len(params) else f"args[{index}]"
        names.append(base + tree.keystr(path[1:]))
    return names + [f"kwargs{tree.keystr(p)}" for p, _ in tree.tree_flatten_with_path(kwargs)[0]]


def _batch_size(flat: list[Any], axes: list[int | None], names: Callable[[], list[str]],
                axis_size: int | None) -> int:
    """The common size of the mapped axes; ``names()`` (only called to report an error) names the arguments."""
    sizes = []
    # every mapped argument's type is checked before any rank (JAX's TypeError for a string beside a scalar)
    mapped = [(i, axis, _mapped_aval(x)) for i, (x, axis) in enumerate(zip(flat, axes)) if axis is not None]
    for i, axis, aval in mapped:
        if not -aval.ndim <= axis < aval.ndim:
            raise ValueError(f"vmap was requested to map its argument along axis {axis}, which implies that its rank "
                             f"should be at least {(axis if axis >= 0 else -axis - 1) + 1}, but is only {aval.ndim} "
                             f"(its shape is {aval.shape})")
        sizes.append((aval.shape[axis % aval.ndim], axis % aval.ndim, i, aval))
    distinct = {s for s, *_ in sizes} | ({axis_size} if axis_size is not None else set())
    if len(distinct) > 1:
        arg_names = names()
        lines = [f"  * the `axis_size` argument was {axis_size};"] if axis_size is not None else []
        lines += [f"  * one axis had size {s}: axis {a} of argument {arg_names[i]} of type {v.str_short()};"
                  for s, a, i, v in sizes]
        raise ValueError("vmap got inconsistent sizes for array axes to be mapped:\n" + "\n".join(lines)[:-1])
    if not distinct:
        raise ValueError("vmap must have at least one non-None value in in_axes or axis_size must be specified")
    return distinct.pop()


def _mapped_layout(flat: list[Any], axes: list[int | None]) -> BatchLayout | None:
    """How the mapped dimensions are laid out over Explicit mesh axes (None: whole), which must be alike."""
    mesh, entries = None, []
    for x, axis in zip(flat, axes):
        if axis is None:
            continue
        aval = get_aval(x)
        sharding = getattr(aval, "explicit_sharding", None)
        if sharding is not None:
            mesh = sharding.mesh
        entries.append(None if sharding is None else sharding.spec[axis % aval.ndim])
    for entry in entries[1:]:
        if entry != entries[0]:
            raise ValueError("Mapped away dimension of inputs passed to vmap should be sharded the same. Got "
                             f"inconsistent axis specs: {entries[0]} vs {entry}")
    if not entries or entries[0] is None:
        return None
    _check_unmapped_layouts(flat, axes, spec_entry_axes(entries[0]))
    return BatchLayout(mesh, entries[0])


def _check_unmapped_layouts(flat: list[Any], axes: list[int | None], mapped_axes: tuple) -> None:
    """JAX's error for an unmapped argument laid out along a mesh axis that lays out the mapped dimension."""
    for x, axis in zip(flat, axes):
        aval = get_aval(x)
        sharding = getattr(aval, "explicit_sharding", None)
        if axis is None and sharding is not None and set(mapped_axes) & set(spec_axes(sharding.spec)):
            raise ValueError("Unmapped values passed to vmap cannot be sharded along the mesh axis you are vmapping "
                             f"over. Got type: {aval.str_short(short_dtypes=True)}, in_axes: None and vmapped mesh "
                             f"axis: {mapped_axes}")


def _mapped_aval(x: Any) -> ShapedArray:
    """The aval of a mapped argument; an array of a non-numeric dtype is reported by its dtype, as JAX does."""
    dtype = getattr(x, "dtype", None)
    if isinstance(dtype, np.dtype):
        dtypes.check_valid_dtype(dtype)
    return get_aval(x)


def vmap(fun: Callable, in_axes: Any = 0, out_axes: Any = 0, axis_name: Any = None, axis_size: int | None = None,
         spmd_axis_name: Any = None) -> Callable:
    """``fun`` mapped over axis ``in_axes`` of its arguments, stacking results along ``out_axes``.

    ``in_axes``/``out_axes`` are ints (negative allowed), ``None`` (not mapped) or pytree prefixes of the
    arguments/outputs; keyword arguments are mapped along axis 0. ``axis_name`` names the axis for collectives.
    ``spmd_axis_name`` (a mesh axis name or a tuple of them) splits the mapped dimension along those mesh axes in
    the shardings written inside (sharding constraints, a nested ``jit``'s shardings).
    """
    if not callable(fun):
        raise TypeError(f"Expected a callable value, got {fun}")
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)
    if not (in_axes is None or type(in_axes) in (int, tuple)):
        raise TypeError("vmap in_axes must be an int, None, or a tuple of entries corresponding to the positional "
                        f"arguments passed to the function, but got {in_axes}.")
    _check_axis_leaves("in_axes", in_axes)
    _check_axis_leaves("out_axes", out_axes)

    spmd_axes = None if spmd_axis_name is None else (
        spmd_axis_name if type(spmd_axis_name) is tuple else (spmd_axis_name,))

    @functools.wraps(fun)
    def vmapped(*args, **kwargs):
        return call_mapped(BatchTrace, fun, args, kwargs, in_axes, out_axes, axis_name, axis_size, spmd_axes)

    return vmapped


def call_mapped(trace_type: type[BatchTrace], fun: Callable, args: tuple, kwargs: dict, in_axes: Any, out_axes: Any,
                axis_name: Any, axis_size: int | None, spmd_axes: tuple | None = None) -> Any:
    """``fun`` applied to ``args`` mapped along ``in_axes`` under a ``trace_type`` trace (``vmap``'s, or one that
    emulates devices), results stacked along ``out_axes`` (the mapped dimension split along the mesh axes
    ``spmd_axes`` in the shardings written inside)."""
    hash(axis_name)  # names key the axis environment: JAX's TypeError for a list or dict, at the call
    # One axis per array leaf: flattened by the arguments' structure, so a None argument (an empty subtree) takes
    # no axis, while a None axis over an array stays that array's.
    flat_axes = tree.tree_structure(args).flatten_up_to(_check_axes_spec(in_axes, args)) + \
        [0] * len(tree.tree_leaves(kwargs))
    flat, in_tree = tree.tree_flatten((args, kwargs))
    if not flat and axis_size is None:
        raise ValueError("vmap wrapped function must be passed at least one argument containing an array or "
                         f"axis_size must be specified, got empty *args={args} and **kwargs={kwargs}")
    size = _batch_size(flat, flat_axes, lambda: _argument_names(fun, args, kwargs), axis_size)
    trace = trace_type(size, axis_name, _mapped_layout(flat, flat_axes), spmd_axes)
    with core.new_trace(trace), _axis_frame(axis_name, size), core.transform_name_stack("vmap"):
        tracers = [x if axis is None else BatchTracer(trace, x, axis % get_aval(x).ndim)
                   for x, axis in zip(flat, flat_axes)]
        positional, keywords = tree.tree_unflatten(in_tree, tracers)
        out = fun(*positional, **keywords)
        out_flat, out_tree = tree.tree_flatten(out)
        for leaf in out_flat:
            if not isinstance(leaf, core.Tracer) and not is_array_like(leaf):
                raise TypeError(f"Output from batched function {leaf!r} with type {type(leaf)} is not a valid JAX "
                                "type")
        out_spec = out_tree.flatten_up_to(tree.tree_broadcast(out_axes, out, is_leaf=lambda x: x is None))
        paths = [tree.keystr(path) for path, _ in tree.tree_flatten_with_path(out)[0]]
        results = [_place_output(trace, x, axis, size, path) for x, axis, path in zip(out_flat, out_spec, paths)]
    return tree.tree_unflatten(out_tree, results)


def _place_output(trace: BatchTrace, x: Any, out_axis: int | None, size: int, path: str) -> Any:
    """The output ``x`` (at ``path`` in the outputs, as the error names it) with its batch at ``out_axis``."""
    val, dim = trace.to_val_dim(x)
    if out_axis is None:
        if dim is not None:
            raise ValueError(f"at vmap out_axes{path}, got axis spec None but output was batched on axis {dim}")
        return val
    ndim = get_aval(val).ndim + (1 if dim is None else 0)
    if not -ndim <= out_axis < ndim:
        raise ValueError(f"axis {out_axis} is out of bounds for array of dimension {ndim}")
    with core.set_current_trace(trace.parent), trace.running_rules():
        return at_dim(val, dim, size, out_axis % ndim)


def _axis_frame(name: Any, size: int) -> Any:
    """Bind ``name`` to the batch size for collectives, when the vmap is named."""
    return core.extend_axis_env(name, size) if name is not None else contextlib.nullcontext()


__all__ = ["vmap"]


