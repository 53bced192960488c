"""``jax.debug``: printing, logging and inspecting values from inside transformed functions."""

from jaxle_core.debugging import DebugEffect, OrderedDebugEffect, breakpoint, callback, log, print

__all__ = ["DebugEffect", "OrderedDebugEffect", "breakpoint", "callback", "log", "print"]
