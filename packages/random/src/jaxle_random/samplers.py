"""The first samplers: ``uniform``, ``normal``, ``randint`` and ``bernoulli``, bit for bit JAX's.

As in JAX, each public function checks and canonicalizes its arguments, then calls a jitted body with JAX's
name (``_uniform``, ``_normal``, ...). The jit matters for the bits, not only for speed: XLA on CPU fuses
``u * (maxval - minval) + minval`` of a compiled body into one fused multiply-add.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import jaxle_numpy as jnp
import jaxle_tree as tree
from jaxle_core import dtypes, jit, lax
from jaxle_core.avals import argument_avals, canonicalize_shape, get_aval
from jaxle_core.core import Tracer
from jaxle_core.errors import TracerArrayConversionError
from jaxle_core.staging import DebugInfo
from jaxle_numpy.util import is_arraylike
from jaxle_random.keys import random_bits, split, typed_key
from jaxle_random.layouts import laid_out, out_layout, scalar_layout

__all__ = ["bernoulli", "normal", "randint", "uniform"]


def _unit_floats(key: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    """Floats in [0, 1): random mantissa bits under the exponent of 1.0, minus 1.

    JAX draws the fewest bits (8, 16, 32 or 64) that cover the mantissa and one more bit, then widens them
    to the float's width (bfloat16 draws 8 bits).
    """
    mantissa = int(dtypes.finfo(dtype).nmant)
    draw_width = next(w for w in (8, 16, 32, 64) if w > mantissa)
    word_dtype = np.dtype(f"uint{dtype.itemsize * 8}")
    words = lax.convert_element_type(random_bits(key, draw_width, shape), word_dtype)
    one = np.array(1, dtype).view(word_dtype)
    mantissas = lax.bitwise_or(lax.shift_right_logical(words, np.array(draw_width - mantissa, word_dtype)), one)
    return lax.sub(lax.bitcast_convert_type(mantissas, dtype), np.array(1, dtype))


def _uniform_body(key: Any, shape: tuple[int, ...], dtype: np.dtype, minval: Any, maxval: Any) -> Any:
    minval, maxval = lax.convert_element_type(minval, dtype), lax.convert_element_type(maxval, dtype)
    minval, maxval = lax.broadcast_to_rank(minval, len(shape)), lax.broadcast_to_rank(maxval, len(shape))
    floats = _unit_floats(key, shape, dtype)
    return lax.max(minval, lax.reshape(lax.add(lax.mul(floats, lax.sub(maxval, minval)), minval), shape))


_uniform_body.__name__ = _uniform_body.__qualname__ = "_uniform"
_uniform = jit(_uniform_body, static_argnums=(1, 2))


def uniform(key: Any, shape: tuple[int, ...] | int = (), dtype: Any = None, minval: Any = 0.0,
            maxval: Any = 1.0, *, out_sharding: Any = None) -> Any:
    """Floats uniform in [minval, maxval)."""
    key = typed_key(key, "uniform")
    layout = out_layout(out_sharding, "uniform")
    dtype = dtypes.default_float_dtype() if dtype is None else dtypes.check_user_dtype(dtype)
    if not dtypes.issubdtype(dtype, np.floating):
        raise ValueError(f"dtype argument to `uniform` must be a float dtype, got {dtype}")
    shape = canonicalize_shape(shape)
    return laid_out(scalar_layout(layout, shape), lambda k, low, high: _uniform(k, shape, dtype, low, high), key,
                    minval, maxval)


def _normal_real_body(key: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    just_above_minus_one = np.array(-1 + 2.0 ** -(dtypes.finfo(dtype).nmant + 1), dtype)
    u = _uniform(key, shape, dtype, just_above_minus_one, np.array(1, dtype))
    return lax.mul(np.array(np.sqrt(2), dtype), lax.erf_inv(u))


_normal_real_body.__name__ = _normal_real_body.__qualname__ = "_normal_real"
_normal_real = jit(_normal_real_body, static_argnums=(1, 2))


def _normal_body(key: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    if not dtypes.issubdtype(dtype, np.complexfloating):
        return _normal_real(key, shape, dtype)
    real_dtype = np.dtype(np.float32 if dtype == np.complex64 else np.float64)
    real_key, imag_key = split(key)
    real = _normal_real(real_key, shape, real_dtype).astype(dtype)
    imag = _normal_real(imag_key, shape, real_dtype).astype(dtype)
    return (real + np.array(1j, dtype) * imag) / np.array(np.sqrt(2).astype(real_dtype), dtype)


_normal_body.__name__ = _normal_body.__qualname__ = "_normal"
_normal = jit(_normal_body, static_argnums=(1, 2))


def normal(key: Any, shape: tuple[int, ...] | int = (), dtype: Any = None, *, out_sharding: Any = None) -> Any:
    """Standard normal values: sqrt(2) * erfinv of a uniform draw on (-1, 1); a complex dtype draws its real
    and imaginary parts from two split keys, each with variance 1/2."""
    key = typed_key(key, "normal")
    layout = out_layout(out_sharding, "normal")
    dtype = dtypes.default_float_dtype() if dtype is None else dtypes.check_user_dtype(dtype)
    if not dtypes.issubdtype(dtype, np.inexact):
        raise ValueError(f"dtype argument to `normal` must be a float or complex dtype, got {dtype}")
    shape = canonicalize_shape(shape)
    return laid_out(scalar_layout(layout, shape), lambda k: _normal(k, shape, dtype), key)


def _clip_range(source: np.dtype, target: np.dtype) -> tuple[int, int]:
    """The range of integers both ``source`` and ``target`` can hold."""
    source_info, target_info = jnp.iinfo(source), jnp.iinfo(target)
    return max(int(source_info.min), int(target_info.min)), min(int(source_info.max), int(target_info.max))


def _clip_within(value: Any, dtype: np.dtype) -> Any:
    """``value`` clipped to the range both its dtype and ``dtype`` can hold; the limits are typed as ``value``
    (Python ints for a weakly typed one), so a strongly typed value's clip stages no conversion of them."""
    limits = _clip_range(value.dtype, dtype)
    if not get_aval(value).weak_type:
        limits = tuple(np.array(limit, value.dtype) for limit in limits)
    return jnp.clip(value, *limits)


