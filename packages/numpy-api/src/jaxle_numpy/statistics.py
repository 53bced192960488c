"""Statistics over data: average, cov, corrcoef, histograms, bincount, digitize, diff, gradient, interp, trapezoid,
unwrap.

Each is staged as JAX stages it (``jit[name=diff]``, ``jit[name=cov]``, ...), built from the other jnp modules'
functions where JAX builds them from those (searchsorted, linspace, concatenate, indexing).
"""

from __future__ import annotations

import builtins
import math
import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxle_core import dtypes, lax
from jaxle_core.avals import get_aval
from jaxle_core.core import Tracer
from jaxle_core.errors import ConcretizationTypeError
from jaxle_core.jit import jit
from jaxle_core.lax import GatherScatterMode, ScatterDimensionNumbers
from jaxle_core.lax import operators as lax_operators
from jaxle_core.sharding import NamedSharding
from jaxle_core.sharding_types import ShardingTypeError, checked_out_sharding
from jaxle_numpy import conditional
from jaxle_numpy.creation import asarray
from jaxle_numpy.cumulative import cumsum
from jaxle_numpy.grids import ix_
from jaxle_numpy.indexing import getitem, scatter_update
from jaxle_numpy.manipulation import atleast_2d, concatenate, diagonal, moveaxis, ravel
from jaxle_numpy.products import dot
from jaxle_numpy.ranges import linspace
from jaxle_numpy.reductions import axis_made_static, broadcast_to_shape, mean, ptp, sum
from jaxle_numpy.reductions import max as max_
from jaxle_numpy.reductions import min as min_
from jaxle_numpy.selection import ravel_multi_index
from jaxle_numpy.sorting import searchsorted
from jaxle_numpy.ufuncs import clip, greater_equal, remainder
from jaxle_numpy.util import (
    canonicalize_axis,
    check_arraylike,
    check_scalar_arraylike,
    compiled_when_eager,
    ensure_array,
    named_jit,
    promote_args_inexact,
    promote_dtypes_inexact,
    promote_shapes,
)

__all__ = ["average", "cov", "corrcoef", "histogram", "histogram2d", "histogramdd", "histogram_bin_edges",
           "bincount", "digitize", "diff", "ediff1d", "gradient", "interp", "trapezoid", "unwrap"]


def concrete_or_error(convert: Callable, value: Any, context: str) -> Any:
    """``convert(value)`` for a concrete value; JAX's ConcretizationTypeError, ``context`` appended, for a tracer."""
    if isinstance(value, Tracer):
        raise ConcretizationTypeError("Abstract tracer value encountered where concrete value is expected: traced "
                                      f"array with shape {get_aval(value).str_short()}\n{context}")
    return convert(value)


def _promote(x: Any, y: Any) -> list[Any]:
    """``x`` and ``y`` promoted as jnp's binary functions promote them: ranks first, then dtypes."""
    return lax_operators.promote_dtypes(*promote_shapes("", ensure_array(x), ensure_array(y)))


def _binary(fn: Callable, x: Any, y: Any) -> Any:
    return fn(*_promote(x, y))


def _true_divide(x: Any, y: Any) -> Any:
    return lax.div(*promote_dtypes_inexact(*promote_shapes("", ensure_array(x), ensure_array(y))))


def _slice_along(a: Any, start: int | None, stop: int | None, axis: int) -> Any:
    """``a[..., start:stop, ...]`` at ``axis``, as basic indexing stages it."""
    index = [slice(None)] * get_aval(a).ndim
    index[axis] = slice(start, stop)
    return getitem(a, tuple(index))


def _index_along(a: Any, position: int, axis: int) -> Any:
    index = [slice(None)] * get_aval(a).ndim
    index[axis] = position
    return getitem(a, tuple(index))


# ---------------------------------------------------------------- average


@axis_made_static
@compiled_when_eager(static_argnames=("axis", "returned", "keepdims"), dynamic_argnames=("weights",),
                     traced_name="_average")
