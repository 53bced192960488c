"""``jax.scipy.signal``: jaxle-numpy's ``scipy.signal``."""

from jaxle_numpy.scipy.signal import *  # noqa: F403
