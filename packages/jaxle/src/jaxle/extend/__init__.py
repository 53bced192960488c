"""``jax.extend``: the surfaces libraries build on: ``core`` (the jaxpr IR and ``Primitive``), ``linear_util``
(wrapped functions), ``backend`` (the XLA clients) and ``source_info_util`` (where equations were staged)."""

from jaxle.extend import backend, core, linear_util, random, sharding, source_info_util

__all__ = ["backend", "core", "linear_util", "random", "sharding", "source_info_util"]
