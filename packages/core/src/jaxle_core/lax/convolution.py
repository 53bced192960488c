"""Convolutions: conv_general_dilated and its dimension numbers."""

from __future__ import annotations

__all__: list[str] = []