def average(a: Any, axis: int | tuple[int, ...] | None = None, weights: Any = None, returned: bool = False,
            keepdims: bool = False) -> Any:
    """Weighted mean over ``axis``; with ``returned``, also the sum of the weights. Weights of another shape than
    ``a`` are those of the dimensions ``axis`` names, in its order."""
    check_arraylike("average", a, *(() if weights is None else (weights,)))
    a = ensure_array(a)
    shape = get_aval(a).shape
    # JAX's ValueError for an axis out of range, here (jnp.mean's is an IndexError)
    axes = None if axis is None else tuple(
        canonicalize_axis(d, len(shape)) for d in (axis if isinstance(axis, tuple) else (axis,)))
    if axes is not None and len(set(axes)) < len(axes):
        raise ValueError(f"repeated axis: {axes}")
    if weights is None:
        # made inexact first, as JAX's (booleans become floats directly, not through the integer mean sums in)
        avg = mean(promote_dtypes_inexact(a)[0], axis=axis, keepdims=keepdims)
        if not returned:
            return avg
        count = math.prod(shape if axes is None else (shape[d] for d in axes))
        weights_sum = lax.broadcast_in_dim(np.array(count, get_aval(avg).dtype), get_aval(avg).shape, ())
    else:
        a, weights = promote_dtypes_inexact(a, ensure_array(weights))
        weights_shape = get_aval(weights).shape
        if shape != weights_shape:
            if axes is None:
                raise ValueError("Axis must be specified when shapes of a and weights differ.")
            if weights_shape != tuple(shape[d] for d in axes):
                raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
            weights = lax.reshape(weights, tuple(size if d in axes else 1 for d, size in enumerate(shape)),
                                  dimensions=tuple(int(i) for i in np.argsort(axes)))
        weights_sum = sum(weights, axis=axis, keepdims=keepdims)
        avg = lax.div(*lax_operators.promote(sum(lax.mul(*lax_operators.promote(a, weights)), axis=axis,
                                                 keepdims=keepdims), weights_sum))
    if returned:
        avg_shape = get_aval(avg).shape
        if get_aval(weights_sum).shape != avg_shape:
            weights_sum = broadcast_to_shape(weights_sum, avg_shape)
        return avg, weights_sum
    return avg


# ---------------------------------------------------------------- diff, ediff1d, gradient, trapezoid, unwrap


def _static_int(value: Any, what: str) -> int:
    return concrete_or_error(operator.index, value, f"'{what}' argument of jnp.diff")


@named_jit("diff", ("n", "axis"))
def diff(a: Any, n: int = 1, axis: int = -1, prepend: Any = None, append: Any = None) -> Any:
    """The ``n``-th discrete difference along ``axis`` (``prepend``/``append`` joined first)."""
    check_arraylike("diff", a)
    a = ensure_array(a)
    n = _static_int(n, "n")
    axis = _static_int(axis, "axis")
    if n == 0:
        return a
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    ndim = get_aval(a).ndim
    if ndim == 0:
        raise ValueError(f"diff requires input that is at least one dimensional; got {a}")
    axis = canonicalize_axis(axis, ndim)
    pieces = []
    for name, extra in (("prepend", prepend), (None, a), ("append", append)):
        if extra is None:
            continue
        if name is not None:
            check_arraylike("diff", extra)
            extra = ensure_array(extra)
            if get_aval(extra).ndim == 0:
                shape = list(get_aval(a).shape)
                shape[axis] = 1
                extra = lax.broadcast_in_dim(extra, tuple(shape), ())
        pieces.append(extra)
    if len(pieces) > 1:
        a = concatenate(pieces, axis)
    subtract = lax.ne if get_aval(a).dtype == np.bool_ else lax.sub
    for _ in range(n):
        a = subtract(_slice_along(a, 1, None, axis), _slice_along(a, None, -1, axis))
    return a


def _flat_as(x: Any, dtype: np.dtype) -> Any:
    x = ensure_array(x)
    aval = get_aval(x)
    if aval.dtype != dtype or aval.weak_type:
        x = lax.convert_element_type(x, dtype)
    return ravel(x)


@named_jit("ediff1d")
def ediff1d(ary: Any, to_end: Any = None, to_begin: Any = None) -> Any:
    """Differences of consecutive elements of the flattened ``ary``, with ``to_begin``/``to_end`` around them."""
    check_arraylike("ediff1d", ary)
    flat = ravel(ary)
    result = lax.sub(getitem(flat, slice(1, None)), getitem(flat, slice(None, -1)))
    dtype = get_aval(flat).dtype
    if to_begin is not None:
        check_arraylike("ediff1d", to_begin)
        result = lax.concatenate([_flat_as(to_begin, dtype), result], 0)
    if to_end is not None:
        check_arraylike("ediff1d", to_end)
        result = lax.concatenate([result, _flat_as(to_end, dtype)], 0)
    return result


