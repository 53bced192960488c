"""Special functions: error functions, gamma family, Bessel functions."""

from __future__ import annotations

__all__: list[str] = []
