"""``jax.scipy.linalg``: jaxle-numpy's ``scipy.linalg``, with jaxle-random registered as the source of
``eigh_tridiagonal``'s random start vectors (jaxle-numpy cannot depend on jaxle-random)."""

import jaxle_random
from jaxle_numpy.scipy.linalg import *  # noqa: F403
from jaxle_numpy.scipy.linalg import tridiagonal

tridiagonal.register_random(jaxle_random.key, lambda key, shape, dtype: jaxle_random.normal(key, shape, dtype=dtype))
