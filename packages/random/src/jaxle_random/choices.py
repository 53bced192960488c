"""Random picks: ``choice`` (elements of ``range(a)`` or slices of an array, with or without replacement,
uniform or weighted by ``p``) and ``categorical`` (category indices drawn from logits), bit for bit JAX's.

Weighted picks with replacement invert the cumulative weights at uniform draws; picks without replacement
take the largest Gumbel-perturbed log-weights (the Gumbel top-k trick), as JAX does.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import dtypes, lax
from jaxle_core.avals import canonicalize_shape
from jaxle_random.distributions import gumbel
from jaxle_random.keys import typed_key
from jaxle_random.layouts import laid_out, out_layout
from jaxle_random.samplers import check_shape, randint, refuse_non_arrays, uniform
from jaxle_random.shuffles import permutation

__all__ = ["categorical", "choice"]


def choice(key: Any, a: Any, shape: tuple[int, ...] | int = (), replace: bool = True, p: Any = None,
           axis: int = 0, mode: str | None = None) -> Any:
    """Elements of ``range(a)`` (integer ``a``) or slices of ``a`` along ``axis``, picked at random."""
    key = typed_key(key, "choice")
    if not isinstance(shape, Sequence):
        raise TypeError(f"shape argument of jax.random.choice must be a sequence, got {shape}")
    refuse_non_arrays("arraylike", "choice", a)
    if p is not None:
        refuse_non_arrays("arraylike", "choice", p)
    if isinstance(a, str):
        jnp.asarray(a)  # JAX converts the population first: a string has no JAX dtype
    scalar_population = np.ndim(a) == 0
    if scalar_population:
        n_inputs = int(a)
    else:
        a = jnp.asarray(a)
        if not -a.ndim <= axis < a.ndim:
            raise ValueError(f"axis {axis} is out of bounds for array of dimension {a.ndim}")
        axis = axis % a.ndim
        n_inputs = a.shape[axis]
    n_draws = math.prod(shape)  # of the shape as given, as JAX's (a string is refused here)
    shape = canonicalize_shape(shape)
    if n_draws == 0:
        return jnp.zeros(shape, dtypes.default_int_dtype() if scalar_population else a.dtype)
    if n_inputs <= 0:
        raise ValueError("a must be greater than 0 unless no samples are taken")
    if not replace and n_draws > n_inputs:
        raise ValueError(f"Cannot take a larger sample (size {n_draws}) than population (size {n_inputs}) when "
                         "'replace=False'")
    if p is None and not replace:
        slices = (slice(None),) * axis + (slice(n_draws),)
        result = permutation(key, n_inputs if scalar_population else a, axis)[slices]
    else:
        if p is None:
            picks = randint(key, shape, 0, n_inputs)
        else:
            p = jnp.asarray(p)
            if p.shape != (n_inputs,):
                raise ValueError(f"p must be None or a 1D vector with the same size as a.shape[axis]. p has shape "
                                 f"{p.shape} and a.shape[axis] is {n_inputs}.")
            if replace:
                cumulative = jnp.cumsum(p)
                total = cumulative[-1]
                targets = total * (1 - uniform(key, shape, cumulative.dtype))
                picks = jnp.searchsorted(cumulative, targets).astype(dtypes.default_int_dtype())
            else:
                perturbed = gumbel(key, (n_inputs,), p.dtype, mode) + jnp.log(p)
                picks = lax.top_k(perturbed, n_draws)[1].astype(dtypes.default_int_dtype())
        result = picks if scalar_population else jnp.take(a, picks, axis)
    # as JAX's, reshaped last (a draw of no shape is reshaped even so)
    return result.reshape(shape if scalar_population else a.shape[:axis] + shape + a.shape[axis + 1:])


def categorical(key: Any, logits: Any, axis: int = -1, shape: tuple[int, ...] | int | None = None,
                replace: bool = True, mode: str | None = None, *, out_sharding: Any = None) -> Any:
    """Category indices along ``axis`` drawn with probabilities ``softmax(logits)``: the argmax (top-k without
    replacement) of Gumbel-perturbed logits. ``shape`` is the sample shape; it ends in the logits' batch shape."""
    refuse_non_arrays("arraylike", "categorical", logits)
    key = typed_key(key, "categorical")
    layout = out_layout(out_sharding, "categorical")
    logits = jnp.asarray(logits)
    batch_shape = tuple(np.delete(logits.shape, axis))  # NumPy's IndexError for an axis out of range, as JAX's
    if axis >= 0:
        axis -= logits.ndim
    if shape is None:
        shape = batch_shape
    else:
        shape = canonicalize_shape(shape)
        check_shape("categorical", shape, batch_shape)
    return laid_out(layout, lambda k, logits: _categorical(k, logits, axis, shape, batch_shape, replace, mode), key,
                    logits)


def _categorical(key: Any, logits: Any, axis: int, shape: tuple[int, ...], batch_shape: tuple[int, ...],
                 replace: bool, mode: str | None) -> Any:
    prefix = shape[:len(shape) - len(batch_shape)]
    noise_shape = list(shape[len(shape) - len(batch_shape):])
    noise_shape.insert(axis % logits.ndim, logits.shape[axis])
    if replace:
        noise = gumbel(key, (*prefix, *noise_shape), logits.dtype, mode)
        return jnp.argmax(noise + lax.expand_dims(logits, tuple(range(len(prefix)))), axis=axis)
    n_draws = math.prod(prefix)
    if n_draws > logits.shape[axis]:
        raise ValueError(f"Number of samples without replacement ({n_draws}) cannot exceed number of categories "
                         f"({logits.shape[axis]}).")
    perturbed = gumbel(key, tuple(noise_shape), logits.dtype, mode) + logits
    picks = lax.top_k(perturbed, n_draws, axis=axis)[1]
    return jnp.moveaxis(picks, axis, 0).reshape(shape)
