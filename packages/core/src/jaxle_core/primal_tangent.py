"""``jax.experimental.primal_tangent_dtype``: an extended dtype stored as one dtype whose tangents are another.

Values of ``primal_tangent_dtype(i8, f32)`` are held as int8 arrays (the physical representation every backend
computes with, ``jaxle_core.extended``), print as ``PrimalTangentDType{i8/f32}`` (or the name given), and are
differentiated with float32 tangents (``ad.jvp.tangent_dtype``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import dtypes

__all__ = ["PrimalTangentDType", "primal_tangent_dtype", "primal_tangent_dtype_scalar"]


class primal_tangent_dtype_scalar(dtypes.extended):  # noqa: N801 - JAX's name
    """The scalar type of every ``PrimalTangentDType``."""


class PrimalTangentDType(dtypes.ExtendedDType):
    """Values stored as ``primal_dtype`` whose tangents (and cotangents) have ``tangent_dtype``."""

    type = primal_tangent_dtype_scalar
    physical_shape = ()

    def __init__(self, primal_dtype: Any, tangent_dtype: Any, name: str | None = None):
        self.primal_dtype = np.dtype(primal_dtype)
        self.tangent_dtype = np.dtype(tangent_dtype)
        self.physical_dtype = self.primal_dtype
        self.name = name if name is not None else (
            f"PrimalTangentDType{{{dtypes.short_dtype_name(self.primal_dtype)}/"
            f"{dtypes.short_dtype_name(self.tangent_dtype)}}}")

    def wrap(self, physical: Any) -> Any:
        from jaxle_core.avals import get_aval  # local: avals imports dtypes, which this module extends
        from jaxle_core.extended import ExtendedArray

        return ExtendedArray(get_aval(physical).update(dtype=self, weak_type=False), physical)

    def __eq__(self, other: object) -> bool:
        return (type(other) is PrimalTangentDType
                and (self.primal_dtype, self.tangent_dtype, self.name)
                == (other.primal_dtype, other.tangent_dtype, other.name))

    def __hash__(self) -> int:
        return hash((PrimalTangentDType, self.primal_dtype, self.tangent_dtype, self.name))


def primal_tangent_dtype(primal_dtype: Any, tangent_dtype: Any, name: str | None = None) -> PrimalTangentDType:
    """An extended dtype whose values are stored as ``primal_dtype`` and whose tangents are ``tangent_dtype``."""
    return PrimalTangentDType(primal_dtype, tangent_dtype, name)
