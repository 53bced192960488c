"""Windowed reductions (reduce_window), the pooling gradients (select_and_scatter_add, select_and_gather_add) and
the general select_and_scatter."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import jaxle_tree
from jaxle_core import core
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import ClosedJaxpr, Primitive
from jaxle_core.lax.reductions import (
    as_operand_dtype,
    extremum_identity,
    fold_with_jaxpr,
    monoid_reducer,
    reduce_max_p,
    reduce_min_p,
    trace_reducer,
)
from jaxle_core.lax.standard import ANY, NUMBER, as_int_tuple, check_dtype, check_integer_elements

__all__ = ["padtype_to_pads", "reduce_window", "reduce_window_max_p", "reduce_window_min_p", "reduce_window_p",
           "reduce_window_sum_p", "select_and_gather_add_p", "select_and_scatter_add_p", "select_and_scatter_p"]

Padding = tuple[tuple[int, int], ...]


def padtype_to_pads(in_shape: Sequence[int], window_shape: Sequence[int], window_strides: Sequence[int],
                    padding: str) -> list[tuple[int, int]]:
    """Explicit (low, high) pads for 'VALID', 'SAME' (extra pad high) or 'SAME_LOWER' (extra pad low)."""
    kind = padding.upper() if isinstance(padding, str) else padding
    if kind == "VALID":
        return [(0, 0)] * len(in_shape)
    if kind not in ("SAME", "SAME_LOWER"):
        raise RuntimeError(f"Unrecognized padding type: expected 'VALID', 'SAME', or 'SAME_LOWER', got {padding}.")
    pads = []
    for size, window, stride in zip(in_shape, window_shape, window_strides):
        out = -(-size // stride) if stride else 0  # a zero stride counts as NumPy's integer division by zero
        total = max((out - 1) * stride + window - size, 0)
        small, large = total // 2, total - total // 2
        pads.append((small, large) if kind == "SAME" else (large, small))
    return pads


def dilate_shape(shape: Sequence[int], dilation: Sequence[int]) -> tuple[int, ...]:
    """The extent of ``shape`` with ``dilation - 1`` holes between neighbouring elements."""
    return tuple(0 if n == 0 else (n - 1) * d + 1 for n, d in zip(shape, dilation))


def window_output_shape(shape: Sequence[int], window_dimensions: Sequence[int], window_strides: Sequence[int],
                        padding: Padding, base_dilation: Sequence[int], window_dilation: Sequence[int]
                        ) -> tuple[int, ...]:
    """The shape of a strided, dilated window sweep over a padded, dilated operand."""
    out = []
    for n, w, s, (lo, hi) in zip(dilate_shape(shape, base_dilation), dilate_shape(window_dimensions, window_dilation),
                                 window_strides, padding):
        padded = lo + hi + n
        out.append(0 if padded < w else (padded - w) // s + 1)
    return tuple(out)


def _check_window(name: str, aval: ShapedArray, window_dimensions, window_strides, padding, base_dilation,
                  window_dilation) -> None:
    for what, value in (("window_dimensions", window_dimensions), ("window_strides", window_strides),
                        ("padding", padding), ("base_dilation", base_dilation),
                        ("window_dilation", window_dilation)):
        if len(value) != aval.ndim:
            raise TypeError(f"{name}: {what} must have length equal to the operand rank {aval.ndim}, got {value}")
    for what, value in (("window_dimensions", window_dimensions), ("window_strides", window_strides)):
        if any(v < 1 for v in value):
            raise TypeError(f"reduce_window {what} must have every element be strictly positive, got {value}.")
    for value in (base_dilation, window_dilation):
        if any(v < 1 for v in value):
            raise TypeError(f"All dilations must be positive, got {value}.")


def window_positions(shape: Sequence[int], window_dimensions, window_strides, padding, base_dilation,
                     window_dilation) -> np.ndarray:
    """For every (output position, window position), the flat index of the operand element there, or -1 where
    the window lies over padding or a dilation hole. Shape: output shape + window shape."""
    ndim = len(shape)
    out_shape = window_output_shape(shape, window_dimensions, window_strides, padding, base_dilation,
                                     window_dilation)
    gathered = []
    for d in range(ndim):
        lo = padding[d][0]
        starts = np.arange(out_shape[d]) * window_strides[d]
        taps = np.arange(window_dimensions[d]) * window_dilation[d]
        dilated = starts[:, None] + taps[None, :] - lo  # position in the base-dilated operand
        source, hole = np.divmod(dilated, base_dilation[d])
        valid = (dilated >= 0) & (hole == 0) & (source < shape[d])
        gathered.append((np.where(valid, source, 0), valid))
    index = np.zeros(out_shape + tuple(window_dimensions), np.int64)
    valid = np.ones(index.shape, bool)
    for d, (source, ok) in enumerate(gathered):
        view = [1] * (2 * ndim)
        view[d], view[ndim + d] = source.shape
        index = index * shape[d] + source.reshape(view)
        valid = valid & ok.reshape(view)
    return np.where(valid, index, -1)


def _window_values(x: np.ndarray, fill: Any, params: dict) -> np.ndarray:
    """Operand values under every window (``fill`` over padding), shaped output shape + window shape."""
    index = window_positions(x.shape, **params)
    flat = x.reshape(-1)
    taken = flat[np.maximum(index, 0)] if flat.size else np.zeros(index.shape, x.dtype)
    return np.where(index >= 0, taken, np.asarray(fill, x.dtype))


# ---------------------------------------------------------------- reduce_window_{sum,max,min}


def _reduce_window_primitive(name: str, accepted, reduce_windows: Callable, identity: Callable) -> Primitive:
    primitive = Primitive(name)

    def rule(x, **params):
        check_dtype(name, x.dtype, accepted)
        _check_window(name, x, **params)
        return ShapedArray(window_output_shape(x.shape, **params), x.dtype, x.weak_type)

    def impl(x, **params):
        windows = _window_values(x, identity(x.dtype), params)
        axes = tuple(range(x.ndim, 2 * x.ndim))
        return reduce_windows(windows, axes)

    primitive.def_abstract_eval(rule)
    primitive.def_impl(impl)
    return primitive


def _sum_windows(windows: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    with np.errstate(over="ignore", invalid="ignore"):
        return np.sum(windows, axis=axes, dtype=windows.dtype)


def _extremum_windows(largest: bool) -> Callable:
    reduction = reduce_max_p if largest else reduce_min_p
    return lambda windows, axes: reduction.impl(windows, axes=axes)


reduce_window_sum_p = _reduce_window_primitive("reduce_window_sum", NUMBER, _sum_windows, lambda d: 0)
reduce_window_max_p = _reduce_window_primitive("reduce_window_max", ANY, _extremum_windows(True),
                                               lambda d: extremum_identity(d, False))
reduce_window_min_p = _reduce_window_primitive("reduce_window_min", ANY, _extremum_windows(False),
                                               lambda d: extremum_identity(d, True))

# ---------------------------------------------------------------- generic reduce_window

reduce_window_p = Primitive("reduce_window")
reduce_window_p.multiple_results = True


@reduce_window_p.def_abstract_eval
def _reduce_window_aval(*avals, jaxpr, consts, **params):
    operands, inits = avals[:len(avals) // 2], avals[len(avals) // 2:]
    if any(o.dtype != i.dtype for o, i in zip(operands, inits)):
        raise TypeError(f"reduce_window got inconsistent dtypes for operands and init_values: got operand dtypes "
                        f"{[o.dtype for o in operands]} and init_value dtypes {[i.dtype for i in inits]}.")
    if len({o.shape for o in operands}) != 1:
        raise TypeError(f"reduce_window operands must have the same shapes, got {[o.shape for o in operands]}")
    _check_window("reduce_window", operands[0], **params)
    shape = window_output_shape(operands[0].shape, **params)
    return [ShapedArray(shape, o.dtype, o.weak_type) for o in operands]


@reduce_window_p.def_impl
def _reduce_window_impl(*args, jaxpr, consts, **params):
    operands, inits = args[:len(args) // 2], args[len(args) // 2:]
    ndim = operands[0].ndim
    index = window_positions(operands[0].shape, **params)
    out_shape = index.shape[:ndim]
    index = index.reshape(out_shape + (int(np.prod(params["window_dimensions"], dtype=np.int64)),))
    flat = [o.reshape(-1) for o in operands]
    taps = [[f[np.maximum(index[..., t], 0)] if f.size else np.full(out_shape, i, i.dtype)
             for f, i in zip(flat, inits)] for t in range(index.shape[-1])]
    # XLA folds the init value in once per window and skips the padding and dilation holes.
    masks = [index[..., t] >= 0 for t in range(index.shape[-1])]
    accumulators = [np.full(out_shape, i, i.dtype) for i in inits]
    return fold_with_jaxpr(ClosedJaxpr(jaxpr, list(consts)), accumulators, taps, masks)


_MONOID_WINDOW_REDUCTIONS = {"add": reduce_window_sum_p, "max": reduce_window_max_p, "min": reduce_window_min_p}


def reduce_window(operand, init_value, computation: Callable, window_dimensions: Sequence[int],
                  window_strides: Sequence[int] | None = None, padding: str | Sequence[tuple[int, int]] = "VALID",
                  base_dilation: Sequence[int] | None = None, window_dilation: Sequence[int] | None = None):
    """Reduce each window of ``operand`` with ``computation`` from ``init_value``.

    ``padding`` is 'VALID', 'SAME', 'SAME_LOWER' or explicit (low, high) pairs. ``lax.add`` from 0 and
    ``lax.max``/``lax.min`` from -inf/+inf become the specific windowed reductions.
    """
    flat_operands, tree = jaxle_tree.tree_flatten(operand)
    flat_inits, init_tree = jaxle_tree.tree_flatten(init_value)
    if tree != init_tree:
        raise ValueError(f"reduce_window operands and init_values must have the same structure, got {tree} and "
                         f"{init_tree}")
    avals = [get_aval(x) for x in flat_operands]
    window_dimensions = check_integer_elements("reduce_window", "window_dimensions", window_dimensions)
    if len(window_dimensions) != avals[0].ndim:
        raise TypeError(f"reduce_window got the wrong number of window_dimensions for operand: got operand shape "
                        f"{avals[0].shape} with window_dimensions {window_dimensions}.")
    ones = (1,) * len(window_dimensions)
    window_strides = ones if window_strides is None else check_integer_elements(
        "reduce_window", "window_strides", window_strides)
    # JAX names base_dilation for either dilation
    base_dilation = ones if base_dilation is None else check_integer_elements(
        "reduce_window", "base_dilation", base_dilation)
    window_dilation = ones if window_dilation is None else check_integer_elements(
        "reduce_window", "base_dilation", window_dilation)
    if isinstance(padding, str):
        padding = padtype_to_pads(dilate_shape(avals[0].shape, base_dilation),
                                  dilate_shape(window_dimensions, window_dilation), window_strides, padding)
    params = dict(window_dimensions=window_dimensions, window_strides=window_strides,
                  padding=tuple(as_int_tuple(pair) for pair in padding), base_dilation=base_dilation,
                  window_dilation=window_dilation)
    if len(flat_operands) == 1:
        name = monoid_reducer(computation, flat_inits[0], avals[0].dtype)
        if name in _MONOID_WINDOW_REDUCTIONS:
            return _MONOID_WINDOW_REDUCTIONS[name].bind(flat_operands[0], **params)
    flat_inits = [as_operand_dtype(i, a.dtype) for i, a in zip(flat_inits, avals)]
    closed = trace_reducer(computation, tree, avals)
    outs = reduce_window_p.bind(*flat_operands, *flat_inits, jaxpr=closed.jaxpr, consts=tuple(closed.consts),
                                **params)
    return jaxle_tree.tree_unflatten(tree, outs)


# ---------------------------------------------------------------- pooling gradients


def _selected_positions(operand: np.ndarray, prefers: Callable, params: dict) -> np.ndarray:
    """For each window, the flat operand index selected by ``prefers(current, candidate)`` (elementwise: keep the
    current choice?; ge picks the first maximum, le the first minimum); -1 for a window over padding only. Padding
    is never selected."""
    index = window_positions(operand.shape, **params)
    out_shape = index.shape[:operand.ndim]
    index = index.reshape(out_shape + (int(np.prod(params["window_dimensions"], dtype=np.int64)),))
    flat = operand.reshape(-1)
    chosen = np.full(out_shape, -1, np.int64)
    if flat.size == 0:
        return chosen
    for t in range(index.shape[-1]):
        candidate = index[..., t]
        current, value = flat[np.maximum(chosen, 0)], flat[np.maximum(candidate, 0)]
        keep = (chosen >= 0) & np.asarray(prefers(current, value), bool)
        chosen = np.where((candidate >= 0) & ~keep, candidate, chosen)
    return chosen


select_and_scatter_add_p = Primitive("select_and_scatter_add")


@select_and_scatter_add_p.def_abstract_eval
def _select_and_scatter_add_aval(source, operand, *, select_prim, window_dimensions, window_strides, padding):
    ones = (1,) * operand.ndim
    expected = window_output_shape(operand.shape, window_dimensions, window_strides, padding, ones, ones)
    if source.shape != expected:
        raise TypeError(f"select_and_scatter_add: source shape {source.shape} does not match the window output "
                        f"shape {expected}")
    return ShapedArray(operand.shape, source.dtype, source.weak_type)


@select_and_scatter_add_p.def_impl
def _select_and_scatter_add_impl(source, operand, *, select_prim, window_dimensions, window_strides, padding):
    ones = (1,) * operand.ndim
    chosen = _selected_positions(operand, select_prim.impl, dict(window_dimensions=window_dimensions,
                                                                window_strides=window_strides, padding=padding,
                                                                base_dilation=ones, window_dilation=ones))
    out = np.zeros(operand.size, source.dtype)
    hit = chosen >= 0
    with np.errstate(over="ignore", invalid="ignore"):
        np.add.at(out, chosen[hit], source[hit])
    return out.reshape(operand.shape)


select_and_gather_add_p = Primitive("select_and_gather_add")


@select_and_gather_add_p.def_abstract_eval
def _select_and_gather_add_aval(tangents, operand, *, select_prim, **params):
    if tangents.shape != operand.shape:
        raise TypeError(f"select_and_gather_add: tangents shape {tangents.shape} must equal operand shape "
                        f"{operand.shape}")
    return ShapedArray(window_output_shape(operand.shape, **params), tangents.dtype, tangents.weak_type)


@select_and_gather_add_p.def_impl
def _select_and_gather_add_impl(tangents, operand, *, select_prim, **params):
    chosen = _selected_positions(operand, select_prim.impl, params)
    flat = tangents.reshape(-1)
    taken = flat[np.maximum(chosen, 0)] if flat.size else np.zeros(chosen.shape, tangents.dtype)
    return np.where(chosen >= 0, taken, np.zeros((), tangents.dtype))


# ---------------------------------------------------------------- select_and_scatter (with jaxpr-valued select and
# scatter computations, as JAX's general primitive; it has no derivative or batching rule in JAX either)

select_and_scatter_p = Primitive("select_and_scatter")


@select_and_scatter_p.def_abstract_eval
def _select_and_scatter_aval(operand, source, init_value, *, select_jaxpr, select_consts, scatter_jaxpr,
                             scatter_consts, window_dimensions, window_strides, padding):
    if len(window_strides) != len(window_dimensions):
        raise TypeError(f"select_and_scatter got inconsistent window_strides and window_dimensions: got "
                        f"window_strides {window_strides} and window_dimensions {window_dimensions}.")
    return ShapedArray(operand.shape, operand.dtype, operand.weak_type)


def _scalar_function(jaxpr, consts) -> Callable:
    """A scalar computation's jaxpr applied elementwise to NumPy arrays (its primitives broadcast)."""
    def apply(*args):
        with core.set_current_trace(core.EvalTrace()):
            return np.asarray(core.eval_jaxpr(jaxpr, list(consts), *args)[0])

    return apply


