"""``jax.scipy.cluster.vq``: assigning observations to their nearest code."""

from __future__ import annotations

import operator
from typing import Any

import jaxle_numpy as jnp
from jaxle_core.avals import get_aval
from jaxle_core.batching import vmap
from jaxle_numpy.util import check_arraylike, promote_dtypes_inexact

__all__ = ["vq"]


def vq(obs: Any, code_book: Any, check_finite: bool = True) -> tuple[Any, Any]:
    """``(codes, distances)``: the index of the nearest row of ``code_book`` to each row of ``obs`` and the
    Euclidean distance to it."""
    del check_finite
    check_arraylike("scipy.cluster.vq.vq", obs, code_book)
    obs, code_book = promote_dtypes_inexact(jnp.asarray(obs), jnp.asarray(code_book))
    if get_aval(obs).ndim != get_aval(code_book).ndim:
        raise ValueError("Observation and code_book should have the same rank")
    if get_aval(obs).ndim == 1:
        obs, code_book = obs[..., None], code_book[..., None]
    if get_aval(obs).ndim != 2:
        raise ValueError("ndim different than 1 or 2 are not supported")
    distances = vmap(lambda row: jnp.linalg.norm(row[None] - code_book, axis=-1))(obs)
    codes = jnp.argmin(distances, axis=-1)
    return codes, vmap(operator.getitem)(distances, codes)
