"""How accurately the unary math primitives (exp, log, sin, tanh, ...) must compute: their ``accuracy`` parameter is
None (XLA's default implementation), an ``AccuracyMode`` or a ``Tolerance``."""

from __future__ import annotations

import enum
from typing import Any

__all__ = ["AccuracyMode", "Tolerance"]


class AccuracyMode(enum.Enum):
    """Ask XLA for its most accurate implementation (``HIGHEST``) or its default one (``DEFAULT``)."""

    HIGHEST = 1
    DEFAULT = 2


class Tolerance:
    """The error an implementation may make: an absolute (``atol``) and relative (``rtol``) tolerance or a number of
    units in the last place (``ulps``). At least one must be set and none may be negative."""

    def __init__(self, atol: float = 0.0, rtol: float = 0.0, ulps: int = 0):
        if atol < 0.0 or rtol < 0.0 or ulps < 0.0:
            raise ValueError("Tolerances must be non-negative.")
        if atol == 0.0 and rtol == 0.0 and ulps == 0:
            raise ValueError("At least one of atol, rtol, or ulps must be set.")
        self.atol = atol
        self.rtol = rtol
        self.ulps = ulps


def check_accuracy(accuracy: Any) -> None:
    """Raise JAX's error for an ``accuracy`` that is none of None, an ``AccuracyMode`` or a ``Tolerance``."""
    if accuracy is not None and not isinstance(accuracy, (AccuracyMode, Tolerance)):
        raise NotImplementedError(f"Accuracy {accuracy} not supported")