@select_and_scatter_p.def_impl
def _select_and_scatter_impl(operand, source, init_value, *, select_jaxpr, select_consts, scatter_jaxpr,
                             scatter_consts, window_dimensions, window_strides, padding):
    ones = (1,) * operand.ndim
    params = dict(window_dimensions=window_dimensions, window_strides=window_strides, padding=padding,
                  base_dilation=ones, window_dilation=ones)
    expected = window_output_shape(operand.shape, **params)
    if source.shape != expected or source.dtype != operand.dtype or init_value.dtype != operand.dtype:
        raise ValueError(f"select_and_scatter needs a source of the window output shape {expected} and a source and "
                         f"init value of the operand's dtype {operand.dtype}; got source {source.dtype}"
                         f"{list(source.shape)} and init value {init_value.dtype}")
    chosen = _selected_positions(operand, _scalar_function(select_jaxpr, select_consts), params).reshape(-1)
    values = source.reshape(-1)
    scatter = _scalar_function(scatter_jaxpr, scatter_consts)
    out = np.full(operand.size, init_value, operand.dtype)
    # Windows that chose the same element combine into it one after the other (in window order): the k-th of
    # each group in round k, where every target is distinct.
    order = np.argsort(chosen, kind="stable")
    group_start = np.searchsorted(chosen[order], chosen[order])
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order)) - group_start
    for k in range(int(rank.max(initial=-1)) + 1):
        hit = (rank == k) & (chosen >= 0)
        targets = chosen[hit]
        out[targets] = scatter(out[targets], values[hit]).astype(operand.dtype)
    return out.reshape(operand.shape)
