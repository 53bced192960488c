"""vectorize, frompyfunc, apply_along_axis, apply_over_axes: NumPy's function-mapping helpers built on vmap."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Sequence
from typing import Any

import numpy as np

from jaxle_core.array import Array
from jaxle_core.avals import get_aval
from jaxle_core.batching import vmap
from jaxle_core.lax import structural as lax_structural
from jaxle_numpy.creation import asarray
from jaxle_numpy.util import canonicalize_axis, check_arraylike, ensure_arraylike
from jaxle_tree import tree_map

__all__ = ["vectorize", "frompyfunc", "apply_along_axis", "apply_over_axes"]

# NumPy's generalized-ufunc signature grammar: "(m,n),(n)->(m)", dimension names are words.
_DIMENSION_LIST = r"\((?:\w+(?:,\w+)*)?\)"
_ARGUMENT_LIST = rf"{_DIMENSION_LIST}(?:,{_DIMENSION_LIST})*"
_SIGNATURE = re.compile(rf"^{_ARGUMENT_LIST}->{_ARGUMENT_LIST}$")

CoreDims = tuple[str, ...]


def _parse_signature(signature: str) -> tuple[list[CoreDims], list[CoreDims]]:
    """The core dimension names of each input and each output of a gufunc signature."""
    if not _SIGNATURE.match(signature):
        raise ValueError(f"not a valid gufunc signature: {signature}")
    inputs, outputs = signature.split("->")

    def dims(arguments: str) -> list[CoreDims]:
        return [tuple(name for name in group.split(",") if name) for group in re.findall(r"\(([^)]*)\)", arguments)]

    return dims(inputs), dims(outputs)


def _loop_shapes_and_core_sizes(args: Sequence[Any], input_core_dims: list[CoreDims],
                                context: str) -> tuple[tuple[int, ...], dict[str, int]]:
    """The broadcast shape of the arguments' loop dimensions and the size of each named core dimension."""
    sizes: dict[str, int] = {}
    loop_shapes = []
    for arg, core_dims in zip(args, input_core_dims):
        shape = get_aval(arg).shape
        if len(shape) < len(core_dims):
            raise ValueError(f"input with shape {shape!r} does not have enough dimensions for all core dimensions "
                             f"{core_dims!r} {context}")
        core_shape = shape[len(shape) - len(core_dims):]
        for name, size in zip(core_dims, core_shape):
            if sizes.setdefault(name, size) != size:
                raise ValueError(f"inconsistent size for core dimension {name!r}: {size} vs {sizes[name]} {context}")
        loop_shapes.append(shape[:len(shape) - len(core_dims)])
    return lax_structural.broadcast_shapes(*loop_shapes), sizes


def _checking_outputs(func: Callable, output_core_dims: list[CoreDims] | None, sizes: dict[str, int],
                      context: str) -> Callable:
    """``func`` with its outputs checked against the signature's output core dimensions."""
    if output_core_dims is None:
        return func

    def checked(*args):
        out = func(*args)
        outs = out if isinstance(out, tuple) else (out,)
        if len(output_core_dims) > 1 and not isinstance(out, tuple):
            raise TypeError(f"output must be a tuple when multiple outputs are expected, got: {out!r}\n{context}")
        if len(outs) != len(output_core_dims):
            raise TypeError(f"wrong number of output arguments: expected {len(output_core_dims)}, got {len(outs)} "
                            f"{context}")
        for x, core_dims in zip(outs, output_core_dims):
            shape = get_aval(x).shape
            if len(shape) != len(core_dims):
                raise ValueError(f"output shape {shape} does not match core dimensions {core_dims} {context}")
            for name, size in zip(core_dims, shape):
                if sizes.setdefault(name, size) != size:
                    raise ValueError(f"inconsistent size for core dimension {name!r}: {size} vs {sizes[name]} "
                                     f"{context}")
        return out

    return checked


def _without_excluded(pyfunc: Callable, excluded: Collection[int | str], args: tuple, kwargs: dict
                      ) -> tuple[Callable, tuple]:
    """``pyfunc`` with the excluded positional and keyword arguments bound, and the positional arguments still
    mapped. As in JAX, keyword arguments that are not excluded are not passed on (``pyfunc`` sees its defaults)."""
    fixed = {i: args[i] for i in excluded if isinstance(i, int) and i < len(args)}
    mapped_args = tuple(a for i, a in enumerate(args) if i not in fixed)
    fixed_kwargs = {k: v for k, v in kwargs.items() if k in excluded}

    def bound(*mapped):
        it = iter(mapped)
        return pyfunc(*(fixed[i] if i in fixed else next(it) for i in range(len(args))), **fixed_kwargs)

    return bound, mapped_args


