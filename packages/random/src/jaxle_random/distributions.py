"""Samplers that transform ``uniform`` or ``normal`` draws in closed form: exponential, gumbel, laplace,
logistic, cauchy, rademacher, pareto, weibull_min, rayleigh, lognormal, maxwell, double_sided_maxwell,
geometric, triangular, truncated_normal and wald, bit for bit JAX's (same draws, same operations, jitted
under JAX's names)."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import dtypes, jit, lax
from jaxle_core.avals import canonicalize_shape, get_aval
from jaxle_core.config import config
from jaxle_numpy.util import named_jit, promote_dtypes_inexact
from jaxle_random.keys import split, typed_key
from jaxle_random.layouts import laid_out, out_layout, scalar_layout
from jaxle_random.samplers import (
    _bernoulli,
    _broadcast_shapes,
    _normal,
    _sample_shape,
    _uniform,
    as_parameter,
    check_shape,
    normal,
    refuse_jit_arguments,
    refuse_non_arrays,
    refuse_operand,
    refuse_traced_lists,
    refuse_traced_non_arrays,
    uniform,
)

__all__ = ["cauchy", "double_sided_maxwell", "exponential", "geometric", "gumbel", "laplace", "logistic",
           "lognormal", "maxwell", "pareto", "rademacher", "rayleigh", "triangular", "truncated_normal", "wald",
           "weibull_min"]


def _float_dtype(dtype: Any, function: str, stacklevel: int = 3) -> np.dtype:
    """``dtype`` checked and canonicalized as JAX's samplers do (the default float dtype for None), with JAX's error
    for one that is no float; a narrowed 64-bit dtype's warning names the caller ``stacklevel`` frames up."""
    if dtype is None:  # the default is a float: no check (every eager draw asks)
        return dtypes.default_float_dtype()
    dtype = dtypes.check_user_dtype(dtype, stacklevel=stacklevel)
    if not dtypes.issubdtype(dtype, np.floating):
        raise ValueError(f"dtype argument to `{function}` must be a float dtype, got {dtype}")
    return dtype


def _int_dtype(dtype: Any, function: str) -> np.dtype:
    dtype = dtypes.default_int_dtype() if dtype is None else dtypes.check_user_dtype(dtype, stacklevel=3)
    if not dtypes.issubdtype(dtype, np.integer):
        raise ValueError(f"dtype argument to `{function}` must be an int dtype, got {dtype}")
    return dtype


def _unit(dtype: np.dtype, value: float) -> np.ndarray:
    return np.array(value, dtype)


