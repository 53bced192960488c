"""Windowed reductions (reduce_window) and the pooling gradients."""

from __future__ import annotations

__all__: list[str] = []
