"""``jax.scipy.cluster``: jaxle-numpy's vector quantization."""

from jaxle.scipy.cluster import vq  # noqa: F401