def _edges_and_inner(a: Any, spacing: Any, axis: int) -> Any:
    """NumPy's second-order central differences inside, first-order ones at both edges."""
    upper = lax.sub(lax.slice_in_dim(a, 1, 2, axis=axis), lax.slice_in_dim(a, 0, 1, axis=axis))
    size = get_aval(a).shape[axis]
    lower = lax.sub(lax.slice_in_dim(a, size - 1, size, axis=axis), lax.slice_in_dim(a, size - 2, size - 1, axis=axis))
    if get_aval(ensure_array(spacing)).ndim == 0:
        inner = lax.sub(lax.slice_in_dim(a, 2, size, axis=axis), lax.slice_in_dim(a, 0, size - 2, axis=axis))
        inner = _true_divide(_binary(lax.mul, inner, 0.5), spacing)
        lower = _true_divide(lower, spacing)
        upper = _true_divide(upper, spacing)
        return lax.concatenate([upper, inner, lower], axis)
    x = spacing
    n = get_aval(x).shape[0]
    upper = lax.div(upper, _along(lax.sub(lax.slice_in_dim(x, 1, 2), lax.slice_in_dim(x, 0, 1)), a, axis))
    lower = lax.div(lower, _along(lax.sub(lax.slice_in_dim(x, n - 1, n), lax.slice_in_dim(x, n - 2, n - 1)), a,
                                  axis))
    dx1 = lax.sub(lax.slice_in_dim(x, 1, n - 1), lax.slice_in_dim(x, 0, n - 2))
    dx2 = lax.sub(lax.slice_in_dim(x, 2, n), lax.slice_in_dim(x, 1, n - 1))
    weight_before = lax.div(lax.neg(dx2), lax.mul(dx1, lax.add(dx1, dx2)))
    weight_at = lax.div(lax.sub(dx2, dx1), lax.mul(dx1, dx2))
    weight_after = lax.div(dx1, lax.mul(dx2, lax.add(dx1, dx2)))
    inner = lax.add(lax.mul(_along(weight_before, a, axis), lax.slice_in_dim(a, 0, size - 2, axis=axis)),
                    lax.mul(_along(weight_at, a, axis), lax.slice_in_dim(a, 1, size - 1, axis=axis)))
    inner = lax.add(inner, lax.mul(_along(weight_after, a, axis), lax.slice_in_dim(a, 2, size, axis=axis)))
    return lax.concatenate([upper, inner, lower], axis)


def _along(v: Any, a: Any, axis: int) -> Any:
    """The 1-D ``v`` shaped to broadcast against ``a`` along ``axis``."""
    ndim = get_aval(a).ndim
    if ndim == 1:
        return v
    shape = [1] * ndim
    shape[axis] = get_aval(v).shape[0]
    return lax.reshape(v, tuple(shape))


@named_jit("gradient", ("axis", "edge_order"))
def gradient(f: Any, *varargs: Any, axis: int | Sequence[int] | None = None, edge_order: int | None = None) -> Any:
    """The gradient of ``f`` by central differences (one-sided at the edges), along each axis in ``axis``; the
    spacing is 1, a scalar per axis, or the coordinates per axis."""
    if edge_order is not None:
        raise NotImplementedError("The 'edge_order' argument to jnp.gradient is not supported.")
    check_arraylike("gradient", f, *varargs)
    f, *varargs = promote_dtypes_inexact(ensure_array(f), *(ensure_array(v) for v in varargs))
    ndim = get_aval(f).ndim
    if axis is None:
        axes = tuple(range(ndim))
    elif isinstance(axis, int):
        axes = (canonicalize_axis(axis, ndim),)
    else:
        axes = tuple(canonicalize_axis(ax, ndim) for ax in axis)
    if any(get_aval(f).shape[ax] < 2 for ax in axes):  # a 0-d array has no axes: an empty list, as JAX's
        raise ValueError("Shape of array too small to calculate a numerical gradient, at least 2 elements are "
                         "required.")
    if not varargs:
        spacing: list[Any] = [1.0] * len(axes)
    elif len(varargs) == 1 and get_aval(varargs[0]).ndim == 0:
        spacing = list(varargs) * len(axes)
    elif len(varargs) == len(axes):
        spacing = list(varargs)
    else:
        raise TypeError(f"Invalid number of spacing arguments {len(varargs)} for axis={axis}")
    for x in spacing:
        x_aval = get_aval(ensure_array(x))
        if x_aval.ndim > 1:
            raise ValueError("Spacing arrays must be 1D arrays or scalars.")
    grads = [_edges_and_inner(f, h, ax) for h, ax in zip(spacing, axes)]
    return grads[0] if len(axes) == 1 else grads


