"""jaxle-numpy: ``jax.numpy`` over jaxle-core (JAX's dtype rules, indexing, ``.at[]`` and the Array's methods)."""

__version__ = "0.1.0"

# array_methods and operators install the Array's NumPy API; fft and linalg are submodules (not star-imported).
from jaxle_numpy import array_methods, fft, linalg, operators  # noqa: E402, F401
from jaxle_numpy.array_io import *  # noqa: E402, F403
from jaxle_numpy.creation import *  # noqa: E402, F403
from jaxle_numpy.cumulative import *  # noqa: E402, F403
from jaxle_numpy.einsum import *  # noqa: E402, F403
from jaxle_numpy.grids import *  # noqa: E402, F403
from jaxle_numpy.indexing import *  # noqa: E402, F403
from jaxle_numpy.manipulation import *  # noqa: E402, F403
from jaxle_numpy.matrices import *  # noqa: E402, F403
from jaxle_numpy.polynomial import *  # noqa: E402, F403
from jaxle_numpy.polynomial_fits import *  # noqa: E402, F403
from jaxle_numpy.products import *  # noqa: E402, F403
from jaxle_numpy.quantiles import *  # noqa: E402, F403
from jaxle_numpy.ranges import *  # noqa: E402, F403
from jaxle_numpy.reductions import *  # noqa: E402, F403
from jaxle_numpy.scalar_types import *  # noqa: E402, F403
from jaxle_numpy.selection import *  # noqa: E402, F403
from jaxle_numpy.setops import *  # noqa: E402, F403
from jaxle_numpy.signal import *  # noqa: E402, F403
from jaxle_numpy.sorting import *  # noqa: E402, F403
from jaxle_numpy.statistics import *  # noqa: E402, F403
from jaxle_numpy.ufuncs import *  # noqa: E402, F403
from jaxle_numpy.vectorize import *  # noqa: E402, F403
from jaxle_numpy.windows import *  # noqa: E402, F403
