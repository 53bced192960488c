"""The gamma family: ``gamma`` and ``loggamma`` (Marsaglia–Tsang rejection), and the samplers built on them —
``beta``, ``dirichlet``, ``chisquare``, ``f`` and ``t`` — bit for bit JAX's.

Each element of a gamma draw gets its own key (the draw's key split into one key per element) and runs its
own rejection loop; the elements are vectorized with ``vmap``, so the loops become one batched while loop
whose finished elements keep their values, exactly as JAX's sampler does.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import dtypes, jit, lax, vmap
from jaxle_core.ad.jvp import jvp_rules
from jaxle_core.avals import ShapedArray, canonicalize_shape, get_aval
from jaxle_core.batching.trace import at_dim, batching_rules
from jaxle_core.core import Primitive
from jaxle_core.extended import physical_rules
from jaxle_core.lax.gamma_sample_grad import random_gamma_grad
from jaxle_core.sharding_types import register_rule
from jaxle_random.distributions import _float_dtype, _rademacher, exponential
from jaxle_random.key_array import is_key_dtype
from jaxle_random.key_primitives import random_wrap
from jaxle_random.keys import split, typed_key
from jaxle_random.layouts import laid_out, out_layout, scalar_layout
from jaxle_random.samplers import (
    _normal,
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

__all__ = ["random_gamma_p", "beta", "chisquare", "dirichlet", "f", "gamma", "generalized_normal", "loggamma", "t"]


def _key_pair(key: Any, num: int) -> list[Any]:
    keys = split(key, num)
    return [lax.index_in_dim(keys, i, keepdims=False) for i in range(num)]


def _gamma_one(key: Any, alpha: Any, log_space: bool) -> Any:
    """One Gamma(alpha) value (its log when ``log_space``): Marsaglia–Tsang for alpha >= 1; below 1 the
    draw for alpha + 1 is scaled by U ** (1 / alpha)."""
    dtype = alpha.dtype

    def const(value: float) -> Any:  # as JAX's: a NumPy constant of alpha's dtype
        return np.array(value, dtype)

    one, zero = const(1), const(0)
    boost_mask = lax.ge(alpha, one)
    alpha_orig = alpha
    alpha = lax.select(boost_mask, alpha, lax.add(alpha, one))
    d = lax.sub(alpha, const(1 / 3))
    c = lax.div(const(1 / 3), lax.sqrt(d))

    def rejected(state: tuple) -> Any:
        _, x_squared, v, u = state
        squeeze_fails = lax.ge(u, lax.sub(one, lax.mul(const(0.0331), lax.mul(x_squared, x_squared))))
        log_fails = lax.ge(lax.log(u), lax.add(lax.mul(x_squared, const(0.5)),
                                               lax.mul(d, lax.add(lax.sub(one, v), lax.log(v)))))
        return lax.bitwise_and(squeeze_fails, log_fails)

    def next_normal(state: tuple) -> tuple:
        loop_key, _, _ = state
        loop_key, normal_key = _key_pair(loop_key, 2)
        x = normal(normal_key, (), dtype)
        return loop_key, x, lax.add(one, lax.mul(x, c))

    def propose(state: tuple) -> tuple:
        loop_key, x_key, u_key = _key_pair(state[0], 3)
        # v = (1 + c x)^3 must be positive: redraw x until 1 + c x > 0
        _, x, v = lax.while_loop(lambda s: lax.le(s[2], zero), next_normal, (x_key, zero, const(-1)))
        x_squared, v_cubed = lax.mul(x, x), lax.mul(lax.mul(v, v), v)
        return loop_key, x_squared, v_cubed, uniform(u_key, (), dtype)

    key, boost_key = _key_pair(key, 2)
    # the initial state is rejected, so the loop proposes at least once
    _, _, v, _ = lax.while_loop(rejected, propose, (key, zero, one, const(2)))
    if log_space:
        log_u = lax.neg(exponential(boost_key, (), dtype))
        log_boost = lax.select(lax.bitwise_or(boost_mask, lax.eq(log_u, zero)), zero,
                               lax.mul(log_u, lax.div(one, alpha_orig)))
        return lax.add(lax.add(lax.log(d), lax.log(v)), log_boost)
    u = lax.sub(one, uniform(boost_key, (), dtype))
    boost = lax.select(boost_mask, one, lax.pow(u, lax.div(one, alpha_orig)))
    return lax.mul(lax.mul(d, v), boost)


def _random_gamma(key: Any, alpha: Any, log_space: bool) -> Any:
    """Gamma draws of every element of ``alpha``, each from its own key: typed keys of shape ``batch`` and
    ``alpha`` of shape ``(*batch, *rest)`` split every key into one key per element of ``rest``."""
    batch = math.prod(key.shape)
    count = math.prod(alpha.shape[key.ndim:])
    keys = vmap(lambda k: split(k, count))(lax.reshape(key, (batch,)))
    size = batch * count
    samples = vmap(lambda k, a: _gamma_one(k, a, log_space))(lax.reshape(keys, (size,)),
                                                             lax.reshape(alpha, (size,)))
    return lax.reshape(samples, alpha.shape)


def _random_gamma_abstract_eval(key: ShapedArray, alpha: ShapedArray, *, log_space: bool) -> ShapedArray:
    if not is_key_dtype(key.dtype) or alpha.shape[:key.ndim] != key.shape:
        raise TypeError(f"random_gamma takes typed keys of shape batch and alpha (*batch, ...); got {key} "
                        f"and {alpha}")
    return ShapedArray(alpha.shape, alpha.dtype)


def _random_gamma_physical(data: Any, alpha: Any, *, avals_in: list, avals_out: list, log_space: bool) -> list:
    # what the draw computes, on the keys' data: the keys are wrapped again and drawn from as above
    return [_random_gamma(random_wrap(data, avals_in[0].dtype._impl), alpha, log_space)]


def _random_gamma_batching(values: list, dims: list, *, log_space: bool) -> tuple[Any, int]:
    # As JAX: an unbatched operand is broadcast over the batch, so keys and alphas are lined up element
    # for element and every element is computed (and rounded) alike, batched or not.
    size = next(get_aval(v).shape[d] for v, d in zip(values, dims) if d is not None)
    key, alpha = (at_dim(v, d, size) for v, d in zip(values, dims))
    return random_gamma_p.bind(key, alpha, log_space=log_space), 0


random_gamma_p = Primitive("random_gamma")
random_gamma_p.def_abstract_eval(_random_gamma_abstract_eval)
# as JAX's, the draws are typed as alpha (over no mesh when alpha is, whatever the keys' type)
register_rule(random_gamma_p, lambda avals, specs, outs, mesh, params: [specs[1]], kept_operand=1)
physical_rules[random_gamma_p] = _random_gamma_physical
batching_rules[random_gamma_p] = _random_gamma_batching


def _random_gamma_jvp(primals: list, tangents: list, *, log_space: bool) -> tuple[Any, Any]:
    """Implicit reparameterization: d sample / d alpha = -(dF/dalpha) / (dF/dx) of the Gamma CDF at the
    sample, ``random_gamma_grad``; in log space divided by the sample (kept off 0 where exp underflows).

    As JAX does on CPU, the gradient is computed one element at a time in a ``lax.map`` loop over the flattened
    samples: XLA rounds that program's arithmetic as JAX's."""
    key, alpha = primals
    samples = random_gamma_p.bind(key, alpha, log_space=log_space)
    flat_samples, flat_alphas = lax.reshape(samples, (samples.size,)), lax.reshape(alpha, (alpha.size,))
    if log_space:
        flat_samples = lax.exp(flat_samples)
        flat_samples = lax.select(lax.eq(flat_samples, lax.full_like(flat_samples, 0)),
                                  lax.full_like(flat_samples, dtypes.finfo(flat_samples.dtype).tiny), flat_samples)

    def element_grad(alpha_and_sample):
        a, x = alpha_and_sample
        slope = random_gamma_grad(a, x)
        return lax.div(slope, x) if log_space else slope

    grads = lax.reshape(lax.map(element_grad, (flat_alphas, flat_samples)), alpha.shape)
    return samples, lax.mul(tangents[1], grads)


jvp_rules[random_gamma_p] = _random_gamma_jvp

def _gamma_body(key: Any, a: Any, shape: tuple[int, ...], dtype: np.dtype, log_space: bool) -> Any:
    a = lax.convert_element_type(a, dtype)
    if a.shape != shape:
        a = lax.broadcast_in_dim(a, shape, tuple(range(len(shape) - a.ndim, len(shape))))
    return random_gamma_p.bind(key, a, log_space=log_space)


_gamma_body.__name__ = _gamma_body.__qualname__ = "_gamma"
_gamma = jit(_gamma_body, static_argnums=(2, 3, 4))


def _draw_shape(function: str, shape: Any, *param_shapes: tuple[int, ...]) -> tuple[int, ...]:
    """The shape of a draw: ``shape``, or the parameters' broadcast shape; parameters must broadcast to it (JAX's
    errors naming ``function``, and a negative size)."""
    if shape is None:
        return tuple(np.broadcast_shapes(*param_shapes))
    shape = canonicalize_shape(shape)
    if any(param_shapes) or min(shape, default=0) < 0:  # scalar parameters (the usual case) fit any shape
        check_shape(function, shape, *param_shapes)
    return shape


def _gamma_family(key: Any, a: Any, shape: Any, dtype: Any, out_sharding: Any, function: str,
                  log_space: bool) -> Any:
    refuse_traced_non_arrays(_gamma, a=a)
    key = typed_key(key, function)
    layout = out_layout(out_sharding, function)
    if not log_space:  # JAX's gamma draws with no shape replicated over a mesh of Explicit axes, its loggamma not
        layout = scalar_layout(layout, shape if shape is None else canonicalize_shape(shape))
    dtype = _float_dtype(dtype, function, stacklevel=4)
    a = as_parameter(a)
    shape = _draw_shape("gamma", shape, () if type(a) in (int, float) else a.shape)
    return laid_out(layout, lambda k, a: _gamma(k, a, shape, dtype, log_space), key, a)


def gamma(key: Any, a: Any, shape: Any = None, dtype: Any = None, *, out_sharding: Any = None) -> Any:
    """Gamma(a) values (unit scale), by Marsaglia and Tsang's rejection method."""
    return _gamma_family(key, a, shape, dtype, out_sharding, "gamma", log_space=False)


