"""``jax.random``: jaxle-random's namespace."""

from jaxle_random import *  # noqa: F403
