"""``jax.core``: the tracing machinery's public types."""

from jaxle_core.api import ensure_compile_time_eval
from jaxle_core.avals import ShapedArray
from jaxle_core.core import Atom, Trace, Tracer, eval_jaxpr

__all__ = ["Atom", "ShapedArray", "Trace", "Tracer", "ensure_compile_time_eval", "eval_jaxpr"]
