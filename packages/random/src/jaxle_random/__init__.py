"""jaxle-random: ``jax.random`` for jaxle, on the counter-based threefry2x32 generator.

The package's public names (``__all__``) are those of JAX 0.10.2's ``jax.random``; the generator's own pieces (the
``threefry2x32`` primitive, the implementations, the key primitives) live in the submodules.
"""

__version__ = "0.1.0"

from jaxle_random import ball as _ball  # noqa: E402
from jaxle_random import binomial as _binomial  # noqa: E402
from jaxle_random import choices as _choices  # noqa: E402
from jaxle_random import distributions as _distributions  # noqa: E402
from jaxle_random import gamma as _gamma  # noqa: E402
from jaxle_random import key_reuse as _key_reuse  # noqa: E402, F401 - installs jax_debug_key_reuse's checker
from jaxle_random import keys as _keys  # noqa: E402
from jaxle_random import matrix_samplers as _matrix_samplers  # noqa: E402
from jaxle_random import multinomial as _multinomial  # noqa: E402
from jaxle_random import poisson as _poisson  # noqa: E402
from jaxle_random import rbg as _rbg  # noqa: E402, F401 - registers the rbg and unsafe_rbg implementations
from jaxle_random import samplers as _samplers  # noqa: E402
from jaxle_random import shuffles as _shuffles  # noqa: E402
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

__all__ = sorted(name for module in (_ball, _binomial, _choices, _distributions, _gamma, _keys, _matrix_samplers,
                                     _multinomial, _poisson, _samplers, _shuffles) for name in module.__all__)