@named_jit("trapezoid", ("axis",))
def trapezoid(y: Any, x: Any = None, dx: Any = 1.0, axis: int = -1) -> Any:
    """The integral of ``y`` along ``axis`` by the trapezoidal rule, at points ``x`` or spacing ``dx``."""
    if x is None:
        check_arraylike("trapezoid", y)
        (y,) = promote_dtypes_inexact(ensure_array(y))
        spacing = dx
    else:
        check_arraylike("trapezoid", y, x)
        y, x = promote_dtypes_inexact(ensure_array(y), ensure_array(x))
        if get_aval(x).ndim == 1:
            spacing = diff(x)
        else:
            spacing = moveaxis(diff(x, axis=axis), axis, -1)
    y = moveaxis(y, axis, -1)
    spacing_aval = get_aval(ensure_array(spacing))
    if spacing_aval.ndim and spacing_aval.shape[-1] == 1:
        spacing = lax.squeeze(spacing, (spacing_aval.ndim - 1,))
    size = get_aval(y).shape[-1]
    if get_aval(ensure_array(spacing)).ndim == 0 or spacing_aval.shape[-1] == 1:
        total = sum(y, -1)
        ends = lax.add(_index_along(y, 0, -1), _index_along(y, size - 1, -1))
        total = lax.sub(total, _binary(lax.mul, 0.5, ends))
        return _binary(lax.mul, spacing, total)
    pairs = lax.add(_slice_along(y, 1, None, -1), _slice_along(y, None, -1, -1))
    return _binary(lax.mul, 0.5, sum(_binary(lax.mul, spacing, pairs), -1))


@named_jit("unwrap", ("axis",))
def unwrap(p: Any, discont: Any = None, axis: int = -1, period: Any = 2 * np.pi) -> Any:
    """``p`` with jumps larger than ``discont`` along ``axis`` replaced by their complement modulo ``period``."""
    check_arraylike("unwrap", p)
    p, period = promote_dtypes_inexact(ensure_array(p), ensure_array(period))
    if dtypes.issubdtype(get_aval(p).dtype, np.complexfloating):
        raise ValueError("jnp.unwrap does not support complex inputs.")
    get_aval(p).shape[axis]  # JAX's IndexError for an axis out of bounds
    if discont is None:
        discont = _true_divide(period, 2)
    interval = _true_divide(period, 2)
    step = diff(p, axis=axis)
    wrapped = _binary(lax.sub, remainder(_binary(lax.add, step, interval), period), interval)
    at_edge = _binary(lax.bitwise_and, _binary(lax.eq, wrapped, lax.neg(interval)), _binary(lax.gt, step, 0))
    wrapped = conditional.where(at_edge, interval, wrapped)
    correction = conditional.where(_binary(lax.lt, lax.abs(step), discont), 0, _binary(lax.sub, wrapped, step))
    axis = canonicalize_axis(axis, get_aval(p).ndim)
    size = get_aval(p).shape[axis]
    first = lax.slice_in_dim(p, 0, 1, axis=axis)
    rest = _binary(lax.add, lax.slice_in_dim(p, 1, size, axis=axis), cumsum(correction, axis=axis))
    return concatenate([first, rest], axis)


# ---------------------------------------------------------------- cov, corrcoef


