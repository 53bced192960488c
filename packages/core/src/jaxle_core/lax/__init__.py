"""``jaxle_core.lax``: the primitive operations (``jax.lax``).

Each module defines one family of primitives and lists its public functions
in ``__all__``; this package re-exports them all.
"""

from jaxle_core.lax import dimensions as _dimensions  # noqa: E402, F401  (symbolic dimensions as values)
from jaxle_core.lax import linalg  # noqa: E402, F401  (a namespace, as jax.lax.linalg; its names stay there)
from jaxle_core.lax import operators as _operators  # noqa: E402, F401  (installs the array operators)
from jaxle_core.lax import refs as _refs  # noqa: E402, F401  (references: jax.ref's names, not lax's)
from jaxle_core.lax.accuracy import *  # noqa: F403
from jaxle_core.lax.approx_top_k import *  # noqa: F403
from jaxle_core.lax.barriers import *  # noqa: F403
from jaxle_core.lax.composite import *  # noqa: F403
from jaxle_core.lax.control_flow.associative_scan import *  # noqa: F403
from jaxle_core.lax.control_flow.conditionals import *  # noqa: F403
from jaxle_core.lax.control_flow.scan import *  # noqa: F403
from jaxle_core.lax.control_flow.solves import *  # noqa: F403
from jaxle_core.lax.control_flow.while_loops import *  # noqa: F403
from jaxle_core.lax.convolution import *  # noqa: F403
from jaxle_core.lax.convolution_patches import *  # noqa: F403
from jaxle_core.lax.convolution_shapes import *  # noqa: F403
from jaxle_core.lax.creation import *  # noqa: F403
from jaxle_core.lax.cumulative import *  # noqa: F403
from jaxle_core.lax.dot import *  # noqa: F403
from jaxle_core.lax.dot_algorithm import *  # noqa: F403
from jaxle_core.lax.elementwise import *  # noqa: F403
from jaxle_core.lax.fft import *  # noqa: F403
from jaxle_core.lax.gamma_sample_grad import *  # noqa: F403
from jaxle_core.lax.identity import *  # noqa: F403
from jaxle_core.lax.parallel import *  # noqa: F403
from jaxle_core.lax.physical import *  # noqa: F403
from jaxle_core.lax.placement import *  # noqa: F403
from jaxle_core.lax.ragged_dot import *  # noqa: F403
from jaxle_core.lax.random_bits import *  # noqa: F403
from jaxle_core.lax.reductions import *  # noqa: F403
from jaxle_core.lax.scaled_dot import *  # noqa: F403
from jaxle_core.lax.slicing import *  # noqa: F403
from jaxle_core.lax.sorting import *  # noqa: F403
from jaxle_core.lax.special import *  # noqa: F403
from jaxle_core.lax.structural import *  # noqa: F403
from jaxle_core.lax.tokens import *  # noqa: F403
from jaxle_core.lax.windowed import *  # noqa: F403
