"""Tensor contraction: dot_general and its helpers."""

from __future__ import annotations

__all__: list[str] = []
