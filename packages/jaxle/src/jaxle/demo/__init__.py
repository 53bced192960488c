"""The main job: ``python -m jaxle.demo`` trains an MLP on scikit-learn's digits with ``import jaxle as jax``.

The training code (``training``, ``adam``, ``golden``) takes the ``jax`` module as a parameter and imports none of
jaxle's layers, so JAX 0.10.2 runs the very same code to produce the golden values the demo compares itself with.
The command line lives in ``cli``.
"""

from jaxle.demo.adam import *  # noqa: F403
from jaxle.demo.golden import *  # noqa: F403
from jaxle.demo.training import *  # noqa: F403