@named_jit("cov", ("rowvar", "bias", "ddof", "dtype"))
def cov(m: Any, y: Any = None, rowvar: bool = True, bias: bool = False, ddof: int | None = None,
        fweights: Any = None, aweights: Any = None, dtype: Any = None) -> Any:
    """Covariance matrix of the variables in the rows (or columns, ``rowvar=False``) of ``m`` (and ``y``)."""
    if y is not None:
        m, y = promote_args_inexact("cov", m, y)
        if get_aval(y).ndim > 2:
            raise ValueError("y has more than 2 dimensions")
    else:
        (m,) = promote_args_inexact("cov", m)
    if get_aval(m).ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if dtype is not None:
        m = lax.convert_element_type(m, dtypes.dtype(dtype, requested_in="cov"))
    X = atleast_2d(m)
    if not rowvar and get_aval(X).shape[0] != 1:
        X = lax.transpose(X, (1, 0))
    if get_aval(X).shape[0] == 0:
        return lax.reshape(np.zeros((0,), get_aval(X).dtype), (0, 0))
    if y is not None:
        y = atleast_2d(y)
        if not rowvar and get_aval(y).shape[0] != 1:
            y = lax.transpose(y, (1, 0))
        X = concatenate((X, y), axis=0)
    if ddof is None:
        ddof = 1 if bias == 0 else 0
    weights = None
    if fweights is not None:
        check_arraylike("cov", fweights)
        fweights = ensure_array(fweights)
        if get_aval(fweights).ndim > 1:
            raise RuntimeError("cannot handle multidimensional fweights")
        if get_aval(fweights).shape[0] != get_aval(X).shape[1]:
            raise RuntimeError("incompatible numbers of samples and fweights")
        if not dtypes.issubdtype(get_aval(fweights).dtype, np.integer):
            raise TypeError("fweights must be integer.")
        fweights = lax.abs(fweights)  # as JAX: negative weights cannot be refused under a transformation
        weights = fweights
    if aweights is not None:
        check_arraylike("cov", aweights)
        aweights = ensure_array(aweights)
        if get_aval(aweights).ndim > 1:
            raise RuntimeError("cannot handle multidimensional aweights")
        if get_aval(aweights).shape[0] != get_aval(X).shape[1]:
            raise RuntimeError("incompatible numbers of samples and aweights")
        aweights = lax.abs(aweights)
        weights = aweights if weights is None else _binary(lax.mul, weights, aweights)
    avg, weights_sum = average(X, axis=1, weights=weights, returned=True)
    weights_sum = getitem(weights_sum, 0)
    if weights is None:
        factor: Any = get_aval(X).shape[1] - ddof
    elif ddof == 0:
        factor = weights_sum
    elif aweights is None:
        factor = _binary(lax.sub, weights_sum, ddof)
    else:
        factor = _binary(lax.sub, weights_sum, _true_divide(
            _binary(lax.mul, ddof, sum(_binary(lax.mul, weights, aweights))), weights_sum))
    X = lax.sub(X, lax.expand_dims(avg, (1,)))
    X_T = lax.transpose(X if weights is None else _binary(lax.mul, X, weights), (1, 0))
    if dtypes.issubdtype(get_aval(X_T).dtype, np.complexfloating):
        X_T = lax.conj(X_T)
    result = _true_divide(dot(X, X_T), factor)
    shape = get_aval(result).shape
    squeezed = tuple(d for d, size in enumerate(shape) if size == 1)
    return lax.squeeze(result, squeezed) if squeezed else result


def _diag_body(v: Any) -> Any:
    return diagonal(v)


_diag_body.__name__ = _diag_body.__qualname__ = "_diag"
_diag = jit(_diag_body)


@named_jit("corrcoef", ("rowvar", "dtype"))
def corrcoef(x: Any, y: Any = None, rowvar: bool = True, dtype: Any = None) -> Any:
    """Pearson correlation coefficients of the variables in ``x`` (and ``y``), clipped to [-1, 1]."""
    check_arraylike("corrcoef", x)
    c = cov(x, y, rowvar, dtype=dtype)
    if get_aval(c).ndim == 0:
        return _true_divide(c, c)
    d = _diag(c)
    stddev = lax.sqrt(lax.real(d) if dtypes.issubdtype(get_aval(d).dtype, np.complexfloating) else d)
    c = _true_divide(c, lax.expand_dims(stddev, (1,)))
    c = _true_divide(c, lax.expand_dims(stddev, (0,)))
    if dtypes.issubdtype(get_aval(c).dtype, np.complexfloating):
        return lax.complex(clip(lax.real(c), -1, 1), clip(lax.imag(c), -1, 1))
    return clip(c, -1, 1)


# ---------------------------------------------------------------- digitize, bincount, interp


@named_jit("digitize", ("right", "method"))
def digitize(x: Any, bins: Any, right: bool = False, *, method: str | None = None) -> Any:
    """The index of the bin of ``bins`` (monotonic, increasing or decreasing) holding each element of ``x``."""
    check_arraylike("digitize", x, bins)
    x, bins = ensure_array(x), ensure_array(bins)
    right = concrete_or_error(bool, right, "right argument of jnp.digitize()")
    if get_aval(bins).ndim != 1:
        raise ValueError(f"digitize: bins must be a 1-dimensional array; got bins={bins}")
    size = get_aval(bins).shape[0]
    if size == 0:
        return lax.broadcast_in_dim(np.zeros((), dtypes.default_int_dtype()), get_aval(x).shape, ())
    side = "right" if not right else "left"
    kwargs = {} if method is None else {"method": method}
    increasing = greater_equal(getitem(bins, -1), getitem(bins, 0))  # complex bins: ordered lexicographically
    forward = searchsorted(bins, x, side=side, **kwargs)
    backward = _binary(lax.sub, size, searchsorted(lax.rev(bins, (0,)), x, side=side, **kwargs))
    return conditional.where(increasing, forward, backward)


