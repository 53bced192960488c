"""Reductions: sum, prod, mean, var, std, min, max, arg*, all, any, ptp, count_nonzero and their nan* forms.

Every reduction follows one recipe (``_reduce``), as JAX's do: check the arguments, pick the result dtype
(small integers summed in the default integer, float16 and bfloat16 accumulated in float32), replace masked-out
elements by the operation's identity, reduce with the lax primitive, combine with ``initial`` and restore the
reduced dimensions for ``keepdims``. Functions that JAX stages as ``jit`` calls (``_var``, ``nansum``, ...) are
jitted here under the same names and static arguments, so their jaxprs read the same.
"""

from __future__ import annotations

import builtins
import functools
import inspect
import math
import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxle_core import dtypes, lax
from jaxle_core.avals import argument_avals, get_aval
from jaxle_core.core import concrete_or_error
from jaxle_core.jit import check_static_hashable, jit
from jaxle_core.lax.reductions import extremum_identity
from jaxle_numpy import conditional
from jaxle_numpy.ufuncs import isnan
from jaxle_numpy.util import (
    canonicalize_axis,
    check_scalar_arraylike,
    compiled_when_eager,
    eager_array,
    ensure_array,
    named_jit,
    optional_index,
)

__all__ = ["sum", "prod", "max", "min", "amax", "amin", "all", "any", "mean", "var", "std", "argmax", "argmin",
           "ptp", "count_nonzero", "nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd",
           "nanargmax", "nanargmin"]

Axis = int | Sequence[int] | None


# ---------------------------------------------------------------- shared pieces


def check_out(name: str, out: Any) -> None:
    """JAX's refusal of NumPy's ``out=`` argument."""
    if out is not None:
        raise NotImplementedError(f"The 'out' argument to jnp.{name} is not supported.")


def reduction_axes(axis: Axis, ndim: int) -> tuple[int, ...]:
    """``axis`` (None, an int or a sequence of ints, negative ones counted from the end) as sorted positions."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (int, np.integer)) or (hasattr(axis, "__index__") and not isinstance(axis, Sequence)):
        axis = (operator.index(axis),)
    axes = tuple(canonicalize_axis(a, ndim) for a in tuple(axis))
    if len(set(axes)) != len(axes):
        raise ValueError(f"duplicate value in 'axis': {axis}")
    return axes


def is_named(axis: Any) -> bool:
    """Whether a reduction's ``axis`` names a mapped axis (a string, or a tuple holding one): the reduction is then
    a collective over it (``psum``, ``pmax``, ``pmin``), as in JAX."""
    return isinstance(axis, str) or (isinstance(axis, tuple) and builtins.any(isinstance(a, str) for a in axis))


def positional_axes(axis: str | tuple) -> tuple:
    """The positional axes among a named reduction's ``axis``."""
    return () if isinstance(axis, str) else tuple(a for a in axis if not isinstance(a, str))


def _convert(x: Any, dtype: np.dtype) -> Any:
    """``x`` as a strongly typed ``dtype`` value (nothing staged when it already is one)."""
    aval = get_aval(x)
    if aval.dtype == dtype and not aval.weak_type:
        return x
    return lax.convert_element_type(x, dtype)


def _requested_dtype(dtype: Any, name: str) -> np.dtype:
    return dtypes.dtype(dtype, requested_in=name)


def _upcast_f16(dtype: np.dtype) -> np.dtype:
    """float16 and bfloat16 are accumulated in float32, as JAX does."""
    if dtype in (np.dtype(np.float16), np.dtype(dtypes.bfloat16)):
        return np.dtype(np.float32)
    return dtype


def broadcast_to_shape(x: Any, shape: tuple[int, ...]) -> Any:
    aval = get_aval(x)
    if aval.shape == shape:
        return x
    if aval.ndim > len(shape):
        raise ValueError(f"Cannot broadcast to shape with fewer dimensions: arr_shape={aval.shape} shape={shape}")
    lax.broadcast_shapes(aval.shape, shape)  # NumPy's broadcasting error for incompatible shapes
    lead = len(shape) - aval.ndim
    return lax.broadcast_in_dim(x, shape, tuple(range(lead, len(shape))))


def _strong_scalar(value: Any, dtype: np.dtype) -> np.ndarray:
    return np.array(value, dtype)


def _is_inexact(x: Any) -> bool:
    return dtypes.issubdtype(get_aval(x).dtype, np.inexact)


