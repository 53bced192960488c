"""``jax.nn``'s elementwise activation functions, written over ``jaxle.numpy`` so that each stages the equations,
dtypes and weak types JAX 0.10.2's does (most under ``jit[name=<function>]``, ``relu``/``relu6``/``log1mexp`` as
``custom_jvp`` functions whose derivatives are chosen at the kinks)."""

from __future__ import annotations

from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import custom_jvp, lax
from jaxle_core.avals import get_aval
from jaxle_numpy import util

__all__ = ["celu", "elu", "gelu", "glu", "hard_sigmoid", "hard_silu", "hard_swish", "hard_tanh", "identity",
           "leaky_relu", "log1mexp", "log_sigmoid", "mish", "relu", "relu6", "selu", "sigmoid", "silu",
           "soft_sign", "softplus", "sparse_plus", "sparse_sigmoid", "squareplus", "swish", "tanh"]

ArrayLike = Any
Array = Any

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _custom_jvp_of_jit(name: str, fun: Any) -> custom_jvp:
    """``fun`` jitted under ``name`` inside a ``custom_jvp`` of the same name, as JAX stages relu and relu6."""
    jitted = util.named_jit(name)(fun)

    def call(x: ArrayLike) -> Array:
        return jitted(x)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = fun.__doc__
    return custom_jvp(call)


def _relu(x: ArrayLike) -> Array:
    """Rectified linear unit ``max(x, 0)``; its derivative at 0 is 0."""
    return jnp.maximum(x, 0)


def _relu6(x: ArrayLike) -> Array:
    """``min(max(x, 0), 6)``; its derivative at 0 and at 6 is 0."""
    return jnp.minimum(jnp.maximum(x, 0), 6.)


relu = _custom_jvp_of_jit("relu", _relu)
relu.defjvps(lambda g, ans, x: lax.select(jnp.greater(x, 0), g, lax.full_like(g, 0)))
relu6 = _custom_jvp_of_jit("relu6", _relu6)
relu6.defjvps(lambda g, ans, x: lax.select(jnp.logical_and(jnp.greater(x, 0), jnp.less(x, 6.)), g,
                                           lax.full_like(g, 0)))


@util.compiled_when_eager
def sigmoid(x: ArrayLike) -> Array:
    """Logistic sigmoid ``1 / (1 + exp(-x))``."""
    return lax.logistic(x)


def tanh(x: ArrayLike, /) -> Array:
    """Hyperbolic tangent (``jnp.tanh``)."""
    return jnp.tanh(x)


@util.named_jit("identity")
def identity(x: ArrayLike) -> Array:
    """The identity activation: ``x`` as an array."""
    return util.as_array(x)


@util.named_jit("softplus")
def softplus(x: ArrayLike) -> Array:
    """``log(1 + exp(x))``, computed as ``logaddexp(x, 0)`` so it neither overflows nor loses precision."""
    return jnp.logaddexp(x, 0)


@util.named_jit("sparse_plus")
def sparse_plus(x: ArrayLike) -> Array:
    """0 for ``x <= -1``, ``(x + 1)**2 / 4`` on (-1, 1) and ``x`` for ``x >= 1``."""
    return jnp.where(x <= -1.0, 0.0, jnp.where(x >= 1.0, x, (x + 1.0) ** 2 / 4))


@util.named_jit("soft_sign")
def soft_sign(x: ArrayLike) -> Array:
    """``x / (|x| + 1)``."""
    x_arr = util.as_array(x)
    return x_arr / (jnp.abs(x_arr) + 1)


@util.named_jit("silu")
def silu(x: ArrayLike) -> Array:
    """Sigmoid linear unit ``x * sigmoid(x)`` (also called swish)."""
    x_arr = util.as_array(x)
    return x_arr * sigmoid(x_arr)


swish = silu


@util.named_jit("mish")
def mish(x: ArrayLike) -> Array:
    """``x * tanh(softplus(x))``."""
    x_arr = util.as_array(x)
    return x_arr * jnp.tanh(softplus(x_arr))


@util.named_jit("log_sigmoid")
def log_sigmoid(x: ArrayLike) -> Array:
    """``log(sigmoid(x))`` as ``-softplus(-x)``, stable for large ``|x|``."""
    return -softplus(-util.as_array(x))


@util.named_jit("elu")
def elu(x: ArrayLike, alpha: ArrayLike = 1.0) -> Array:
    """Exponential linear unit: ``x`` for ``x > 0``, else ``alpha * (exp(x) - 1)``."""
    x_arr = util.as_array(x)
    positive = x_arr > 0
    safe_x = jnp.where(x_arr > 0, 0.0, x_arr)  # expm1 of positive inputs could overflow into the unused branch
    return jnp.where(positive, x_arr, alpha * jnp.expm1(safe_x))


