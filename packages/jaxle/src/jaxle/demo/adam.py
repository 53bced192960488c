"""An optax-style Adam optimizer written against JAX's public API.

``adam(jax, learning_rate)`` returns an ``Optimizer`` whose ``init(params)`` builds the state and whose
``update(grads, state)`` returns the parameter updates and the next state; ``apply_updates`` adds the updates
to the parameters. The ``jax`` module is a parameter so the same code runs on jaxle and on JAX.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any, NamedTuple

__all__ = ["AdamState", "Optimizer", "adam", "apply_updates"]


class AdamState(NamedTuple):
    """Step count and the first and second moment estimates (pytrees shaped like the parameters)."""

    count: Any
    mu: Any
    nu: Any


class Optimizer(NamedTuple):
    """A gradient transformation: ``init(params) -> state`` and ``update(grads, state) -> (updates, state)``."""

    init: Callable[[Any], AdamState]
    update: Callable[[Any, AdamState], tuple[Any, AdamState]]


def adam(jax: ModuleType, learning_rate: float, b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8) -> Optimizer:
    """Adam (Kingma & Ba) with bias-corrected moments; updates already carry the minus sign and the step size."""
    jnp = jax.numpy
    tree_map = jax.tree_util.tree_map

    def init(params: Any) -> AdamState:
        zeros = tree_map(jnp.zeros_like, params)
        return AdamState(count=jnp.zeros([], jnp.int32), mu=zeros, nu=zeros)

    def update(grads: Any, state: AdamState) -> tuple[Any, AdamState]:
        count = state.count + 1
        mu = tree_map(lambda m, g: b1 * m + (1 - b1) * g, state.mu, grads)
        nu = tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, state.nu, grads)
        # The moments start at zero, so early estimates are biased towards zero; dividing by 1 - b**t undoes it.
        mu_correction = 1 - b1 ** count
        nu_correction = 1 - b2 ** count
        updates = tree_map(
            lambda m, v: -learning_rate * (m / mu_correction) / (jnp.sqrt(v / nu_correction) + eps), mu, nu)
        return updates, AdamState(count=count, mu=mu, nu=nu)

    return Optimizer(init=init, update=update)


def apply_updates(jax: ModuleType, params: Any, updates: Any) -> Any:
    """``params + updates``, leaf by leaf."""
    return jax.tree_util.tree_map(lambda p, u: p + u, params, updates)