def check_where(name: str, where: Any) -> None:
    """JAX's ValueError for a ``where`` mask that is not boolean."""
    if where is not None:
        dtype = dtypes.dtype(where)
        if dtype != np.bool_:
            raise ValueError(f"jnp.{name}: where must be None or a boolean array; got where.dtype={dtype!r}.")


def _operand(name: str, a: Any, *others: Any, initial: Any = None) -> Any:
    """``a`` checked, then ``initial`` and each of ``others`` given (``where``, ``mean``) alone, as JAX checks them
    (an error names position 0). An ``initial`` given as a list or tuple is left to ``_initial_argument``."""
    if _is_sequence_initial(initial):
        initial = None
    for x in (a, *(o for o in (initial, *others) if o is not None)):
        check_scalar_arraylike(name, x)
    return ensure_array(a)


def promoted_integer_dtype(dtype: np.dtype) -> np.dtype:
    """The dtype ``sum`` and ``prod`` accumulate integers in: at least the default (unsigned) integer."""
    if dtype == np.bool_:
        return dtypes.default_int_dtype()
    if dtypes.issubdtype(dtype, np.unsignedinteger):
        default = dtypes.default_uint_dtype()
        return default if dtype.itemsize < default.itemsize else dtype
    if dtypes.issubdtype(dtype, np.integer):
        default = dtypes.default_int_dtype()
        return default if dtype.itemsize < default.itemsize else dtype
    return dtype


def _to_numeric(x: Any) -> Any:
    """Booleans become int32 before summing or multiplying, as JAX's do (then the result dtype, int64 with x64)."""
    if get_aval(x).dtype == np.bool_:
        return _convert(x, np.dtype(np.int32))
    return x


def _to_bool(x: Any) -> Any:
    if dtypes.issubdtype(get_aval(x).dtype, np.complexfloating):
        x = lax.real(x)  # JAX tests the real part only
    return _convert(x, np.dtype(np.bool_))


def _reduce(a: Any, name: str, reducer: Callable, combine: Callable, identity: Callable[[np.dtype], Any] | None, *,
            axis: Axis = None, dtype: Any = None, out: Any = None, keepdims: bool = False, initial: Any = None,
            where: Any = None, promote_integers: bool = False, upcast_f16: bool = False,
            preprocess: Callable | None = None, bool_reducer: Callable | None = None,
            collective: Callable | None = None) -> Any:
    """The recipe every jnp reduction follows (see the module's docstring); ``identity`` is None for max/min.
    Over named axes (``is_named``) the reduction is ``collective`` over ``axis`` as given (JAX's
    NotImplementedError where there is none), ``keepdims`` keeping the positional axes of it only, as in JAX."""
    check_out(name, out)
    a = _operand(name, a, where, initial=initial)
    check_where(name, where)
    named = is_named(axis)
    if named:
        if collective is None:
            raise NotImplementedError(f"Named reductions not implemented for jnp.{name}()")
        # over the named axes; as JAX's, a bare string names one axis per character (``axis='ij'``: i, then j)
        names = tuple(axis) if isinstance(axis, str) else axis
        reducer = bool_reducer = lambda x, _: collective(x, names)  # noqa: E731
    if preprocess is not None:
        a = preprocess(a)
    aval = get_aval(a)
    axes = reduction_axes(positional_axes(axis) if named else axis, aval.ndim)
    if identity is None and initial is None:
        if 0 in (aval.shape[d] for d in axes):
            raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
        if where is not None:
            raise ValueError(f"reduction operation {name} does not have an identity, so to use a where mask one has "
                             "to specify 'initial'")
    if dtype is not None:
        result_dtype = _requested_dtype(dtype, name)
        computation_dtype = result_dtype
        # JAX converts the operand to the dtype as given: a 64-bit one warns again, naming convert_element_type
        _requested_dtype(dtype, "convert_element_type")
    else:
        result_dtype = promoted_integer_dtype(aval.dtype) if promote_integers else aval.dtype
        computation_dtype = _upcast_f16(result_dtype) if upcast_f16 else result_dtype
    a = _convert(a, computation_dtype)
    if computation_dtype == np.bool_ and bool_reducer is not None:
        reducer = bool_reducer
    if where is not None:
        fill = identity(computation_dtype) if identity is not None else extremum_identity(
            computation_dtype, largest=name in ("min", "nanmin"))
        a = conditional.where(where, a, _strong_scalar(fill, computation_dtype))
    result = reducer(a, axes)
    if initial is not None:
        initial_value = _convert(_initial_argument(initial), computation_dtype)
        if get_aval(initial_value).shape != ():
            raise ValueError(f"initial value must be a scalar. Got array of shape {get_aval(initial_value).shape}")
        result = combine(initial_value, result)
    if keepdims and (axes or not named):
        result = lax.expand_dims(result, axes)
    return _convert(result, result_dtype)