@util.named_jit("leaky_relu")
def leaky_relu(x: ArrayLike, negative_slope: ArrayLike = 1e-2) -> Array:
    """``x`` for ``x >= 0``, else ``negative_slope * x``."""
    x_arr = util.as_array(x)
    return jnp.where(x_arr >= 0, x_arr, negative_slope * x_arr)


@util.named_jit("hard_tanh")
def hard_tanh(x: ArrayLike) -> Array:
    """``x`` clipped to [-1, 1]."""
    x_arr = util.as_array(x)
    return jnp.where(x_arr > 1, 1, jnp.where(x_arr < -1, -1, x_arr))


@util.named_jit("celu")
def celu(x: ArrayLike, alpha: ArrayLike = 1.0) -> Array:
    """Continuously differentiable ELU: ``max(x, 0) + alpha * expm1(min(x, 0) / alpha)``."""
    return jnp.maximum(x, 0.0) + alpha * jnp.expm1(jnp.minimum(x, 0.0) / alpha)


@util.named_jit("selu")
def selu(x: ArrayLike) -> Array:
    """Scaled ELU with the self-normalizing constants of Klambauer et al. (2017)."""
    return _SELU_SCALE * elu(x, _SELU_ALPHA)


@util.compiled_when_eager(static_argnames=("approximate",), jax_jits=False)
def gelu(x: ArrayLike, approximate: bool = True) -> Array:
    """Gaussian error linear unit ``x * Phi(x)``; ``approximate`` uses the tanh approximation."""
    util.check_arraylike("gelu", x)
    x_arr, = util.promote_dtypes_inexact(x)
    dtype = get_aval(x_arr).dtype
    if approximate:
        sqrt_2_over_pi = np.sqrt(2 / np.pi).astype(dtype)
        cdf = 0.5 * (1.0 + jnp.tanh(sqrt_2_over_pi * (x_arr + 0.044715 * (x_arr ** 3))))
        return x_arr * cdf
    sqrt_half = np.sqrt(0.5).astype(dtype)
    return jnp.array(0.5 * x_arr * lax.erfc(-x_arr * sqrt_half), dtype=dtype)


@util.named_jit("glu", static_argnames=("axis",))
def glu(x: ArrayLike, axis: int = -1) -> Array:
    """Gated linear unit: the first half of ``x`` along ``axis`` times the sigmoid of the second half."""
    x_arr = util.as_array(x)
    size = x_arr.shape[axis]
    if size % 2:
        raise AssertionError("axis size must be divisible by 2")
    first, second = jnp.split(x_arr, 2, axis)
    return first * sigmoid(second)


@util.named_jit("hard_sigmoid")
def hard_sigmoid(x: ArrayLike) -> Array:
    """``relu6(x + 3) / 6``."""
    return relu6(x + 3.) / 6.


@util.named_jit("hard_silu")
def hard_silu(x: ArrayLike) -> Array:
    """``x * hard_sigmoid(x)`` (also called hard swish)."""
    x_arr = util.as_array(x)
    return x_arr * hard_sigmoid(x_arr)


hard_swish = hard_silu


@util.named_jit("sparse_sigmoid")
def sparse_sigmoid(x: ArrayLike) -> Array:
    """``clip(x + 1, 0, 2) / 2``: 0 below -1, 1 above 1, linear between."""
    return 0.5 * jnp.clip(x + 1.0, 0.0, 2.0)


@util.named_jit("squareplus")
def squareplus(x: ArrayLike, b: ArrayLike = 4) -> Array:
    """``(x + sqrt(x**2 + b)) / 2``, a smooth approximation of relu."""
    x_arr = util.as_array(x)
    return (x_arr + jnp.sqrt(jnp.square(x_arr) + b)) / 2


@util.named_jit("log1mexp")
def _log1mexp(x: ArrayLike) -> Array:
    x_arr = util.as_array(x)
    below_log2 = x_arr < jnp.log(2.0)  # each branch is accurate on its side of log(2)
    return jnp.where(below_log2, jnp.log(-jnp.expm1(-x_arr)), jnp.log1p(-jnp.exp(-x_arr)))


@custom_jvp
def log1mexp(x: ArrayLike) -> Array:
    """``log(1 - exp(-x))`` for ``x > 0``, accurate for small and large ``x``."""
    return _log1mexp(x)


log1mexp.defjvps(lambda g, ans, x: g / jnp.expm1(x))
