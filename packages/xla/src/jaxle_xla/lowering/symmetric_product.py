"""Lowering of ``symmetric_product``: a product at the highest precision, scaled and added as JAX does."""

from __future__ import annotations

import numpy as np

from jaxle_core import lax
from jaxle_core.lax.dot import Precision
from jaxle_core.lax.symmetric_product import symmetric_product_p
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering


def _symmetric_product(a, c, alpha: float, beta: float):
    ndim = a.ndim
    batch = tuple(range(ndim - 2))
    a_t = lax.transpose(a, (*batch, ndim - 1, ndim - 2))
    product = lax.dot_general(a, a_t, (((ndim - 1,), (ndim - 2,)), (batch, batch)), precision=Precision.HIGHEST)
    dtype = c.dtype
    return lax.add(lax.mul(np.array(alpha, dtype)[()], product), lax.mul(np.array(beta, dtype)[()], c))


@register_lowering(symmetric_product_p)
def _symmetric_product_lowering(ctx: LoweringContext, a: Value, c: Value, *, alpha: float, beta: float) -> Value:
    return ctx.lower_fun(lambda x, y: _symmetric_product(x, y, alpha, beta), a, c)[0]