def _clip_convert(value: Any, dtype: np.dtype) -> Any:
    """``value`` clipped to the range both its dtype and ``dtype`` can hold, then converted to ``dtype``."""
    return lax.convert_element_type(_clip_within(value, dtype), dtype)


def _broadcast_shapes(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """The broadcast shape of ``shapes``, with JAX's errors for a negative dimension and for shapes that do not
    broadcast."""
    for shape in shapes:
        if any(n < 0 for n in shape):
            raise TypeError(f"Only non-negative indices are allowed when broadcasting static shapes, but got shape "
                            f"{shape!r}.")
    shaped = [shape for shape in shapes if shape]
    if len(shaped) <= 1:  # scalar parameters (the common case): nothing to broadcast
        return tuple(shaped[0]) if shaped else ()
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        raise ValueError(f"Incompatible shapes for broadcasting: shapes={list(shapes)}") from None


def check_shape(function: str, shape: tuple[int, ...], *param_shapes: tuple[int, ...]) -> None:
    """JAX's errors for parameter shapes that do not broadcast to a sampler's ``shape`` (and for a negative
    dimension)."""
    result = _broadcast_shapes(shape, *param_shapes)
    if result != shape:
        raise ValueError(f"{function} parameter shapes must be broadcast-compatible with shape argument, "
                         f"and the result of broadcasting the shapes must equal the shape argument, "
                         f"but got result {result} for shape argument {shape}.")


def _sample_shape(shape: Any, function: str, *params: Any) -> tuple[int, ...]:
    """``shape``, or the broadcast shape of the parameters when it is None; the parameters must broadcast to it."""
    param_shapes = [np.shape(p) for p in params]
    if shape is None:
        return _broadcast_shapes(*param_shapes)
    shape = canonicalize_shape(shape)
    check_shape(function, shape, *param_shapes)
    return shape


def refuse_non_arrays(refusal: str, function: str, *params: Any) -> None:
    """JAX's error for a sampler's parameter that is no array or scalar (a list, tuple, dict, set, string or None),
    by where JAX's sampler meets it.

    ``"dtype"``: JAX asks the parameter's dtype first (``Cannot determine dtype of [...]``, NumPy's error for a
    string, ...); ``"arraylike"``: ``function`` checks its arguments are arrays or scalars (a string passes).
    """
    for position, param in enumerate(params):
        if is_arraylike(param):
            continue
        if refusal == "dtype":
            dtypes.dtype(param)
        elif not np.isscalar(param):
            raise TypeError(f"{function} requires ndarray or scalar arguments, got {type(param)} at position "
                            f"{position}.")


def _python_floats(params: dict[str, Any]) -> bool:
    """Whether every parameter is a Python float: one that no jitted body refuses (the usual case, checked first)."""
    for param in params.values():
        if type(param) is not float:
            return False
    return True


def refuse_jit_arguments(body: Any, **params: Any) -> None:
    """The error JAX's ``jit`` gives when a parameter (by its argument name) passed to the jitted body ``body`` as
    it is holds a value that is no array (a set, a string), naming the value's path."""
    if _python_floats(params):
        return
    leaves = [leaf for param in params.values() for leaf in tree.tree_leaves(param)]

    def names() -> list[str]:  # only for the error
        return [name + tree.keystr(path) for name, param in params.items()
                for path, _ in tree.tree_flatten_with_path(param)[0]]

    argument_avals(getattr(body, "__wrapped__", body), leaves, names)


def refuse_traced_lists(body: Callable[..., Any], **params: Any) -> None:
    """JAX's error for a Python list or tuple given as a parameter (by its argument name) that JAX's jitted body
    ``body`` converts with NumPy: it enters as traced scalars, the first of which NumPy refuses, named by its path
    in the argument (a sequence holding no scalar has no dtype)."""
    for name, param in params.items():
        if not isinstance(param, (list, tuple)):
            continue
        leaves = tree.tree_flatten_with_path(param)[0]
        if not leaves:
            dtypes.dtype(param)  # "Cannot determine dtype of ()", or "Value '[]' ... is not a valid JAX array type"
            continue
        path, leaf = leaves[0]
        traced = DebugInfo("jit", body.__wrapped__, ()).describe_function()
        raise TracerArrayConversionError(
            "The numpy.ndarray conversion method __array__() was called on traced array with shape "
            f"{get_aval(leaf).str_short()}\nThe error occurred while tracing {traced}. This concrete value was not "
            f"available in Python because it depends on the value of the argument {name}{tree.keystr(path)}.")


def refuse_traced_non_arrays(body: Callable[..., Any], **params: Any) -> None:
    """JAX's error for a parameter (by its argument name) that is no array, passed as it is to JAX's jitted body
    ``body``, which asks its dtype: a set or string is refused by ``jit``, a list or tuple by NumPy
    (``refuse_traced_lists``); a dict or None has no dtype (the dict printed with its traced values)."""
    if _python_floats(params):
        return
    refuse_jit_arguments(body, **params)
    refuse_traced_lists(body, **params)
    for param in params.values():
        if not is_arraylike(param):
            jit(dtypes.dtype)(param)  # "Cannot determine dtype of {'a': JitTracer(~int32[])}", ...


def refuse_operand(operator: str, other: str, param: Any) -> None:
    """JAX's error for a parameter that is no array (a list, tuple, dict or None) its sampler's jitted body meets in
    Python arithmetic: ``param`` is the right operand of ``operator``, the left one a value of type ``other``."""
    if not is_arraylike(param):
        raise TypeError(f"unsupported operand type(s) for {operator}: '{other}' and '{type(param).__name__}'")


def as_parameter(x: Any) -> Any:
    """A sampler's parameter as its jitted body takes it: a Python int or float as it is (jaxlib's dispatch passes
    it as a weakly typed scalar, as JAX's samplers pass theirs), anything else as an array."""
    return x if type(x) in (int, float) else jnp.asarray(x)


def _integer_bound(bound: Any) -> Any:
    """A float, bool or complex bound converted (truncated, saturated) to the default integer dtype, as JAX does
    whatever the dtype drawn; an integer one as it is."""
    bound = jnp.asarray(bound)
    if dtypes.issubdtype(bound.dtype, np.integer):
        return bound
    return bound.astype(dtypes.default_int_dtype())  # as JAX: astype, warning of a complex bound as astype does


def _randint_body(key: Any, shape: tuple[int, ...], minval: Any, maxval: Any, dtype: np.dtype) -> Any:
    minval, maxval = _integer_bound(minval), _integer_bound(maxval)
    width = dtype.itemsize * 8
    unsigned = np.dtype(f"uint{width}")
    # a maxval beyond the dtype's range makes the largest value of the dtype reachable: the dtype's top,
    # clipped to what maxval's dtype holds, compared in maxval's dtype
    top = _clip_within(jnp.array(jnp.iinfo(dtype).max, dtype), maxval.dtype)
    maxval_beyond = lax.gt(maxval, lax.convert_element_type(top, maxval.dtype))
    minval, maxval = _clip_convert(minval, dtype), _clip_convert(maxval, dtype)
    minval, maxval = lax.broadcast_to_rank(minval, len(shape)), lax.broadcast_to_rank(maxval, len(shape))
    high_key, low_key = split(key)
    higher_bits = random_bits(high_key, width, shape)
    lower_bits = random_bits(low_key, width, shape)
    span = lax.convert_element_type(lax.sub(maxval, minval), unsigned)
    span = lax.select(lax.le(maxval, minval), lax.full_like(span, 1), span)
    span = lax.select(lax.bitwise_and(maxval_beyond, lax.gt(maxval, minval)), lax.add(span, np.array(1, unsigned)),
                      span)
    multiplier = lax.rem(np.array(2 ** (width // 2), unsigned), span)
    multiplier = lax.rem(lax.mul(multiplier, multiplier), span)
    offset = lax.add(lax.mul(lax.rem(higher_bits, span), multiplier), lax.rem(lower_bits, span))
    return lax.add(minval, lax.convert_element_type(lax.rem(offset, span), dtype))


_randint_body.__name__ = _randint_body.__qualname__ = "_randint"
_randint = jit(_randint_body, static_argnums=(1, 4))


def randint(key: Any, shape: tuple[int, ...] | int, minval: Any, maxval: Any, dtype: Any = None, *,
            out_sharding: Any = None) -> Any:
    """Integers uniform in [minval, maxval), from two independent draws reduced modulo the span.

    Bounds that are not integers (floats, bools) are converted to the default integer dtype first: truncated
    toward zero, saturated at its limits. As JAX, integers narrower than 32 bits are drawn as int32 ones (bounds
    converted to int32, then clipped to the narrow range, ``maxval`` one past its top) and converted.
    """
    key = typed_key(key, "randint")
    layout = out_layout(out_sharding, "randint")
    dtype = dtypes.default_int_dtype() if dtype is None else dtypes.check_user_dtype(dtype)
    if not dtypes.issubdtype(dtype, np.integer):
        raise TypeError(f"randint only accepts integer dtypes, got {dtype}")
    shape = canonicalize_shape(shape)
    check_shape("randint", shape, np.shape(minval), np.shape(maxval))
    layout = scalar_layout(layout, shape)
    if dtype.itemsize >= 4:
        # a narrow dtype's bounds become arrays first
        refuse_jit_arguments(_randint, minval=minval, maxval=maxval)
        refuse_traced_lists(_randint, minval=minval, maxval=maxval)
        refuse_non_arrays("arraylike", "randint", minval, maxval)
        return laid_out(layout, lambda k, low, high: _randint(k, shape, low, high, dtype), key,
                        as_parameter(minval), as_parameter(maxval))
    info = jnp.iinfo(dtype)
    minval = jnp.clip(_as_int32(minval), min=int(info.min), max=int(info.max))
    maxval = jnp.clip(_as_int32(maxval), min=int(info.min), max=int(info.max) + 1)
    return laid_out(layout, lambda k, low, high: _randint(k, shape, low, high, np.dtype(np.int32)), key, minval,
                    maxval).astype(dtype)


def _as_int32(bound: Any) -> Any:
    """A bound of a narrow randint as int32 (wrapped, truncated or saturated, as ``convert_element_type``).

    A known value is converted on the host, so a jaxpr shows the int32 constant, as JAX's does."""
    return lax.convert_element_type(bound if isinstance(bound, Tracer) else np.asarray(bound), np.int32)


def _bernoulli_body(key: Any, p: Any, shape: tuple[int, ...], mode: str) -> Any:
    if mode == "low":
        return uniform(key, shape, p.dtype) < p
    # "high": a second draw refines the first below its resolution, so tiny probabilities are honoured
    u = uniform(key, (2,) + shape, p.dtype)
    coarse, fine = lax.index_in_dim(u, 0, keepdims=False), lax.index_in_dim(u, 1, keepdims=False)
    return fine * np.array(dtypes.finfo(p.dtype).eps, p.dtype) < p - coarse


_bernoulli_body.__name__ = _bernoulli_body.__qualname__ = "_bernoulli"
_bernoulli = jit(_bernoulli_body, static_argnums=(2, 3))


def _probability(p: Any) -> Any:
    """``p`` as ``_bernoulli`` takes it: strongly typed, of its canonical dtype. A Python float or a NumPy float
    stays on the host, converted there, as JAX passes it (jaxlib's dispatch moves it with the call); anything else
    becomes an array first."""
    if type(p) is float or (isinstance(p, (np.ndarray, np.generic)) and p.dtype.kind == "f"):
        return np.asarray(p, dtypes.canonicalize_dtype(dtypes.dtype(p)))
    p = jnp.asarray(p)
    return jnp.asarray(p, p.dtype)  # a weakly typed probability enters the jit strongly typed


def bernoulli(key: Any, p: Any = 0.5, shape: tuple[int, ...] | int | None = None, mode: str = "low", *,
              out_sharding: Any = None) -> Any:
    """Booleans that are True with probability ``p``; ``mode="high"`` draws twice the bits for more precision
    in small probabilities."""
    layout = out_layout(out_sharding, "bernoulli")
    if mode not in ("high", "low"):
        raise ValueError(f"got {mode=}, expected 'high' or 'low'")
    key = typed_key(key, "bernoulli")
    refuse_non_arrays("dtype", "bernoulli", p)
    p = _probability(p)
    if not dtypes.issubdtype(p.dtype, np.floating):
        raise TypeError(f"bernoulli probability `p` must have a floating dtype, got {p.dtype}.")
    shape = _sample_shape(shape, "bernoulli", p)
    return laid_out(layout, lambda k, prob: _bernoulli(k, prob, shape, mode), key, p)
