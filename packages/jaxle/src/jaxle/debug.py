"""``jax.debug``: printing, logging and inspecting values from inside transformed functions."""

from jaxle._src.sharding_visualizer import visualize_array_sharding, visualize_sharding
from jaxle_core.debugging import DebugEffect, OrderedDebugEffect, breakpoint, callback, log, print
from jaxle_core.inspect_sharding import inspect_array_sharding

__all__ = ["DebugEffect", "OrderedDebugEffect", "breakpoint", "callback", "inspect_array_sharding", "log", "print",
           "visualize_array_sharding", "visualize_sharding"]
