"""The NumPy methods and properties of arrays and tracers, installed through core's hook."""

from __future__ import annotations

from jaxle_core.lax.operators import install_array_methods
from jaxle_numpy import indexing

__all__: list[str] = []

install_array_methods({
    "__getitem__": indexing.getitem,
    "at": property(indexing.at),
})
