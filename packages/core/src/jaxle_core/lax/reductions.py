"""Reductions over axes: sums, products, extrema, logical reductions, argmax/argmin, and generic ``reduce``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import jaxle_tree
from jaxle_core import core, dtypes
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import Primitive
from jaxle_core.lax import elementwise as lax_elementwise
from jaxle_core.lax.standard import ANY, NUMBER, as_int_tuple, check_dtype
from jaxle_core.sharding_types import resolve_out_sharding
from jaxle_core.staging import trace_to_jaxpr

__all__ = ["argmax", "argmax_p", "argmin", "argmin_p", "reduce", "reduce_and", "reduce_and_p", "reduce_max",
           "reduce_max_p", "reduce_min", "reduce_min_p", "reduce_or", "reduce_or_p", "reduce_p", "reduce_prod",
           "reduce_prod_p", "reduce_sum", "reduce_sum_p", "reduce_xor", "reduce_xor_p"]


def check_reduction_axes(axes: tuple[int, ...], aval: ShapedArray) -> None:
    if len(set(axes)) != len(axes):
        raise ValueError(f"duplicate value in 'axes' of reduction: {axes}")
    if not all(0 <= a < aval.ndim for a in axes):
        raise ValueError(f"reduction axes {axes} contains out-of-bounds indices for {aval.str_short()}.")


def _reduced_shape(shape: tuple[int, ...], axes: Sequence[int]) -> tuple[int, ...]:
    return tuple(s for i, s in enumerate(shape) if i not in axes)


def _check_logical(x: ShapedArray) -> None:
    if not (x.dtype == np.bool_ or np.issubdtype(x.dtype, np.integer)):
        raise TypeError(f"logical reduction requires operand dtype bool or int, got {x.dtype.name}.")


def _reduction_primitive(name: str, accepted, impl: Callable, with_sharding: bool = False) -> Primitive:
    """A primitive reducing one operand over ``axes``; its result keeps the operand's dtype and weak type."""
    primitive = Primitive(name)

    def rule(x, *, axes, **_):
        if accepted is None:
            _check_logical(x)
        else:
            check_dtype(name, x.dtype, accepted)
        check_reduction_axes(axes, x)
        return ShapedArray(_reduced_shape(x.shape, axes), x.dtype, x.weak_type)

    primitive.def_abstract_eval(rule)
    primitive.def_impl(lambda x, *, axes, **_: impl(x, axes))
    return primitive


# ---------------------------------------------------------------- reference implementations


def accumulation_dtype(dtype: np.dtype) -> np.dtype:
    """The dtype sums accumulate in: float32 for floats narrower than 32 bits, else ``dtype``."""
    if dtypes.issubdtype(dtype, np.floating) and dtype.itemsize < 4:
        return np.dtype(np.float32)
    return dtype