def loggamma(key: Any, a: Any, shape: Any = None, dtype: Any = None, *, out_sharding: Any = None) -> Any:
    """Logarithms of Gamma(a) values, computed in log space so that tiny ``a`` does not underflow to 0."""
    return _gamma_family(key, a, shape, dtype, out_sharding, "loggamma", log_space=True)


def _beta_body(key: Any, a: Any, b: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    a, b = lax.convert_element_type(a, dtype), lax.convert_element_type(b, dtype)
    key_a, key_b = _key_pair(key, 2)
    a, b = jnp.broadcast_to(a, shape), jnp.broadcast_to(b, shape)
    log_gamma_a = _gamma(key_a, a, shape, dtype, True)
    log_gamma_b = _gamma(key_b, b, shape, dtype, True)
    # Ga / (Ga + Gb) from the logs, scaled by the larger one so neither exp underflows
    log_max = lax.max(log_gamma_a, log_gamma_b)
    gamma_a = lax.exp(lax.sub(log_gamma_a, log_max))
    gamma_b = lax.exp(lax.sub(log_gamma_b, log_max))
    return lax.div(gamma_a, lax.add(gamma_a, gamma_b))


_beta_body.__name__ = _beta_body.__qualname__ = "_beta"
_beta = jit(_beta_body, static_argnums=(3, 4))


def beta(key: Any, a: Any, b: Any, shape: Any = None, dtype: Any = None, *, out_sharding: Any = None) -> Any:
    """Beta(a, b) values: Ga / (Ga + Gb) of two independent gamma draws."""
    refuse_non_arrays("dtype", "beta", a, b)
    key = typed_key(key, "beta")
    layout = out_layout(out_sharding, "beta")
    dtype = _float_dtype(dtype, "beta")
    a, b = jnp.asarray(a), jnp.asarray(b)
    shape = _draw_shape("beta", shape, a.shape, b.shape)
    return laid_out(scalar_layout(layout, shape), lambda k, a, b: _beta(k, a, b, shape, dtype), key, a, b)


def _dirichlet_body(key: Any, alpha: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    full_shape = shape + alpha.shape[-1:]
    log_gammas = _gamma(key, alpha, full_shape, dtype, True)
    # a softmax of the logs, shifted by their maximum so that exp stays in range
    log_max = lax.max(np.array(-np.inf, dtype), lax.reduce_max(log_gammas, (len(shape),)))
    shifted = lax.exp(lax.sub(log_gammas, lax.stop_gradient(lax.expand_dims(log_max, (len(shape),)))))
    return lax.div(shifted, lax.expand_dims(lax.reduce_sum(shifted, (len(shape),)), (len(shape),)))


_dirichlet_body.__name__ = _dirichlet_body.__qualname__ = "_dirichlet"
_dirichlet = jit(_dirichlet_body, static_argnums=(2, 3))


def dirichlet(key: Any, alpha: Any, shape: Any = None, dtype: Any = None, *, out_sharding: Any = None) -> Any:
    """Dirichlet(alpha) vectors along the last axis: gamma draws normalized to sum 1."""
    refuse_jit_arguments(_dirichlet, alpha=alpha)
    refuse_traced_lists(_dirichlet, alpha=alpha)
    if np.ndim(alpha) < 1:
        raise ValueError(f"dirichlet requires alpha.ndim >= 1, got alpha.ndim == {np.ndim(alpha)}")
    key = typed_key(key, "dirichlet")
    layout = out_layout(out_sharding, "dirichlet")
    dtype = _float_dtype(dtype, "dirichlet")
    alpha = jnp.asarray(alpha)
    layout = scalar_layout(layout, shape if shape is None else canonicalize_shape(shape))
    batch_shape = _draw_shape("dirichlet", shape, alpha.shape[:-1])
    alpha = lax.convert_element_type(alpha, dtype)
    return laid_out(layout, lambda k, alpha: _dirichlet(k, alpha, batch_shape, dtype), key, alpha)


def _chisquare_body(key: Any, df: Any, shape: tuple[int, ...], dtype: np.dtype, layout: Any) -> Any:
    half = lax.div(lax.convert_element_type(df, dtype), np.array(2, dtype))
    log_gammas = laid_out(layout, lambda k, a: _gamma(k, a, shape, dtype, True), key, half)
    return lax.mul(lax.exp(log_gammas), np.array(2, dtype))


_chisquare_body.__name__ = _chisquare_body.__qualname__ = "_chisquare"
_chisquare = jit(_chisquare_body, static_argnums=(2, 3, 4))


def chisquare(key: Any, df: Any, shape: Any = None, dtype: Any = None, *, out_sharding: Any = None) -> Any:
    """Chi-square values with ``df`` degrees of freedom: twice a Gamma(df / 2) draw."""
    refuse_non_arrays("dtype", "chisquare", df)
    key = typed_key(key, "chisquare")
    layout = out_layout(out_sharding, "chisquare")
    dtype = _float_dtype(dtype, "chisquare")
    df = jnp.asarray(df)
    shape = _draw_shape("chisquare", shape, df.shape)
    return _chisquare(key, df, shape, dtype, scalar_layout(layout, shape))


def _f_body(key: Any, dfnum: Any, dfden: Any, shape: tuple[int, ...], dtype: np.dtype, layout: Any) -> Any:
    dfden, dfnum = lax.convert_element_type(dfden, dtype), lax.convert_element_type(dfnum, dtype)
    key_den, key_num = _key_pair(key, 2)
    num_draws = _chisquare(key_num, dfnum, shape, dtype, layout)
    den_draws = _chisquare(key_den, dfden, shape, dtype, layout)
    return lax.div(lax.div(num_draws, dfnum), lax.div(den_draws, dfden))


_f_body.__name__ = _f_body.__qualname__ = "_f"
_f = jit(_f_body, static_argnums=(3, 4, 5))


def f(key: Any, dfnum: Any, dfden: Any, shape: Any = None, dtype: Any = None, *, out_sharding: Any = None) -> Any:
    """F(dfnum, dfden) values: the ratio of two chi-square draws, each over its degrees of freedom."""
    refuse_non_arrays("dtype", "f", dfnum, dfden)
    key = typed_key(key, "f")
    layout = out_layout(out_sharding, "f")
    dtype = _float_dtype(dtype, "f")
    dfnum, dfden = jnp.asarray(dfnum), jnp.asarray(dfden)
    shape = _draw_shape("f", shape, dfnum.shape, dfden.shape)
    return _f(key, dfnum, dfden, shape, dtype, scalar_layout(layout, shape))


def _t_body(key: Any, df: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    df = lax.convert_element_type(df, dtype)
    key_normal, key_gamma = _key_pair(key, 2)
    n = _normal(key_normal, shape, dtype)
    half = lax.div(lax.convert_element_type(df, dtype), np.array(2, dtype))
    g = _gamma(key_gamma, half, shape, dtype, False)
    return lax.mul(n, lax.sqrt(lax.div(half, g)))


_t_body.__name__ = _t_body.__qualname__ = "_t"
_t = jit(_t_body, static_argnums=(2, 3))


def t(key: Any, df: Any, shape: Any = None, dtype: Any = None, *, out_sharding: Any = None) -> Any:
    """Student's t values: a normal draw over sqrt(chi-square / df)."""
    refuse_non_arrays("dtype", "t", df)
    key = typed_key(key, "t")
    layout = out_layout(out_sharding, "t")
    dtype = _float_dtype(dtype, "t")
    df = jnp.asarray(df)
    shape = _draw_shape("t", shape, df.shape)
    return laid_out(scalar_layout(layout, shape), lambda k, df: _t(k, df, shape, dtype), key, df)


def _generalized_normal_body(key: Any, p: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    keys = split(key)
    g = gamma(keys[0], 1 / p, shape, dtype)
    signs = _rademacher(keys[1], shape, dtype)
    return lax.mul(signs, lax.pow(g, lax.convert_element_type(1 / p, dtype)))


_generalized_normal_body.__name__ = _generalized_normal_body.__qualname__ = "_generalized_normal"
_generalized_normal = jit(_generalized_normal_body, static_argnums=(2, 3))


def generalized_normal(key: Any, p: float, shape: tuple[int, ...] = (), dtype: Any = None, *,
                       out_sharding: Any = None) -> Any:
    """Values of density proportional to exp(-|x|^p): a random sign times Gamma(1/p) ** (1/p)."""
    key = typed_key(key, "generalized_normal")
    refuse_jit_arguments(_generalized_normal, p=p)
    refuse_operand("/", "int", p)  # JAX's body computes ``1 / p``
    layout = out_layout(out_sharding, "generalized_normal")
    dtype = dtypes.default_float_dtype() if dtype is None else dtypes.check_user_dtype(dtype)
    shape = canonicalize_shape(shape)
    check_shape("generalized_normal", shape)
    return laid_out(scalar_layout(layout, shape), lambda k, p: _generalized_normal(k, p, shape, dtype), key,
                    jnp.asarray(p))
