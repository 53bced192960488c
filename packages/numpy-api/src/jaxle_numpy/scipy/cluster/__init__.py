"""``jax.scipy.cluster``: vector quantization (``vq``)."""

from jaxle_numpy.scipy.cluster import vq

__all__ = ["vq"]
