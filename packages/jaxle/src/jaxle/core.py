"""``jax.core``: the tracing machinery's public types."""

from typing import Any

from jaxle_core.api import ensure_compile_time_eval
from jaxle_core.avals import AbstractValue, ShapedArray
from jaxle_core.core import Atom, Trace, Tracer, eval_jaxpr
from jaxle_core.shape_poly import max_dim, min_dim

__all__ = ["AbstractValue", "Atom", "ParamDict", "ShapedArray", "Trace", "Tracer", "Value", "ensure_compile_time_eval",
           "eval_context", "eval_jaxpr", "max_dim", "min_dim"]

# Within the block, operations on concrete values compute now (JAX's name for ensure_compile_time_eval's effect).
eval_context = ensure_compile_time_eval

# The annotations JAX's core module exports: an equation's params, and any value.
ParamDict = dict[str, Any]
Value = Any