def _check_replicated_or_unreduced(sharding: NamedSharding) -> None:
    """JAX's refusal of a bincount ``out_sharding`` that splits the counts or leaves some mesh axes reduced."""
    spec = sharding.spec
    if len(spec) or spec.reduced or (spec.unreduced and set(spec.unreduced) != set(sharding.mesh.axis_names)):
        raise ShardingTypeError("out_sharding passed to `jnp.bincount` can only be fully replicated or fully "
                                "unreduced along all mesh axes")


def bincount(x: Any, weights: Any = None, minlength: int = 0, *, length: int | None = None,
             out_sharding: Any = None) -> Any:
    """How often each non-negative integer occurs in ``x`` (summing ``weights`` instead of ones); the result has
    ``length`` entries, which must be static under a transformation."""
    check_scalar_arraylike("bincount", x)
    x = ensure_array(x)
    if not dtypes.issubdtype(get_aval(x).dtype, np.integer):
        raise TypeError(f"x argument to bincount must have an integer type; got {get_aval(x).dtype}")
    if get_aval(x).ndim != 1:
        raise ValueError("only 1-dimensional input supported.")
    minlength = concrete_or_error(operator.index, minlength, "The error occurred because of argument 'minlength' "
                                  "of jnp.bincount.")
    if length is None:
        aval = concrete_or_error(get_aval, x, "The error occurred because of argument 'x' of jnp.bincount. To "
                                 "avoid this error, pass a static `length` argument.")
        # its largest entry by jnp.max, as JAX's: an operand on other devices is named by that call
        length = max(minlength, aval.size and int(max(0, max_(x))) + 1)
    else:
        length = concrete_or_error(operator.index, length, "The error occurred because of argument 'length' of "
                                   "jnp.bincount.")
    if weights is None:
        dtype = dtypes.default_int_dtype()
    else:
        # as JAX's: the weights' type must be the operand's (same shape; over a mesh, same layout)
        x_type, weights_type = get_aval(x), get_aval(weights)
        if np.shape(x) != np.shape(weights) or (x_type.explicit_sharding is not None
                                                 and weights_type.explicit_sharding is not None
                                                 and x_type.explicit_sharding != weights_type.explicit_sharding):
            raise ValueError(f"type of weights must match type of x. Got typeof(x)={x_type.str_short(True, True)} "
                             f"and typeof(weights)={weights_type.str_short(True, True)}")
        updates = ensure_array(weights)
        dtype = get_aval(updates).dtype
    zeros = lax.broadcast_in_dim(np.zeros((), dtype), (length,), ())
    index = clip(x, 0)
    sharding = checked_out_sharding(out_sharding, "jnp.bincount")
    if sharding is not None or weights is not None:
        # as JAX's ``.at[].add`` (whose squeeze of the weights names them when on other devices); given an
        # out_sharding, counted over the mesh's axes made Auto
        if sharding is not None:
            _check_replicated_or_unreduced(sharding)
        counted = np.ones((), dtype) if weights is None else updates
        return scatter_update(zeros, index, counted, "add", mode="drop", out_sharding=sharding)
    index = lax.select_n(lax.lt(index, np.zeros((), get_aval(index).dtype)), index,
                         lax.add(index, np.array(length, get_aval(index).dtype)))
    index = lax.broadcast_in_dim(index, get_aval(index).shape + (1,), (0,))
    # ones laid out as ``x`` (over Explicit mesh axes), as JAX's ones_like
    updates = lax.broadcast_in_dim(np.ones((), dtype), get_aval(x).shape, (),
                                   out_sharding=get_aval(x).explicit_sharding)
    dnums = ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                    scatter_dims_to_operand_dims=(0,))
    return lax.scatter_add(zeros, index, updates, dnums, mode=GatherScatterMode.FILL_OR_DROP)