def _is_sequence_initial(initial: Any) -> bool:
    return isinstance(initial, (list, tuple))


def _initial_argument(initial: Any) -> Any:
    """``initial`` as JAX's jitted reduction takes it, as an argument, eagerly or traced: a Python int beyond the
    default integer dtype is refused with jit's OverflowError, a Python complex is a complex array (whose conversion
    to a real dtype warns as NumPy's, keeping the real part)."""
    if type(initial) is int:
        argument_avals(None, [initial], lambda: ["initial"])  # its refusal of an int that does not fit
    elif _is_sequence_initial(initial):
        jit(dtypes.dtype)(initial)  # traced element by element, it has no dtype: JAX's TypeError shows the tracers
    elif type(initial) is complex:
        return np.asarray(initial, dtypes.canonicalize_dtype(np.complex128))
    return initial


def static_axis(axis: Axis) -> Axis:
    """``axis`` in a hashable form, as a static argument must be, as JAX makes it before its jitted reduction: an
    int (anything ``operator.index`` takes, a NumPy integer of rank 0 too), else a tuple of ints from a list, tuple
    or NumPy array (names kept), so a float in it is operator.index's TypeError; a traced axis is JAX's
    ConcretizationTypeError."""
    if axis is None or isinstance(axis, str):
        return axis
    axis = concrete_or_error(axis, "The axis argument must be known statically.")
    try:
        return operator.index(axis)
    except TypeError:
        return tuple(a if isinstance(a, str) else operator.index(a) for a in axis)


_STATIC_OPTIONS = frozenset({"dtype", "keepdims", "promote_integers"})


def axis_made_static(fun: Callable) -> Callable:
    """``fun`` (a reduction taking ``axis`` second) given ``axis`` as ``static_axis`` makes it, so that an eager
    call with a list axis runs compiled like one with a tuple. Its other static options (``dtype``, ``keepdims``)
    get JAX's ValueError when they cannot be hashed, as JAX's jitted reduction refuses them (a list axis it makes a
    tuple first)."""
    parameters = list(inspect.signature(fun).parameters)

    @functools.wraps(fun)
    def reduction(*args: Any, **kwargs: Any) -> Any:
        if len(args) > 1:
            args = (args[0], static_axis(args[1]), *args[2:])
        elif "axis" in kwargs:
            kwargs["axis"] = static_axis(kwargs["axis"])
        for name, value in [*zip(parameters[2:], args[2:]), *kwargs.items()]:
            if name in _STATIC_OPTIONS:
                check_static_hashable(value)
        return fun(*args, **kwargs)

    return reduction


# ---------------------------------------------------------------- sum, prod, max, min, all, any


@axis_made_static
@compiled_when_eager(static_argnames=("axis", "dtype", "keepdims", "promote_integers"),
                     dynamic_argnames=("initial", "where"), traced_name="_reduce_sum")
def sum(a: Any, axis: Axis = None, dtype: Any = None, out: None = None, keepdims: bool = False,
        initial: Any = None, where: Any = None, promote_integers: bool = True) -> Any:
    """Sum of the elements over ``axis`` (small integers and booleans summed in the default integer)."""
    return _reduce(a, "sum", lax.reduce_sum, lax.add, lambda dt: 0, axis=axis, dtype=dtype, out=out,
                   keepdims=keepdims, initial=initial, where=where, promote_integers=promote_integers,
                   upcast_f16=True, preprocess=_to_numeric, bool_reducer=lax.reduce_or, collective=lax.psum)


@axis_made_static
@compiled_when_eager(static_argnames=("axis", "dtype", "keepdims", "promote_integers"),
                     dynamic_argnames=("initial", "where"), traced_name="_reduce_prod")
def prod(a: Any, axis: Axis = None, dtype: Any = None, out: None = None, keepdims: bool = False,
         initial: Any = None, where: Any = None, promote_integers: bool = True) -> Any:
    """Product of the elements over ``axis``."""
    return _reduce(a, "prod", lax.reduce_prod, lax.mul, lambda dt: 1, axis=axis, dtype=dtype, out=out,
                   keepdims=keepdims, initial=initial, where=where, promote_integers=promote_integers,
                   upcast_f16=True, preprocess=_to_numeric, bool_reducer=lax.reduce_and)


@axis_made_static
@compiled_when_eager(static_argnames=("axis", "keepdims"), dynamic_argnames=("initial", "where"),
                     traced_name="_reduce_max")