def vectorize(pyfunc: Callable, *, excluded: Collection[int | str] = frozenset(), signature: str | None = None
              ) -> Callable:
    """``pyfunc`` applied over leading (loop) dimensions with NumPy's broadcasting, by vmap.

    ``signature`` names core dimensions (``"(m,n),(n)->(m)"``) that ``pyfunc`` sees whole; ``excluded`` lists the
    positions or names of arguments passed through unmapped. Size-1 loop dimensions are not mapped: the argument is
    squeezed and vmap broadcasts it (``in_axes=None``), which lets batching rules see unbatched operands.
    """
    if any(not isinstance(e, (int, str)) for e in excluded):
        raise TypeError(f"jax.numpy.vectorize can only exclude integer or string arguments, but excluded={excluded!r}")
    if any(isinstance(e, int) and e < 0 for e in excluded):
        raise ValueError(f"excluded={excluded!r} contains negative numbers")

    @functools.wraps(pyfunc)
    def wrapped(*args, **kwargs):
        context = f"on vectorized function with excluded={excluded!r} and signature={signature!r}"
        from jaxle_numpy.manipulation import squeeze  # noqa: PLC0415 - manipulation builds on vectorize
        func, args = _without_excluded(pyfunc, excluded, args, kwargs)
        args = tuple(asarray(a) for a in args)
        if signature is None:
            input_core_dims: list[CoreDims] = [()] * len(args)
            output_core_dims = None
        else:
            input_core_dims, output_core_dims = _parse_signature(signature)
            if len(input_core_dims) != len(args):
                raise TypeError(f"wrong number of positional arguments: expected {len(input_core_dims)}, got "
                                f"{len(args)} {context}")
        loop_shape, sizes = _loop_shapes_and_core_sizes(args, input_core_dims, context)
        func = _checking_outputs(func, output_core_dims, sizes, context)
        squeezed, reversed_loop_shapes = [], []
        for arg, core_dims in zip(args, input_core_dims):
            shape = get_aval(arg).shape
            own_loop_shape = shape[:len(shape) - len(core_dims)]
            ones = tuple(i for i, size in enumerate(own_loop_shape) if size == 1)
            # by jnp.squeeze (an eager array also with no axes), as JAX's: it names an argument on other devices
            squeezed.append(squeeze(arg, ones) if ones or isinstance(arg, Array) else arg)
            padded = (1,) * (len(loop_shape) - len(own_loop_shape)) + own_loop_shape
            reversed_loop_shapes.append(padded[::-1])
        unmapped_dims = []
        for from_end, sizes_here in enumerate(zip(*reversed_loop_shapes)):
            in_axes = tuple(None if size == 1 else 0 for size in sizes_here)
            if all(axis is None for axis in in_axes):
                unmapped_dims.append(len(loop_shape) - 1 - from_end)
            else:
                func = vmap(func, in_axes)
        result = func(*squeezed)
        if not unmapped_dims:
            return result
        return tree_map(lambda x: lax_structural.expand_dims(x, sorted(unmapped_dims)), result)

    return wrapped


def frompyfunc(func: Callable[..., Any], /, nin: int, nout: int, *, identity: Any = None) -> Any:
    """``func`` of ``nin`` scalars (returning ``nout`` values) as a ``jnp.ufunc``: called through ``vectorize``,
    with the ufunc methods (``reduce``, ``accumulate``, ``outer``, ``at``, ...)."""
    from jaxle_numpy.ufunc import ufunc  # noqa: PLC0415 - the ufunc class calls back into vectorize

    return ufunc(func, nin, nout, identity=identity)


def apply_along_axis(func1d: Callable, axis: int, arr: Any, *args, **kwargs) -> Any:
    """``func1d`` applied to the 1-d slices of ``arr`` along ``axis``; its result's dimensions replace ``axis``."""
    check_arraylike("apply_along_axis", arr)
    ndim = np.ndim(arr)  # as JAX's: a string or bytes has no dimension (so no axis)
    axis = canonicalize_axis(axis, ndim)

    def func(slice_1d):
        return func1d(slice_1d, *args, **kwargs)

    for in_axis in range(1, ndim - axis):  # the dimensions after ``axis``, mapped to the end of the result
        func = vmap(func, in_axes=in_axis, out_axes=-1)
    for _ in range(axis):  # the dimensions before it, kept in front
        func = vmap(func, in_axes=0, out_axes=0)
    return func(arr)


def apply_over_axes(func: Callable[[Any, int], Any], a: Any, axes: Sequence[int]) -> Any:
    """``func(a, axis)`` applied for each of ``axes`` in turn; a result one dimension short gets ``axis`` back."""
    a = ensure_arraylike("apply_over_axes", a)
    for axis in axes:
        result = func(a, axis)
        result_ndim, ndim = get_aval(result).ndim, get_aval(a).ndim
        if result_ndim == ndim - 1:
            result = lax_structural.expand_dims(result, (axis,))
        elif result_ndim != ndim:
            raise ValueError("function is not returning an array of the correct shape")
        a = result
    return a