def _interp_body(x: Any, xp: Any, fp: Any, left: Any = None, right: Any = None, period: Any = None, *,
                 extrapolate_left: bool = False, extrapolate_right: bool = False) -> Any:
    if get_aval(xp).shape != get_aval(fp).shape or get_aval(xp).ndim != 1 or get_aval(fp).ndim != 1:
        raise ValueError("xp and fp must be one-dimensional arrays of equal size")
    x, xp = promote_dtypes_inexact(x, xp)
    (fp,) = promote_dtypes_inexact(fp)
    if dtypes.issubdtype(get_aval(x).dtype, np.complexfloating):
        raise ValueError("jnp.interp: complex x values not supported.")
    if period is not None:
        if get_aval(ensure_array(period)).ndim != 0:
            raise ValueError(f"period must be a scalar; got {period}")
        period = lax.abs(ensure_array(period))
        x = remainder(x, period)
        xp = remainder(xp, period)
        xp, fp = lax.sort_key_val(xp, fp)
        xp = concatenate([_binary(lax.sub, getitem(xp, slice(-1, None)), period), xp,
                          _binary(lax.add, getitem(xp, slice(None, 1)), period)])
        fp = concatenate([getitem(fp, slice(-1, None)), fp, getitem(fp, slice(None, 1))])
    size = get_aval(xp).shape[0]
    i = clip(searchsorted(xp, x, side="right"), 1, size - 1)

    def before() -> Any:
        return lax.sub(i, np.ones((), get_aval(i).dtype))

    df = lax.sub(getitem(fp, i), getitem(fp, before()))
    dx = lax.sub(getitem(xp, i), getitem(xp, before()))
    delta = lax.sub(x, getitem(xp, before()))
    epsilon = np.spacing(np.finfo(get_aval(xp).dtype).eps)
    tiny = lax.le(lax.abs(dx), np.array(epsilon, get_aval(dx).dtype))  # no NaN gradients where dx is tiny
    f = conditional.where(tiny, getitem(fp, before()),
                          _binary(lax.add, getitem(fp, before()),
                                  _binary(lax.mul, lax.div(delta, conditional.where(tiny, 1, dx)), df)))
    if not extrapolate_left:
        fill = getitem(fp, 0) if left is None else left
        if period is None:
            f = conditional.where(lax.lt(x, getitem(xp, 0)), fill, f)
    if not extrapolate_right:
        fill = getitem(fp, -1) if right is None else right
        if period is None:
            f = conditional.where(lax.gt(x, getitem(xp, -1)), fill, f)
    return f


_interp_body.__name__ = _interp_body.__qualname__ = "_interp"
_interp = jit(_interp_body, static_argnames=("extrapolate_left", "extrapolate_right"))


def _extrapolates(side: str, value: Any) -> bool:
    if isinstance(value, str):
        if value != "extrapolate":
            raise ValueError(f"the only valid string value of `{side}` is 'extrapolate', but got: {value!r}")
        return True
    return False


def interp(x: Any, xp: Any, fp: Any, left: Any = None, right: Any = None, period: Any = None) -> Any:
    """Piecewise-linear interpolation of the points (``xp``, ``fp``) at ``x``; ``left``/``right`` fill outside
    (``'extrapolate'`` continues the end segments), ``period`` makes the abscissae periodic."""
    check_arraylike("interp", x, xp, fp)
    extrapolate_left, extrapolate_right = _extrapolates("left", left), _extrapolates("right", right)
    return _interp(x, xp, fp, None if extrapolate_left else left, None if extrapolate_right else right, period,
                   extrapolate_left=extrapolate_left, extrapolate_right=extrapolate_right)


# ---------------------------------------------------------------- histograms


def histogram_bin_edges(a: Any, bins: Any = 10, range: Any = None, weights: Any = None) -> Any:  # noqa: A002
    """The edges of ``bins`` equal bins spanning ``range`` (the data's span by default), or ``bins`` itself if
    it is an array of edges."""
    del weights  # as in JAX, the edges do not depend on them
    if isinstance(bins, str):
        raise NotImplementedError("string values for `bins` not implemented.")
    check_arraylike("histogram_bin_edges", a, bins)
    a = ensure_array(a)
    dtype = dtypes.to_inexact_dtype(get_aval(a).dtype)
    if get_aval(ensure_array(bins)).ndim == 1:
        return asarray(bins, dtype=dtype)
    bin_count = concrete_or_error(operator.index, bins, "bins argument of histogram_bin_edges")
    if range is None:
        range = [min_(a), max_(a)]  # noqa: A001
    range = asarray(range, dtype=dtype)  # noqa: A001
    if get_aval(range).shape != (2,):
        raise ValueError(f"`range` must be either None or a sequence of scalars, got {range}")
    low = conditional.where(lax.eq(ptp(range), np.zeros((), dtype)), _binary(lax.sub, getitem(range, 0), 0.5),
                 getitem(range, 0))
    high = conditional.where(lax.eq(ptp(range), np.zeros((), dtype)), _binary(lax.add, getitem(range, 1), 0.5),
                  getitem(range, 1))
    return linspace(low, high, bin_count + 1, dtype=dtype)