def max(a: Any, axis: Axis = None, out: None = None, keepdims: bool = False, initial: Any = None,
        where: Any = None) -> Any:
    """Largest element over ``axis``; an empty reduction needs ``initial``."""
    return _reduce(a, "max", lax.reduce_max, lax.max, None, axis=axis, out=out, keepdims=keepdims,
                   initial=initial, where=where, collective=lax.pmax)


@axis_made_static
@compiled_when_eager(static_argnames=("axis", "keepdims"), dynamic_argnames=("initial", "where"),
                     traced_name="_reduce_min")
def min(a: Any, axis: Axis = None, out: None = None, keepdims: bool = False, initial: Any = None,
        where: Any = None) -> Any:
    """Smallest element over ``axis``; an empty reduction needs ``initial``."""
    check_out("min", out)
    return reduce_min(a, axis=axis, keepdims=keepdims, initial=initial, where=where)


def reduce_min(a: Any, axis: Axis = None, dtype: Any = None, keepdims: bool = False, initial: Any = None,
               where: Any = None) -> Any:
    """``min`` computed in ``dtype`` when given, as JAX's ``_reduce_min`` (which ``jnp.minimum.reduce`` is)."""
    return _reduce(a, "min", lax.reduce_min, lax.min, None, axis=axis, dtype=dtype, keepdims=keepdims,
                   initial=initial, where=where, collective=lax.pmin)


amax = max
amin = min


@axis_made_static
@compiled_when_eager(static_argnames=("axis", "keepdims"), dynamic_argnames=("where",), traced_name="_reduce_all")
def all(a: Any, axis: Axis = None, out: None = None, keepdims: bool = False, *, where: Any = None) -> Any:
    """Whether every element over ``axis`` is true (nonzero)."""
    return _reduce(a, "all", lax.reduce_and, lax.bitwise_and, lambda dt: True, axis=axis, out=out,
                   keepdims=keepdims, where=where, preprocess=_to_bool)


@axis_made_static
@compiled_when_eager(static_argnames=("axis", "keepdims"), dynamic_argnames=("where",), traced_name="_reduce_any")
def any(a: Any, axis: Axis = None, out: None = None, keepdims: bool = False, *, where: Any = None) -> Any:
    """Whether some element over ``axis`` is true (nonzero)."""
    return _reduce(a, "any", lax.reduce_or, lax.bitwise_or, lambda dt: False, axis=axis, out=out,
                   keepdims=keepdims, where=where, preprocess=_to_bool)


def _require_integer(x: Any) -> Any:
    dtype = get_aval(x).dtype
    if dtype != np.bool_ and not dtypes.issubdtype(dtype, np.integer):
        raise ValueError(f"integer argument required; got dtype={dtype}")
    return x


def _bitwise_reduction(name: str, op: Callable, identity: Any, preprocess: Callable) -> Callable:
    """JAX's ``_reduce_<logical|bitwise>_<op>``, which ``jnp.<logical|bitwise>_<op>.reduce`` is: ``op`` reduced by
    ``lax.reduce`` from ``identity`` in the operand's dtype (``-1`` sets every bit of an unsigned one), so that a
    ``dtype`` ``op`` does not take (a float) is its TypeError; a logical one reduces the operand made boolean."""
    def fill(dtype: np.dtype) -> np.ndarray:
        return np.array(identity).astype(dtype)

    def reducer(x: Any, axes: tuple[int, ...]) -> Any:
        return lax.reduce(x, fill(get_aval(x).dtype), op, axes)

    def reduction(a: Any, axis: Axis = None, dtype: Any = None, keepdims: bool = False, initial: Any = None,
                  where: Any = None) -> Any:
        return _reduce(a, name, reducer, op, fill, axis=axis, dtype=dtype, keepdims=keepdims, initial=initial,
                       where=where, preprocess=preprocess)
    return reduction


reduce_logical_and = _bitwise_reduction("reduce_logical_and", lax.bitwise_and, True, _to_bool)
reduce_logical_or = _bitwise_reduction("reduce_logical_or", lax.bitwise_or, False, _to_bool)
reduce_logical_xor = _bitwise_reduction("reduce_logical_xor", lax.bitwise_xor, False, _to_bool)
reduce_bitwise_and = _bitwise_reduction("reduce_bitwise_and", lax.bitwise_and, -1, _require_integer)
reduce_bitwise_or = _bitwise_reduction("reduce_bitwise_or", lax.bitwise_or, 0, _require_integer)
reduce_bitwise_xor = _bitwise_reduction("reduce_bitwise_xor", lax.bitwise_xor, 0, _require_integer)


