"""``jax.scipy.special``: SciPy's special functions, one module per family of functions."""

from jaxle_numpy.scipy.special.log_sum_exp import *  # noqa: F403
