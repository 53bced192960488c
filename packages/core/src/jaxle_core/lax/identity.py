"""Primitives that return their operand unchanged: ``stop_gradient`` and ``copy``.

They differ from the identity only under transformations: differentiation
treats ``stop_gradient``'s output as a constant, and ``copy`` makes a new buffer.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import jaxle_tree as tree
from jaxle_core.array import Array
from jaxle_core.core import EvalTrace, Primitive, current_trace

__all__ = ["stop_gradient", "copy_p", "stop_gradient_p"]

stop_gradient_p = Primitive("stop_gradient")
stop_gradient_p.def_abstract_eval(lambda x: x)
stop_gradient_p.def_impl(lambda x: x)

copy_p = Primitive("copy")
copy_p.def_abstract_eval(lambda x: x)
copy_p.def_impl(lambda x: np.array(x, copy=True))


def stop_gradient(x: Any) -> Any:
    """``x`` (any pytree of arrays), with its gradient stopped: derivatives treat it as a constant."""
    return tree.tree_map(_stopped, x)


def _stopped(x: Any) -> Any:
    # outside transformations an array is its own result (as JAX's), other values are made arrays
    if isinstance(x, Array) and isinstance(current_trace(), EvalTrace):
        return x
    return stop_gradient_p.bind(x)
