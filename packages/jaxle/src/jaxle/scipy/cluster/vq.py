"""``jax.scipy.cluster.vq``: jaxle-numpy's ``scipy.cluster.vq``."""

from jaxle_numpy.scipy.cluster.vq import *  # noqa: F403
