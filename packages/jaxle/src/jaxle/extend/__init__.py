"""``jax.extend``: the surfaces libraries build on: ``core`` (the jaxpr IR and ``Primitive``), ``linear_util``
(wrapped functions) and ``backend`` (the XLA clients)."""

from jaxle.extend import backend, core, linear_util

__all__ = ["backend", "core", "linear_util"]
