"""``jax.scipy.special``: SciPy's special functions, one module per family of functions."""

from jaxle_numpy.scipy.special.bessel import *  # noqa: F403
from jaxle_numpy.scipy.special.error_functions import *  # noqa: F403
from jaxle_numpy.scipy.special.exponential_integrals import *  # noqa: F403
from jaxle_numpy.scipy.special.faddeeva import *  # noqa: F403
from jaxle_numpy.scipy.special.gamma_functions import *  # noqa: F403
from jaxle_numpy.scipy.special.hypergeometric import *  # noqa: F403
from jaxle_numpy.scipy.special.log_sum_exp import *  # noqa: F403
from jaxle_numpy.scipy.special.logarithmic import *  # noqa: F403
from jaxle_numpy.scipy.special.spherical_harmonics import *  # noqa: F403
from jaxle_numpy.scipy.special.zeta_functions import *  # noqa: F403
