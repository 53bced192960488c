"""``jax.nn``: activation functions, softmax and its relatives, ``one_hot``, attention and (in
``jaxle.nn.initializers``) parameter initializers, over ``jaxle.numpy`` and ``jaxle.random``."""

from jaxle.nn import initializers  # noqa: F401
from jaxle.nn.activations import *  # noqa: F403
from jaxle.nn.attention import dot_product_attention  # noqa: F401
from jaxle.nn.normalization import *  # noqa: F403
from jaxle.nn.one_hot import one_hot  # noqa: F401
from jaxle.nn.scaled_dot_general import scaled_dot_general  # noqa: F401
from jaxle.nn.scaled_matmul import get_scaled_dot_general_config, scaled_matmul  # noqa: F401