@named_jit("_exponential", static_argnames=("shape", "dtype"))
def _exponential(key: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    u = _uniform(key, shape, dtype, 0.0, 1.0)
    return lax.neg(lax.log1p(lax.neg(u)))


def exponential(key: Any, shape: tuple[int, ...] | int = (), dtype: Any = None, *, out_sharding: Any = None) -> Any:
    """Exponential(1) values: ``-log1p(-u)`` of a uniform draw."""
    key = typed_key(key, "exponential")
    layout = out_layout(out_sharding, "exponential")
    dtype = _float_dtype(dtype, "exponential")
    shape = canonicalize_shape(shape)
    return laid_out(scalar_layout(layout, shape), lambda k: _exponential(k, shape, dtype), key)


@named_jit("_gumbel", static_argnames=("shape", "dtype", "mode"))
def _gumbel(key: Any, shape: tuple[int, ...], dtype: np.dtype, mode: str) -> Any:
    if mode == "high":
        # below 1/2 a second draw fills in the bits under the first's resolution; -log1p(-u) keeps them
        draws = _uniform(key, (2,) + shape, dtype, minval=0.0, maxval=1.0)
        coarse, fine = lax.index_in_dim(draws, 0, keepdims=False), lax.index_in_dim(draws, 1, keepdims=False)
        finfo = dtypes.finfo(dtype)
        upper_half = coarse >= 0.5
        refined = coarse + _unit(dtype, finfo.eps) * fine + _unit(dtype, finfo.tiny)
        u = jnp.where(upper_half, coarse, refined)
        return lax.neg(lax.log(lax.neg(lax.log1p(lax.neg(u)))))
    u = _uniform(key, shape, dtype, minval=_unit(dtype, dtypes.finfo(dtype).tiny), maxval=1.0)
    return lax.neg(lax.log(lax.neg(lax.log(u))))


def gumbel(key: Any, shape: tuple[int, ...] | int = (), dtype: Any = None, mode: str | None = None, *,
           out_sharding: Any = None) -> Any:
    """Standard Gumbel values: ``-log(-log(u))`` of a uniform draw on [tiny, 1)."""
    layout = out_layout(out_sharding, "gumbel")
    dtype = _float_dtype(dtype, "gumbel")
    if mode is None:
        mode = "high" if config.jax_high_dynamic_range_gumbel else "low"
    if mode not in ("high", "low"):
        raise ValueError(f"Must provide valid mode for gumbel got: {mode}")
    key = typed_key(key, "gumbel")
    shape = canonicalize_shape(shape)
    return laid_out(scalar_layout(layout, shape), lambda k: _gumbel(k, shape, dtype, mode), key)


@named_jit("_laplace", static_argnames=("shape", "dtype"))
def _laplace(key: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    u = _uniform(key, shape, dtype, _unit(dtype, -1 + 2.0 ** -(dtypes.finfo(dtype).nmant + 1)), 1.0)
    return lax.mul(lax.sign(u), lax.log1p(lax.neg(lax.abs(u))))


def laplace(key: Any, shape: tuple[int, ...] | int = (), dtype: Any = None, *, out_sharding: Any = None) -> Any:
    """Standard Laplace values: ``sign(u) * log1p(-|u|)`` of a uniform draw on (-1, 1)."""
    key = typed_key(key, "laplace")
    layout = out_layout(out_sharding, "laplace")
    dtype = _float_dtype(dtype, "laplace")
    shape = canonicalize_shape(shape)
    return laid_out(scalar_layout(layout, shape), lambda k: _laplace(k, shape, dtype), key)


@named_jit("_logistic", static_argnames=("shape", "dtype"))
def _logistic(key: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    u = _uniform(key, shape, dtype, _unit(dtype, dtypes.finfo(dtype).tiny), 1.0)
    return lax.sub(lax.log(u), lax.log1p(lax.neg(u)))


def logistic(key: Any, shape: tuple[int, ...] | int = (), dtype: Any = None, *, out_sharding: Any = None) -> Any:
    """Standard logistic values: the logit of a uniform draw on [tiny, 1)."""
    key = typed_key(key, "logistic")
    layout = out_layout(out_sharding, "logistic")
    dtype = _float_dtype(dtype, "logistic")
    shape = canonicalize_shape(shape)
    return laid_out(scalar_layout(layout, shape), lambda k: _logistic(k, shape, dtype), key)


@named_jit("_cauchy", static_argnames=("shape", "dtype"))
def _cauchy(key: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    u = _uniform(key, shape, dtype, _unit(dtype, dtypes.finfo(dtype).eps), 1.0)
    return lax.tan(lax.mul(_unit(dtype, np.pi), lax.sub(u, _unit(dtype, 0.5))))


def cauchy(key: Any, shape: tuple[int, ...] | int = (), dtype: Any = None, *, out_sharding: Any = None) -> Any:
    """Standard Cauchy values: ``tan(pi * (u - 1/2))`` of a uniform draw on [eps, 1)."""
    key = typed_key(key, "cauchy")
    layout = out_layout(out_sharding, "cauchy")
    dtype = _float_dtype(dtype, "cauchy")
    shape = canonicalize_shape(shape)
    return laid_out(scalar_layout(layout, shape), lambda k: _cauchy(k, shape, dtype), key)


@named_jit("_rademacher", static_argnames=("shape", "dtype", "layout"))
def _rademacher(key: Any, shape: tuple[int, ...], dtype: np.dtype, layout: Any = None) -> Any:
    half = np.array(0.5, dtypes.default_float_dtype())
    signs = laid_out(layout, lambda k, p: _bernoulli(k, p, shape, "low"), key, half).astype(dtype)
    return lax.sub(lax.mul(_unit(dtype, 2), signs), _unit(dtype, 1))


def rademacher(key: Any, shape: tuple[int, ...] | int = (), dtype: Any = None, *, out_sharding: Any = None) -> Any:
    """-1 or +1 with equal probability."""
    key = typed_key(key, "rademacher")
    layout = out_layout(out_sharding, "rademacher")
    dtype = dtypes.default_int_dtype() if dtype is None else dtypes.check_user_dtype(dtype)
    shape = canonicalize_shape(shape)
    check_shape("bernoulli", shape, ())  # JAX's rademacher is a bernoulli draw, which checks the shape
    return _rademacher(key, shape, dtype, layout=scalar_layout(layout, shape))


@named_jit("_pareto", static_argnames=("shape", "dtype"))
def _pareto(key: Any, b: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    b = jnp.asarray(b).astype(dtype)
    return lax.exp(_exponential(key, shape, dtype) / b)


def pareto(key: Any, b: Any, shape: tuple[int, ...] | int | None = None, dtype: Any = None, *,
           out_sharding: Any = None) -> Any:
    """Pareto values with shape parameter ``b`` (support [1, inf)): ``exp(E / b)`` of an exponential draw."""
    refuse_non_arrays("dtype", "pareto", b)
    key = typed_key(key, "pareto")
    layout = out_layout(out_sharding, "pareto")
    dtype = _float_dtype(dtype, "pareto")
    shape = _sample_shape(shape, "pareto", b)
    return laid_out(scalar_layout(layout, shape), lambda k, b: _pareto(k, b, shape, dtype), key, b)


@named_jit("_weibull_min", static_argnames=("shape", "dtype"))
def _weibull_min(key: Any, scale: Any, concentration: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    u = _uniform(key, shape, dtype, 0, 1)
    exponentials = lax.neg(lax.log1p(lax.neg(u)))
    return jnp.power(exponentials, (1.0 / concentration).astype(dtype)) * jnp.asarray(scale).astype(dtype)


def weibull_min(key: Any, scale: Any, concentration: Any, shape: tuple[int, ...] | int = (),
                dtype: Any = None) -> Any:
    """Weibull values: ``scale * E ** (1 / concentration)`` of an exponential draw."""
    dtype = _float_dtype(dtype, "weibull_min")
    key = typed_key(key, "weibull_min")
    # JAX's body computes ``1.0 / concentration`` first, then multiplies a traced array by ``scale``
    refuse_jit_arguments(_weibull_min, scale=scale, concentration=concentration)
    refuse_operand("/", "float", concentration)
    refuse_operand("*", "DynamicJaxprTracer", scale)
    return _weibull_min(key, jnp.asarray(scale), jnp.asarray(concentration), canonicalize_shape(shape), dtype)


@named_jit("_rayleigh", static_argnames=("shape", "dtype"))
def _rayleigh(key: Any, scale: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    u = _uniform(key, shape, dtype, 0.0, 1.0)
    scale = jnp.broadcast_to(jnp.asarray(scale).astype(dtype), shape)
    return scale * lax.sqrt(lax.log(u) * _unit(dtype, -2.0))


def rayleigh(key: Any, scale: Any, shape: tuple[int, ...] | int | None = None, dtype: Any = None, *,
             out_sharding: Any = None) -> Any:
    """Rayleigh values: ``scale * sqrt(-2 log u)`` of a uniform draw."""
    refuse_non_arrays("dtype", "rayleigh", scale)
    key = typed_key(key, "rayleigh")
    layout = out_layout(out_sharding, "rayleigh")
    dtype = _float_dtype(dtype, "rayleigh")
    shape = _sample_shape(shape, "rayleigh", scale)
    return laid_out(scalar_layout(layout, shape), lambda k, scale: _rayleigh(k, scale, shape, dtype), key, scale)


_UNIT_SIGMA = np.float32(1.0)  # JAX's default, a NumPy scalar (not weak)


def _lognormal(key: Any, sigma: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    sigma = lax.convert_element_type(sigma, dtype)
    return jnp.exp(normal(key, shape, dtype) * sigma)


def lognormal(key: Any, sigma: Any = _UNIT_SIGMA, shape: tuple[int, ...] | int | None = None,
              dtype: Any = None, *, out_sharding: Any = None) -> Any:
    """Log-normal values: ``exp(sigma * N)`` of a standard normal draw."""
    refuse_non_arrays("dtype", "lognormal", sigma)
    key = typed_key(key, "lognormal")
    layout = out_layout(out_sharding, "lognormal")
    dtype = _float_dtype(dtype, "lognormal")
    shape = _sample_shape(shape, "lognormal", sigma)
    return laid_out(layout, lambda k, sigma: _lognormal(k, sigma, shape, dtype), key, sigma)


@named_jit("_maxwell", static_argnames=("shape", "dtype", "layout"))
def _maxwell(key: Any, shape: tuple[int, ...], dtype: np.dtype, layout: Any = None) -> Any:
    return jnp.linalg.norm(laid_out(layout, lambda k: _normal(k, shape + (3,), dtype), key), axis=-1)


def maxwell(key: Any, shape: tuple[int, ...] | int = (), dtype: Any = None, *, out_sharding: Any = None) -> Any:
    """Maxwell values: the length of a standard normal 3-vector."""
    key = typed_key(key, "maxwell")
    layout = out_layout(out_sharding, "maxwell")
    dtype = _float_dtype(dtype, "maxwell")
    shape = canonicalize_shape(shape)
    return _maxwell(key, shape, dtype, layout=scalar_layout(layout, shape))


@named_jit("_double_sided_maxwell", static_argnames=("shape", "dtype"))
def _double_sided_maxwell(key: Any, loc: Any, scale: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    maxwell_key, sign_key = split(key)
    magnitudes = _maxwell(maxwell_key, shape, dtype)
    signs = _rademacher(sign_key, shape, dtype)
    return signs * magnitudes * jnp.asarray(scale).astype(dtype) + jnp.asarray(loc).astype(dtype)


def double_sided_maxwell(key: Any, loc: Any, scale: Any, shape: tuple[int, ...] | int = (),
                         dtype: Any = None) -> Any:
    """Maxwell values with a random sign, scaled by ``scale`` and shifted by ``loc``, of shape
    ``shape + broadcast(loc, scale).shape``."""
    dtype = _float_dtype(dtype, "double_sided_maxwell")
    refuse_jit_arguments(_double_sided_maxwell, loc=loc, scale=scale)
    refuse_traced_lists(_double_sided_maxwell, loc=loc, scale=scale)
    refuse_operand("*", "DynamicJaxprTracer", scale)
    refuse_operand("+", "DynamicJaxprTracer", loc)
    key = typed_key(key, "double_sided_maxwell")
    # as JAX, the parameters' broadcast shape is appended to ``shape``
    shape = canonicalize_shape(shape) + _broadcast_shapes(np.shape(loc), np.shape(scale))
    return _double_sided_maxwell(key, loc, scale, shape, dtype)


@named_jit("_geometric", static_argnames=("shape", "dtype", "layout"))
def _geometric(key: Any, p: Any, shape: tuple[int, ...], dtype: np.dtype, layout: Any = None) -> Any:
    (p,) = promote_dtypes_inexact(p)
    u = laid_out(layout, lambda k, low, high: _uniform(k, shape, p.dtype, low, high), key, 0.0, 1.0)
    u = jnp.where(u == 0, 1, u)
    # the rate broadcast to the draw's shape takes the draw's layout (as JAX's binary operations broadcast it)
    log_u = lax.log(u)
    rate = jnp.broadcast_to(lax.log1p(lax.neg(p)), shape, out_sharding=get_aval(u).explicit_sharding)
    trials = lax.floor(lax.div(log_u, rate)) + 1.0  # lax's div: a weakly typed rate is not converted first
    return trials.astype(dtype)


def geometric(key: Any, p: Any, shape: tuple[int, ...] | int | None = None, dtype: Any = None, *,
              out_sharding: Any = None) -> Any:
    """The number of Bernoulli(p) trials up to the first success (>= 1)."""
    refuse_jit_arguments(_geometric, p=p)  # JAX checks the probability inside its jitted body
    refuse_non_arrays("arraylike", "geometric", p)
    key = typed_key(key, "geometric")
    layout = out_layout(out_sharding, "geometric")
    dtype = _int_dtype(dtype, "geometric")
    # the probability enters the jitted body as it was given (a Python float stays one: JAX prints ``0.3:f32[]``)
    shape = _sample_shape(shape, "geometric", p)
    return _geometric(key, as_parameter(p), shape, dtype, layout=scalar_layout(layout, shape))


# inlined where traced (JAX's jaxprs show its equations), compiled as one program when called eagerly
@partial(jit, static_argnums=(4, 5), inline=True)
def _triangular(key: Any, left: Any, mode: Any, right: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    left, right, mode = (jnp.broadcast_to(lax.convert_element_type(v, dtype), shape) for v in (left, right, mode))
    mode_quantile = (mode - left) / (right - left)
    u = _uniform(key, shape, dtype, 0.0, 1.0)
    below_mode = left + jnp.sqrt(u * (right - left) * (mode - left))
    above_mode = right - jnp.sqrt((1.0 - u) * (right - left) * (right - mode))
    return lax.select(u < mode_quantile, below_mode, above_mode)


def triangular(key: Any, left: Any, mode: Any, right: Any, shape: tuple[int, ...] | int | None = None,
               dtype: Any = None, *, out_sharding: Any = None) -> Any:
    """Triangular values on [left, right] peaking at ``mode``, by inverting the distribution function."""
    refuse_non_arrays("dtype", "triangular", left, mode, right)
    key = typed_key(key, "triangular")
    layout = out_layout(out_sharding, "triangular")
    dtype = _float_dtype(dtype, "triangular")
    shape = _sample_shape(shape, "triangular", left, mode, right)
    return laid_out(scalar_layout(layout, shape), lambda k, *bounds: _triangular(k, *bounds, shape, dtype), key, left,
                    mode, right)


@named_jit("_truncated_normal", static_argnames=("shape", "dtype"))
def _truncated_normal(key: Any, lower: Any, upper: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    lower, upper = jnp.asarray(lower).astype(dtype), jnp.asarray(upper).astype(dtype)
    sqrt2 = _unit(dtype, np.sqrt(2))
    u = uniform(key, shape, dtype, lax.erf(lower / sqrt2), lax.erf(upper / sqrt2))
    values = lax.mul(sqrt2, lax.erf_inv(u))
    # rounding may land on a bound: keep the values strictly inside (lower, upper)
    return jnp.clip(values, lax.nextafter(lax.stop_gradient(lower), _unit(dtype, np.inf)),
                    lax.nextafter(lax.stop_gradient(upper), _unit(dtype, -np.inf)))


def truncated_normal(key: Any, lower: Any, upper: Any, shape: tuple[int, ...] | int | None = None,
                     dtype: Any = None, *, out_sharding: Any = None) -> Any:
    """Standard normal values conditioned on (lower, upper): the inverse distribution function of a uniform
    draw between the bounds' probabilities."""
    refuse_traced_non_arrays(_truncated_normal, lower=lower, upper=upper)
    key = typed_key(key, "truncated_normal")
    layout = out_layout(out_sharding, "truncated_normal")
    dtype = _float_dtype(dtype, "truncated_normal")
    shape = _sample_shape(shape, "truncated_normal", lower, upper)
    return laid_out(layout, lambda k, low, high: _truncated_normal(k, low, high, shape, dtype), key, lower, upper)


@named_jit("_wald", static_argnames=("shape", "dtype"))
def _wald(key: Any, mean: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    normal_key, uniform_key = split(key)
    mean = jnp.broadcast_to(jnp.asarray(mean).astype(dtype), shape)
    normals = normal(normal_key, shape, dtype)
    z = uniform(uniform_key, shape, dtype)
    y = lax.integer_pow(normals, 2)
    y_squared, mean_squared = lax.integer_pow(y, 2), lax.integer_pow(mean, 2)
    root = lax.sqrt(_unit(dtype, 4.0) * mean * y + mean_squared * y_squared)
    x = mean + mean_squared * y / _unit(dtype, 2.0) - mean / _unit(dtype, 2.0) * root
    return lax.select(z <= mean / (mean + x), x, mean_squared / x)


def wald(key: Any, mean: Any, shape: tuple[int, ...] | int | None = None, dtype: Any = None, *,
         out_sharding: Any = None) -> Any:
    """Wald (inverse Gaussian) values with scale 1, by the transformation method of Michael, Schucany and Haas."""
    refuse_non_arrays("dtype", "wald", mean)
    key = typed_key(key, "wald")
    layout = out_layout(out_sharding, "wald")
    dtype = _float_dtype(dtype, "wald")
    shape = _sample_shape(shape, "wald", mean)
    return laid_out(layout, lambda k, mean: _wald(k, mean, shape, dtype), key, mean)