# ---------------------------------------------------------------- mean, var, std


def _reduced_size(shape: tuple[int, ...], axis: Axis) -> int:
    """How many elements each result of a reduction over ``axis`` combines; JAX indexes the shape with ``axis``
    as given, so an axis out of bounds is an IndexError here."""
    if axis is None:
        return math.prod(shape)
    if isinstance(axis, (int, np.integer)):
        return shape[axis]
    # a bare string is a sequence of names, one per character, as JAX reads it
    return math.prod(lax.axis_size(d) if isinstance(d, str) else shape[d] for d in axis)


def _count(where: Any, shape: tuple[int, ...], axis: Axis, dtype: np.dtype, keepdims: bool) -> Any:
    """How many elements ``where`` selects over ``axis`` (as ``dtype``)."""
    return sum(broadcast_to_shape(where, shape), axis, dtype=dtype, keepdims=keepdims)


@axis_made_static
@compiled_when_eager(static_argnames=("axis", "dtype", "keepdims"), dynamic_argnames=("where",),
                     traced_name="_mean")
def mean(a: Any, axis: Axis = None, dtype: Any = None, out: None = None, keepdims: bool = False, *,
         where: Any = None) -> Any:
    """Arithmetic mean over ``axis`` (integers and booleans averaged in the default float)."""
    check_out("mean", out)
    a = _operand("mean", a, where)
    check_where("mean", where)
    aval = get_aval(a)
    if dtype is None:
        result_dtype = dtypes.to_inexact_dtype(aval.dtype)
        computation_dtype = _upcast_f16(result_dtype)
    else:
        result_dtype = computation_dtype = _requested_dtype(dtype, "mean")
    if where is None:
        size = _reduced_size(aval.shape, axis)
        # a NumPy constant, not a converted Python int: JAX's linearization reads it inline, not as a residual
        normalizer = _strong_scalar(size, computation_dtype) if isinstance(size, int) else _convert(
            size, computation_dtype)
    else:
        normalizer = _count(where, aval.shape, axis, computation_dtype, keepdims)
    total = sum(a, axis, dtype=computation_dtype, keepdims=keepdims, where=where)
    return _convert(lax.div(total, normalizer), result_dtype)


def _var_dtypes(a_dtype: np.dtype, dtype: Any, name: str = "var") -> tuple[np.dtype, np.dtype]:
    """(the dtype var computes in, the dtype it returns); ``name`` is the function a 64-bit dtype's warning names."""
    if dtype is not None:
        dtype = _requested_dtype(dtype, name)
        if dtypes.issubdtype(a_dtype, np.complexfloating) and not dtypes.issubdtype(dtype, np.complexfloating):
            raise ValueError(
                "jax.numpy.var does not yet support real dtype parameters when computing the variance of an array of "
                "complex values. The semantics of numpy.var seem unclear in this case. Please comment on "
                "https://github.com/jax-ml/jax/issues/2283 if this behavior is important to you.")
        if not dtypes.issubdtype(dtype, np.inexact):
            return dtype, dtype
        return _upcast_f16(dtype), dtype
    if not dtypes.issubdtype(a_dtype, np.inexact):
        inexact = dtypes.to_inexact_dtype(a_dtype)
        return inexact, inexact
    real = _real_dtype(a_dtype)
    return _upcast_f16(a_dtype), real


def _real_dtype(dtype: np.dtype) -> np.dtype:
    return np.dtype(np.finfo(dtype).dtype) if dtypes.issubdtype(dtype, np.complexfloating) else dtype


def _squared_magnitude(x: Any) -> Any:
    if dtypes.issubdtype(get_aval(x).dtype, np.complexfloating):
        return lax.real(lax.mul(x, lax.conj(x)))
    return lax.square(x)


def _correction(ddof: int, correction: int | float | None) -> Any:
    if correction is None:
        return ddof
    if ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously.")
    return correction


def _var_body(a: Any, mean_value: Any, correction: Any, where: Any, axis: Axis = None, dtype: Any = None,
              keepdims: bool = False) -> Any:
    computation_dtype, result_dtype = _var_dtypes(get_aval(a).dtype, dtype)
    a = _convert(a, computation_dtype)
    if mean_value is None:
        mean_value = mean(a, axis, dtype=computation_dtype, keepdims=True, where=where)
    centered = _squared_magnitude(lax.sub(a, mean_value))
    real_dtype = get_aval(centered).dtype
    shape = get_aval(a).shape
    if where is None:
        size = _convert(_reduced_size(shape, axis), real_dtype)
        normalizer = lax.sub(size, _convert(correction, real_dtype))
    else:
        normalizer = lax.sub(_count(where, shape, axis, real_dtype, keepdims), _convert(correction, real_dtype))
    total = sum(centered, axis, dtype=real_dtype, keepdims=keepdims, where=where)
    result = _convert(lax.div(total, normalizer), result_dtype)
    return conditional.where(lax.gt(normalizer, _strong_scalar(0, real_dtype)), result, np.nan)