def histogram(a: Any, bins: Any = 10, range: Any = None, weights: Any = None,  # noqa: A002
              density: bool | None = None) -> tuple[Any, Any]:
    """(counts, bin edges) of ``a``'s values (weighted by ``weights``), as densities with ``density``."""
    if weights is None:
        check_scalar_arraylike("histogram", a, bins)
        (a,) = promote_dtypes_inexact(ensure_array(a))
        weights = lax.broadcast_in_dim(np.ones((), get_aval(a).dtype), get_aval(a).shape, ())
    else:
        check_scalar_arraylike("histogram", a, bins, weights)
        if get_aval(ensure_array(a)).shape != get_aval(ensure_array(weights)).shape:
            raise ValueError("weights should have the same shape as a.")
        a, weights = promote_dtypes_inexact(ensure_array(a), ensure_array(weights))
    bin_edges = histogram_bin_edges(a, bins, range, weights)
    edge_count = get_aval(bin_edges).shape[0]
    bin_index = searchsorted(bin_edges, a, side="right")
    bin_index = conditional.where(lax.eq(a, getitem(bin_edges, -1)), edge_count - 1, bin_index)
    zeros = lax.broadcast_in_dim(np.zeros((), get_aval(weights).dtype), (edge_count,), ())
    counts = getitem(scatter_update(zeros, bin_index, weights, "add"), slice(1, None))
    if density:
        widths = diff(bin_edges)
        counts = _true_divide(_true_divide(counts, widths), sum(counts))
    return counts, bin_edges


def histogramdd(sample: Any, bins: Any = 10, range: Any = None, weights: Any = None,  # noqa: A002
                density: bool | None = None) -> tuple[Any, list[Any]]:
    """(counts, per-dimension bin edges) of the ``(N, D)`` ``sample``'s points."""
    if weights is None:
        check_arraylike("histogramdd", sample)
        (sample,) = promote_dtypes_inexact(ensure_array(sample))
    else:
        check_arraylike("histogramdd", sample, weights)
        if get_aval(ensure_array(weights)).shape != get_aval(ensure_array(sample)).shape[:1]:
            raise ValueError("should have one weight for each sample.")
        sample, weights = promote_dtypes_inexact(ensure_array(sample), ensure_array(weights))
    n, d = get_aval(sample).shape
    if range is not None and (len(range) != d or builtins.any(r is not None and np.shape(r)[0] != 2
                                                              for r in range)):
        raise ValueError(f"For sample.shape={(n, d)}, range must be a sequence of {d} pairs or Nones; got "
                         f"range={range}")
    try:
        if len(bins) != d:
            raise ValueError("should be a bin for each dimension.")
    except TypeError:
        bins = d * [bins]
    indices, edges = [], []
    for i in builtins.range(d):
        bin_edges = histogram_bin_edges(getitem(sample, (slice(None), i)), bins[i],
                                        None if range is None else range[i], weights)
        bin_index = searchsorted(bin_edges, getitem(sample, (slice(None), i)), side="right")
        bin_index = conditional.where(lax.eq(getitem(sample, (slice(None), i)), getitem(bin_edges, -1)),
                           _binary(lax.sub, bin_index, 1), bin_index)
        indices.append(bin_index)
        edges.append(bin_edges)
    bin_counts = tuple(get_aval(e).shape[0] + 1 for e in edges)
    widths = [diff(bin_edges) for bin_edges in edges]
    flat_index = ravel_multi_index(tuple(indices), bin_counts, mode="clip")
    counts = bincount(flat_index, weights, length=math.prod(bin_counts))
    counts = getitem(lax.reshape(counts, bin_counts), d * (slice(1, -1),))
    if density:
        counts = _true_divide(counts, sum(counts))
        for width in ix_(*widths):
            counts = _true_divide(counts, width)
    return counts, edges


def histogram2d(x: Any, y: Any, bins: Any = 10, range: Any = None, weights: Any = None,  # noqa: A002
                density: bool | None = None) -> tuple[Any, Any, Any]:
    """(counts, x edges, y edges) of the points (``x``, ``y``)."""
    check_scalar_arraylike("histogram2d", x, y)
    try:
        bin_specs = len(bins)
    except TypeError:
        bin_specs = 1
    if bin_specs not in (1, 2):
        edges = asarray(bins)
        bins = [edges, edges]
    sample = lax.transpose(asarray([x, y]), (1, 0))
    counts, edges = histogramdd(sample, bins, range, weights, density)
    return counts, edges[0], edges[1]
