"""NumPy indexing of arrays and tracers, the `.at[]` updates and the take/put family."""

from __future__ import annotations

__all__: list[str] = []
