"""``jnp.where``: elementwise selection between two arrays (staged as JAX's ``jit[name=_where]``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import jit, lax
from jaxle_core.avals import get_aval
from jaxle_core.lax import placement
from jaxle_core.sharding_types import broadcast_layout, spec_of
from jaxle_numpy import util

__all__ = ["where"]


def broadcast_together(fun_name: str, *args: Any) -> list[Any]:
    """``args`` broadcast to their common shape (only the operands whose shape differs get a ``broadcast_in_dim``);
    JAX's ValueError for shapes that do not broadcast. Over Explicit mesh axes, when some operand is broadcast, all
    are laid out as their common layout (a replicated operand of the full shape is resharded), as JAX's are."""
    shapes = [get_aval(a).shape for a in args]
    try:
        shape = lax.broadcast_shapes(*shapes)
    except ValueError:
        raise ValueError(f"Incompatible shapes for broadcasting: shapes={list(shapes)}") from None
    if all(s == shape for s in shapes):
        return list(args)
    layout = broadcast_layout(fun_name, [get_aval(a) for a in args], len(shape))
    return [_laid_out(a, layout) if s == shape else
            lax.broadcast_in_dim(a, shape, tuple(range(len(shape) - len(s), len(shape))), out_sharding=layout)
            for a, s in zip(args, shapes)]


def _laid_out(x: Any, layout: Any) -> Any:
    """``x`` resharded to ``layout`` when it is replicated and ``layout`` splits it."""
    if layout is None or any(spec_of(get_aval(x))) or not any(layout.spec):
        return x
    return placement.reshard(x, layout)


@jit
def _where(condition, x, y):
    """``x`` where ``condition`` holds (a non-boolean condition is compared with zero), else ``y``."""
    if get_aval(condition).dtype != np.bool_:
        condition = lax.ne(condition, util.zero_of(condition))
    x, y = util.promote_dtypes(x, y)
    if get_aval(condition).ndim == 0:  # select_n takes a scalar predicate as it is
        x, y = broadcast_together("where", x, y)
    else:
        condition, x, y = broadcast_together("where", condition, x, y)
    if 0 in get_aval(x).shape:  # nothing to select: JAX returns x
        return x
    return lax.select_n(condition, y, x)


def where(condition: Any, x: Any = None, y: Any = None, /, *, size: int | None = None,
          fill_value: Any = None) -> Any:
    """``x`` where ``condition`` is true and ``y`` elsewhere; with ``condition`` alone, ``jnp.nonzero(condition)``."""
    if x is None and y is None:
        from jaxle_numpy.selection import nonzero  # noqa: PLC0415 - indexing builds on the elementwise functions

        return nonzero(condition, size=size, fill_value=fill_value)
    util.check_arraylike("where", condition, x, y)
    return _where(condition, x, y)
