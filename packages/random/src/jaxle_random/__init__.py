"""jaxle-random: ``jax.random`` for jaxle, on the counter-based threefry2x32 generator."""

__version__ = "0.1.0"

from jaxle_random import rbg as _rbg  # noqa: E402, F401 - registers the rbg and unsafe_rbg implementations
from jaxle_random.ball import *  # noqa: E402, F403
from jaxle_random.binomial import *  # noqa: E402, F403
from jaxle_random.choices import *  # noqa: E402, F403
from jaxle_random.distributions import *  # noqa: E402, F403
from jaxle_random.gamma import *  # noqa: E402, F403
from jaxle_random.keys import *  # noqa: E402, F403
from jaxle_random.matrix_samplers import *  # noqa: E402, F403
from jaxle_random.multinomial import *  # noqa: E402, F403
from jaxle_random.poisson import *  # noqa: E402, F403
from jaxle_random.samplers import *  # noqa: E402, F403
from jaxle_random.shuffles import *  # noqa: E402, F403
from jaxle_random.threefry import *  # noqa: E402, F403