_var_body.__name__ = _var_body.__qualname__ = "_var"
_var = jit(_var_body, static_argnames=("axis", "dtype", "keepdims"))


def var(a: Any, axis: Axis = None, dtype: Any = None, out: None = None, ddof: int = 0, keepdims: bool = False, *,
        where: Any = None, mean: Any = None, correction: int | float | None = None) -> Any:
    """Variance over ``axis``, dividing by the count less ``correction`` (or ``ddof``); complex gives a real."""
    check_out("var", out)
    a = _operand("var", a, where, mean)
    check_where("var", where)
    correction = _correction(ddof, correction)
    return _var(a, mean, correction, where, axis=static_axis(axis), dtype=dtype, keepdims=keepdims)


def _std_body(a: Any, correction: Any, mean_value: Any, where: Any, axis: Axis = None, dtype: Any = None,
              keepdims: bool = False) -> Any:
    if dtype is not None:  # checked while tracing, as JAX's: a 64-bit dtype warns once per signature, naming std
        dtype = _requested_dtype(dtype, "std")
        if not dtypes.issubdtype(dtype, np.inexact):
            raise ValueError(f"dtype argument to jnp.std must be inexact; got {dtype}")
    return lax.sqrt(_var(a, mean_value, correction, where, axis=axis, dtype=dtype, keepdims=keepdims))


_std_body.__name__ = _std_body.__qualname__ = "_std"
_std = jit(_std_body, static_argnames=("axis", "dtype", "keepdims"))


def std(a: Any, axis: Axis = None, dtype: Any = None, out: None = None, ddof: int = 0, keepdims: bool = False, *,
        where: Any = None, mean: Any = None, correction: int | float | None = None) -> Any:
    """Standard deviation over ``axis`` (the square root of ``var``)."""
    check_out("std", out)
    a = _operand("std", a, where, mean)
    check_where("std", where)
    correction = _correction(ddof, correction)
    return _std(a, correction, mean, where, axis=static_axis(axis), dtype=dtype, keepdims=keepdims)




# ---------------------------------------------------------------- argmax, argmin, ptp, count_nonzero


def _arg_extremum(name: str, lax_fn: Callable, a: Any, axis: int | None, out: Any, keepdims: bool | None) -> Any:
    check_out(name, out)
    a = eager_array(_operand(name, a))
    aval = get_aval(a)
    if axis is None:
        dims = tuple(range(aval.ndim))
        a = lax.reshape(a, (aval.size,))
        axis = 0
    else:
        axis = operator.index(axis)
        dims = None
    shape = get_aval(a).shape
    if shape[axis] == 0:
        raise ValueError(f"attempt to get {name} of an empty sequence")
    axis = canonicalize_axis(axis, len(shape))
    result = lax_fn(a, axis, dtypes.default_int_dtype())
    if keepdims:
        result = lax.expand_dims(result, dims if dims is not None else (axis,))
    return result


@compiled_when_eager(static_argnames=("axis", "keepdims"), traced_name="_argmax", operands_first=True)
def argmax(a: Any, axis: int | None = None, out: None = None, keepdims: bool | None = None) -> Any:
    """Index of the largest element (the first one on ties; NaN counts as largest) over ``axis`` or the flat array."""
    return _arg_extremum("argmax", lax.argmax, a, axis, out, keepdims)


@compiled_when_eager(static_argnames=("axis", "keepdims"), traced_name="_argmin", operands_first=True)
def argmin(a: Any, axis: int | None = None, out: None = None, keepdims: bool | None = None) -> Any:
    """Index of the smallest element (the first one on ties; NaN counts as smallest) over ``axis``."""
    return _arg_extremum("argmin", lax.argmin, a, axis, out, keepdims)


def _ptp_body(a: Any, axis: Axis = None, keepdims: bool = False) -> Any:
    return lax.sub(max(a, axis, keepdims=keepdims), min(a, axis, keepdims=keepdims))


_ptp_body.__name__ = _ptp_body.__qualname__ = "_ptp"
_ptp = jit(_ptp_body, static_argnames=("axis", "keepdims"))


