"""``dim_as_value``: a symbolic dimension used as an integer value (``x.shape[0] * 2.0``, ``jnp.mean``'s count).

It has no operands: the equation's ``dim`` parameter is the expression, computed from the arguments' shapes when
the program runs. Eagerly (outside tracing) symbolic dimensions have no value, as in JAX.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import core, dtypes, shape_poly
from jaxle_core.avals import ShapedArray, aval_handlers
from jaxle_core.core import Primitive

__all__ = ["dim_as_value_p"]

dim_as_value_p = Primitive("dim_as_value")


def _dimension_aval(*_: Any) -> ShapedArray:
    return ShapedArray((), dtypes.canonicalize_dtype(np.int64), weak_type=True)


def _outside_export(**_: Any) -> Any:
    raise NotImplementedError("Evaluation rule for 'dim_as_value' is not implemented. It seems that you are using "
                              "shape polymorphism outside jax.export.")


dim_as_value_p.def_abstract_eval(lambda *, dim: _dimension_aval())
dim_as_value_p.def_impl(_outside_export)


def _stage(dim: shape_poly.DimExpr) -> Any:
    if isinstance(core.current_trace(), core.EvalTrace):
        _outside_export()
    return dim_as_value_p.bind(dim=dim)


# A dimension is a weakly typed integer scalar wherever values are expected; the staging trace binds
# ``dim_as_value`` for it when it becomes an operand (shape_poly calls back here for arithmetic with values).
aval_handlers[shape_poly.DimExpr] = _dimension_aval
shape_poly._dimension_as_value_rule.append(_stage)
