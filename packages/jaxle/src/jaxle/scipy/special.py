"""``jax.scipy.special``: jaxle-numpy's special functions."""

from jaxle_numpy.scipy.special import *  # noqa: F403