def ptp(a: Any, axis: Axis = None, out: None = None, keepdims: bool = False) -> Any:
    """Range (maximum minus minimum) over ``axis``."""
    check_out("ptp", out)
    a = _operand("ptp", a)
    return _ptp(a, axis=static_axis(axis), keepdims=keepdims)


def count_nonzero(a: Any, axis: Axis = None, keepdims: bool = False) -> Any:
    """How many elements over ``axis`` are nonzero (in the default integer)."""
    a = _operand("count_nonzero", a)
    nonzero = lax.ne(a, _strong_scalar(0, get_aval(a).dtype))
    return sum(nonzero, axis, dtype=dtypes.default_int_dtype(), keepdims=keepdims)


# The jitted function itself, as JAX's: an unhashable axis (a list) is refused with jit's error.
count_nonzero = jit(count_nonzero, static_argnames=("axis", "keepdims"))


# ---------------------------------------------------------------- nan* forms


def _nan_replaced(a: Any, value: Any) -> Any:
    """``a`` with NaNs replaced by ``value`` (a strongly typed scalar of ``a``'s dtype)."""
    return conditional.where(isnan(a), _strong_scalar(value, get_aval(a).dtype), a)


def _nansum_body(a: Any, axis: Axis = None, dtype: Any = None, out: None = None, keepdims: bool = False,
                 initial: Any = None, where: Any = None) -> Any:
    a = _operand("nansum", a, where, initial=initial)
    check_where("nansum", where)
    if dtype is not None:  # a 64-bit dtype warns once, naming nanprod as JAX's warning does
        dtype = _requested_dtype(dtype, "nanprod")
    if _is_inexact(a):
        a = _nan_replaced(a, 0)
    return sum(a, axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial, where=where)


def _nanprod_body(a: Any, axis: Axis = None, dtype: Any = None, out: None = None, keepdims: bool = False,
                  initial: Any = None, where: Any = None) -> Any:
    a = _operand("nanprod", a, where, initial=initial)
    check_where("nanprod", where)
    if _is_inexact(a):
        a = _nan_replaced(a, 1)
    return prod(a, axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial, where=where)


def _nan_extremum(name: str, reduction: Callable, a: Any, axis: Axis, out: Any, keepdims: bool, initial: Any,
                  where: Any) -> Any:
    a = _operand(name, a, where, initial=initial)
    check_where(name, where)
    if not _is_inexact(a):
        return reduction(a, axis, out=out, keepdims=keepdims, initial=initial, where=where)
    dtype = get_aval(a).dtype
    fill = extremum_identity(dtype, largest=name == "nanmin")
    result = reduction(_nan_replaced(a, fill), axis, out=out, keepdims=keepdims, initial=initial, where=where)
    if initial is None and where is None:
        all_nan = all(isnan(a), axis, keepdims=keepdims)
        result = conditional.where(all_nan, _strong_scalar(np.nan, dtype), result)
    return result


def _nanmax_body(a: Any, axis: Axis = None, out: None = None, keepdims: bool = False, initial: Any = None,
                 where: Any = None) -> Any:
    return _nan_extremum("nanmax", max, a, axis, out, keepdims, initial, where)


def _nanmin_body(a: Any, axis: Axis = None, out: None = None, keepdims: bool = False, initial: Any = None,
                 where: Any = None) -> Any:
    return _nan_extremum("nanmin", min, a, axis, out, keepdims, initial, where)


def _nanmean_body(a: Any, axis: Axis = None, dtype: Any = None, out: None = None, keepdims: bool = False,
                  where: Any = None) -> Any:
    check_out("nanmean", out)
    a = _operand("nanmean", a, where)
    check_where("nanmean", where)
    if not _is_inexact(a):
        return mean(a, axis, dtype=dtype, keepdims=keepdims, where=where)
    dtype = get_aval(a).dtype if dtype is None else _requested_dtype(dtype, "mean")  # JAX's warning names mean
    count = sum(lax.bitwise_not(isnan(a)), axis, dtype=dtype, keepdims=keepdims, where=where)
    total = nansum(a, axis, dtype=dtype, keepdims=keepdims, where=where)
    return lax.div(total, count)


