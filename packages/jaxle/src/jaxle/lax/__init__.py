"""``jax.lax``: jaxle-core's lax namespace."""

from jaxle_core.lax import *  # noqa: F403