def _sum(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """Sum over ``axes``; a sum of two or more terms starts from +0.0, so all -0.0 terms give +0.0 as in XLA."""
    count = int(np.prod([x.shape[a] for a in axes], dtype=np.int64))
    if count == 1:
        return x.reshape(_reduced_shape(x.shape, axes)).copy()
    with np.errstate(over="ignore", invalid="ignore"):
        total = np.sum(x, axis=axes, dtype=accumulation_dtype(x.dtype))
        if dtypes.issubdtype(x.dtype, np.inexact):
            total = total + np.zeros((), total.dtype)
        return np.asarray(total).astype(x.dtype)


def _prod(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """Product over ``axes``; unlike sums, XLA multiplies narrow floats in their own dtype (partials may overflow)."""
    if accumulation_dtype(x.dtype) == x.dtype:
        with np.errstate(over="ignore", invalid="ignore"):
            return np.prod(x, axis=axes, dtype=x.dtype)
    # NumPy's float16 product keeps a wider accumulator, so multiply one term at a time, rounding each step.
    kept = [i for i in range(x.ndim) if i not in axes]
    out_shape = _reduced_shape(x.shape, axes)
    terms = np.transpose(x, list(axes) + kept).reshape(-1, *out_shape)
    product = np.ones(out_shape, x.dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        for term in terms:
            product = np.multiply(product, term, dtype=x.dtype)
    return product


def extremum_identity(dtype: np.dtype, largest: bool) -> Any:
    """The identity of max (``largest=False``: the smallest value) or of min (``largest=True``)."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return np.bool_(largest)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return dtype.type(info.max if largest else info.min)
    return np.array(np.inf if largest else -np.inf).astype(dtype)[()]


def _lexicographic_key(x: np.ndarray) -> list[np.ndarray]:
    """Keys ordering complex numbers by real part, then imaginary part."""
    return [x.imag, x.real] if np.iscomplexobj(x) else [x]


def _extremum(x: np.ndarray, axes: tuple[int, ...], largest: bool) -> np.ndarray:
    """max (``largest``) or min over ``axes``: NaN wins, and +0.0 is larger than -0.0, as XLA computes it."""
    if x.size == 0 or not axes:
        out_shape = _reduced_shape(x.shape, axes)
        return x.copy() if not axes else np.full(out_shape, extremum_identity(x.dtype, not largest), x.dtype)
    kept = [i for i in range(x.ndim) if i not in axes]
    flat = np.transpose(x, kept + list(axes)).reshape(*[x.shape[i] for i in kept], -1)
    if np.iscomplexobj(flat):
        order = np.lexsort(_lexicographic_key(flat), axis=-1)
        pick = order[..., -1:] if largest else order[..., :1]
        return np.take_along_axis(flat, pick, axis=-1)[..., 0]
    wide = flat.astype(np.float64) if dtypes.issubdtype(x.dtype, np.floating) else flat
    result = (np.max if largest else np.min)(wide, axis=-1)
    if wide.dtype.kind == "f":
        # NumPy does not order the zeros; XLA treats -0.0 as below +0.0.
        has_zero_of_winning_sign = np.any((wide == 0) & (np.signbit(wide) != largest), axis=-1)
        signed_zero = np.where(has_zero_of_winning_sign, 0.0 if largest else -0.0, -0.0 if largest else 0.0)
        result = np.where(result == 0, signed_zero, result)
    return np.asarray(result).astype(x.dtype)


def _logical(fn: Callable, x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    return fn.reduce(x, axis=axes) if axes else x.copy()


reduce_sum_p = _reduction_primitive("reduce_sum", NUMBER, _sum)
reduce_prod_p = _reduction_primitive("reduce_prod", NUMBER, _prod)
reduce_max_p = _reduction_primitive("reduce_max", ANY, lambda x, axes: _extremum(x, axes, True))
reduce_min_p = _reduction_primitive("reduce_min", ANY, lambda x, axes: _extremum(x, axes, False))
reduce_and_p = _reduction_primitive("reduce_and", None, lambda x, axes: _logical(np.bitwise_and, x, axes))
reduce_or_p = _reduction_primitive("reduce_or", None, lambda x, axes: _logical(np.bitwise_or, x, axes))
reduce_xor_p = _reduction_primitive("reduce_xor", None, lambda x, axes: _logical(np.bitwise_xor, x, axes))


def reduce_sum(operand, axes: Sequence[int], out_sharding=None):
    """Sum of ``operand`` over ``axes``."""
    return reduce_sum_p.bind(operand, axes=as_int_tuple(axes),
                             out_sharding=resolve_out_sharding(out_sharding, "reduce_sum"))


def reduce_prod(operand, axes: Sequence[int]):
    """Product of ``operand`` over ``axes``."""
    return reduce_prod_p.bind(operand, axes=as_int_tuple(axes))


def reduce_max(operand, axes: Sequence[int]):
    """Maximum of ``operand`` over ``axes`` (NaN propagates)."""
    return reduce_max_p.bind(operand, axes=as_int_tuple(axes))


def reduce_min(operand, axes: Sequence[int]):
    """Minimum of ``operand`` over ``axes`` (NaN propagates)."""
    return reduce_min_p.bind(operand, axes=as_int_tuple(axes))


def reduce_and(operand, axes: Sequence[int]):
    """Bitwise/logical AND of a bool or integer ``operand`` over ``axes``."""
    return reduce_and_p.bind(operand, axes=as_int_tuple(axes))


def reduce_or(operand, axes: Sequence[int]):
    """Bitwise/logical OR of a bool or integer ``operand`` over ``axes``."""
    return reduce_or_p.bind(operand, axes=as_int_tuple(axes))


def reduce_xor(operand, axes: Sequence[int]):
    """Bitwise/logical XOR of a bool or integer ``operand`` over ``axes``."""
    return reduce_xor_p.bind(operand, axes=as_int_tuple(axes))


# ---------------------------------------------------------------- argmax / argmin


def _arg_extremum_primitive(name: str, largest: bool) -> Primitive:
    primitive = Primitive(name)

    def rule(x, *, axes, index_dtype):
        check_dtype(name, x.dtype, ANY)
        if not np.issubdtype(index_dtype, np.integer):
            raise TypeError(f"index_dtype must be an integer type, but got {index_dtype.name}")
        (axis,) = axes
        if not 0 <= axis < x.ndim:
            raise ValueError(f"Invalid axis {axis} for operand shape {x.shape}")
        if x.shape[axis] == 0:
            raise ValueError(f"argmin and argmax require non-empty reduced dimension. operand.shape={x.shape} "
                             f"axis={axis}")
        return ShapedArray(_reduced_shape(x.shape, axes), index_dtype)

    def impl(x, *, axes, index_dtype):
        (axis,) = axes
        values = np.moveaxis(x, axis, -1)
        if np.iscomplexobj(values):
            raise TypeError(f"{name} does not support complex operands when evaluated")
        if dtypes.issubdtype(values.dtype, np.floating):
            values = values.astype(np.float64)  # NumPy cannot order bfloat16 and friends natively
        # NumPy's arg-reductions pick the first NaN, else the first extremal element, as XLA's do.
        index = (np.argmax if largest else np.argmin)(values, axis=-1)
        return np.asarray(index).astype(index_dtype)

    primitive.def_abstract_eval(rule)
    primitive.def_impl(impl)
    return primitive


argmax_p = _arg_extremum_primitive("argmax", True)
argmin_p = _arg_extremum_primitive("argmin", False)


def _arg_reduce(primitive: Primitive, operand, axis: int, index_dtype):
    index_dtype = dtypes.canonicalize_dtype(dtypes.dtype(index_dtype, requested_in=primitive.name))
    return primitive.bind(operand, axes=as_int_tuple(axis), index_dtype=index_dtype)


def argmax(operand, axis: int, index_dtype):
    """Index of the maximum along ``axis`` (the first NaN if any; the first maximum on ties)."""
    return _arg_reduce(argmax_p, operand, axis, index_dtype)


def argmin(operand, axis: int, index_dtype):
    """Index of the minimum along ``axis`` (the first NaN if any; the first minimum on ties)."""
    return _arg_reduce(argmin_p, operand, axis, index_dtype)


# ---------------------------------------------------------------- generic reduce

reduce_p = Primitive("reduce")
reduce_p.multiple_results = True


@reduce_p.def_abstract_eval
def _reduce_aval(*avals, computation, jaxpr, dimensions):
    operands, inits = avals[:len(avals) // 2], avals[len(avals) // 2:]
    if any(o.dtype != i.dtype for o, i in zip(operands, inits)):
        raise TypeError(f"reduce operand dtypes should match corresponding initial value dtypes, got operands="
                        f"{list(operands)} and initial_values={list(inits)}")
    if len({o.shape for o in operands}) != 1:
        raise ValueError(f"reduce found non-scalar initial value or operands of different shapes: "
                         f"{[o.shape for o in operands]}")
    check_reduction_axes(dimensions, operands[0])
    return [ShapedArray(_reduced_shape(o.shape, dimensions), o.dtype, o.weak_type) for o in operands]


def fold_with_jaxpr(closed: core.ClosedJaxpr, accumulators: list[np.ndarray], slices: Sequence[list[np.ndarray]],
                    masks: Sequence[np.ndarray] | None = None) -> list[np.ndarray]:
    """Fold ``slices`` into ``accumulators`` with a scalar reducer jaxpr applied elementwise to whole arrays;
    where ``masks[k]`` (one per slice) is False, the accumulators are left as they are."""
    with core.set_current_trace(core.EvalTrace()):
        for k, values in enumerate(slices):
            outs = core.eval_jaxpr(closed.jaxpr, closed.consts, *accumulators, *values)
            outs = [np.asarray(o).astype(a.dtype) for o, a in zip(outs, accumulators)]
            accumulators = outs if masks is None else [np.where(masks[k], o, a) for o, a in zip(outs, accumulators)]
    return accumulators


@reduce_p.def_impl
def _reduce_impl(*args, computation, jaxpr, dimensions):
    operands, inits = args[:len(args) // 2], args[len(args) // 2:]
    if not dimensions:  # XLA folds nothing, not even the init values, into a reduction over no dimensions
        return [np.array(o, copy=True) for o in operands]
    kept = [i for i in range(operands[0].ndim) if i not in dimensions]
    out_shape = _reduced_shape(operands[0].shape, dimensions)
    moved = [np.transpose(o, list(dimensions) + kept).reshape(-1, *out_shape) for o in operands]
    accumulators = [np.full(out_shape, i, i.dtype) for i in inits]
    return fold_with_jaxpr(jaxpr, accumulators, [[m[k] for m in moved] for k in range(moved[0].shape[0])])


def trace_reducer(computation: Callable, tree, avals: Sequence[ShapedArray]) -> core.ClosedJaxpr:
    """Trace ``computation(x, y)`` on scalar avals; ``x`` and ``y`` are each structured like ``tree``."""
    n = len(avals)

    def flat_computation(*scalars):
        x = jaxle_tree.tree_unflatten(tree, scalars[:n])
        y = jaxle_tree.tree_unflatten(tree, scalars[n:])
        out_leaves, out_tree = jaxle_tree.tree_flatten(computation(x, y))
        if out_tree != tree:
            raise TypeError(f"reduction computation must return the structure of its operands {tree}, got {out_tree}")
        return out_leaves

    scalar_avals = [ShapedArray((), a.dtype) for a in avals]
    return trace_to_jaxpr(flat_computation, scalar_avals + scalar_avals)


def monoid_reducer(computation: Callable, init_value: Any, dtype: np.dtype) -> str | None:
    """The name of the lax operation ``computation`` is, when ``init_value`` is its identity for ``dtype``."""
    value = core.concrete_value(init_value)
    if value is None or isinstance(value, core.Tracer):
        return None
    value = np.asarray(value)
    identities = {"add": 0, "mul": 1, "bitwise_or": 0, "bitwise_xor": 0,
                  "bitwise_and": True if dtype == np.bool_ else -1,
                  "max": extremum_identity(dtype, False), "min": extremum_identity(dtype, True)}
    for name, identity in identities.items():
        if computation is getattr(lax_elementwise, name, None):
            if name.startswith("bitwise") and not (dtype == np.bool_ or np.issubdtype(dtype, np.integer)):
                return None
            identity = np.asarray(identity).astype(dtype)
            with np.errstate(invalid="ignore"):  # an init of -inf for an integer max (as equinox's pools pass)
                return name if value.shape == () and value.astype(dtype) == identity else None
    return None


_MONOID_REDUCTIONS = {"add": reduce_sum, "mul": reduce_prod, "max": reduce_max, "min": reduce_min,
                      "bitwise_and": reduce_and, "bitwise_or": reduce_or, "bitwise_xor": reduce_xor}


def as_operand_dtype(value, dtype: np.dtype):
    """A Python-scalar init value takes the dtype of its operand; arrays are left as they are."""
    if isinstance(value, (bool, int, float, complex)):
        return np.asarray(value).astype(dtype)[()]
    return value


def reduce(operands, init_values, computation: Callable, dimensions: Sequence[int], out_sharding=None):
    """Reduce ``operands`` (a pytree of arrays) over ``dimensions`` with ``computation`` from ``init_values``.

    Known monoids (``lax.add`` from 0, ``lax.max`` from -inf, ...) become the specific reduction primitive.
    """
    flat_operands, tree = jaxle_tree.tree_flatten(operands)
    flat_inits, init_tree = jaxle_tree.tree_flatten(init_values)
    if tree != init_tree:
        raise ValueError(f"Operands must have the same tree structure as init_values: {tree} vs. {init_tree}")
    dimensions = as_int_tuple(dimensions)
    avals = [get_aval(x) for x in flat_operands]
    init_shapes = [np.shape(i) for i in flat_inits]
    if any(init_shapes):
        raise ValueError(f"reduce found non-scalar initial value: {init_shapes}")
    if len(flat_operands) == 1:
        name = monoid_reducer(computation, flat_inits[0], avals[0].dtype)
        if name is not None:
            reduction = _MONOID_REDUCTIONS[name]
            if name == "add":
                return reduction(flat_operands[0], dimensions, out_sharding=out_sharding)
            return reduction(flat_operands[0], dimensions)
    flat_inits = [as_operand_dtype(i, a.dtype) for i, a in zip(flat_inits, avals)]
    jaxpr = trace_reducer(computation, tree, avals)
    outs = reduce_p.bind(*flat_operands, *flat_inits, computation=computation, jaxpr=jaxpr, dimensions=dimensions)
    return jaxle_tree.tree_unflatten(tree, outs)
