"""``jax.typing``: annotations for functions that take arrays and dtypes."""

from __future__ import annotations

from typing import Any, Protocol, Union

import numpy as np

from jaxle_core.array import Array

__all__ = ["ArrayLike", "DTypeLike"]


class _HasDType(Protocol):
    @property
    def dtype(self) -> np.dtype: ...


# Anything jaxle converts to an array without copying its structure: arrays and scalars (not lists or tuples).
ArrayLike = Union[Array, np.ndarray, np.bool_, np.number, bool, int, float, complex]  # noqa: UP007  (a runtime alias)

# Anything that names a dtype: a string, a scalar type, a dtype, or an object with a dtype.
DTypeLike = Union[str, type[Any], np.dtype, _HasDType]  # noqa: UP007