def _nanvar_body(a: Any, axis: Axis = None, dtype: Any = None, out: None = None, ddof: int = 0,
                 keepdims: bool = False, where: Any = None, mean: Any = None) -> Any:
    check_out("nanvar", out)
    a = _operand("nanvar", a, where, mean)
    check_where("nanvar", where)
    computation_dtype, result_dtype = _var_dtypes(get_aval(a).dtype, dtype, "nanvar")
    a = _convert(a, computation_dtype)
    if mean is None:
        mean = nanmean(a, axis, dtype=computation_dtype, keepdims=True, where=where)
    centered = _squared_magnitude(conditional.where(isnan(a), 0, lax.sub(a, mean)))
    count = sum(lax.bitwise_not(isnan(a)), axis, keepdims=keepdims, where=where)
    normalizer = lax.sub(count, _convert(ddof, get_aval(count).dtype))
    empty = lax.le(normalizer, _strong_scalar(0, get_aval(normalizer).dtype))
    total = conditional.where(empty, np.nan, sum(centered, axis, keepdims=keepdims, where=where))
    divisor = conditional.where(empty, 1, normalizer)
    return _convert(lax.div(total, _convert(divisor, get_aval(total).dtype)), result_dtype)


def _nanstd_body(a: Any, axis: Axis = None, dtype: Any = None, out: None = None, ddof: int = 0,
                 keepdims: bool = False, where: Any = None, mean: Any = None) -> Any:
    check_out("nanstd", out)
    check_where("nanstd", where)
    return lax.sqrt(nanvar(a, axis, dtype, ddof=ddof, keepdims=keepdims, where=where, mean=mean))


def _nan_arg_extremum(name: str, reduction: Callable, a: Any, axis: int | None, out: Any,
                      keepdims: bool | None) -> Any:
    check_out(name.removeprefix("_"), out)
    a = _operand(name.removeprefix("_"), a)
    if not _is_inexact(a):
        return reduction(a, axis, keepdims=keepdims)
    nan_mask = isnan(a)
    fill = -np.inf if reduction is argmax else np.inf
    result = reduction(conditional.where(nan_mask, fill, a), axis, keepdims=keepdims)
    return conditional.where(all(nan_mask, axis, keepdims=bool(keepdims)), -1, result)


def _nanargmax_body(a: Any, axis: int | None = None, out: None = None, keepdims: bool | None = None) -> Any:
    return _nan_arg_extremum("_nanargmax", argmax, a, axis, out, keepdims)


def _nanargmin_body(a: Any, axis: int | None = None, out: None = None, keepdims: bool | None = None) -> Any:
    return _nan_arg_extremum("_nanargmin", argmin, a, axis, out, keepdims)


nansum = named_jit("nansum", ("axis", "dtype", "keepdims"))(_nansum_body)
nansum.__doc__ = "Sum over ``axis`` treating NaNs as zero."
nanprod = named_jit("nanprod", ("axis", "dtype", "keepdims"))(_nanprod_body)
nanprod.__doc__ = "Product over ``axis`` treating NaNs as one."
nanmax = named_jit("nanmax", ("axis", "keepdims"))(_nanmax_body)
nanmax.__doc__ = "Largest non-NaN element over ``axis`` (NaN where every element is NaN)."
nanmin = named_jit("nanmin", ("axis", "keepdims"))(_nanmin_body)
nanmin.__doc__ = "Smallest non-NaN element over ``axis`` (NaN where every element is NaN)."
nanmean = named_jit("nanmean", ("axis", "dtype", "keepdims"))(_nanmean_body)
nanmean.__doc__ = "Mean of the non-NaN elements over ``axis``."
nanvar = named_jit("nanvar", ("axis", "dtype", "keepdims"))(_nanvar_body)
nanvar.__doc__ = "Variance of the non-NaN elements over ``axis``."
nanstd = named_jit("nanstd", ("axis", "dtype", "keepdims"))(_nanstd_body)
nanstd.__doc__ = "Standard deviation of the non-NaN elements over ``axis``."
_nanargmax = named_jit("_nanargmax", ("axis", "keepdims"))(_nanargmax_body)
_nanargmin = named_jit("_nanargmin", ("axis", "keepdims"))(_nanargmin_body)


def nanargmax(a: Any, axis: int | None = None, out: None = None, keepdims: bool | None = None) -> Any:
    """Index of the largest non-NaN element over ``axis`` (-1 where every element is NaN)."""
    check_out("nanargmax", out)
    return _nanargmax(a, axis=optional_index(axis), keepdims=keepdims)


def nanargmin(a: Any, axis: int | None = None, out: None = None, keepdims: bool | None = None) -> Any:
    """Index of the smallest non-NaN element over ``axis`` (-1 where every element is NaN)."""
    check_out("nanargmin", out)
    return _nanargmin(a, axis=optional_index(axis), keepdims=keepdims)
