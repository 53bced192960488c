"""The NumPy methods and properties of arrays and tracers, installed through core's hook."""

from __future__ import annotations

__all__: list[str] = []
