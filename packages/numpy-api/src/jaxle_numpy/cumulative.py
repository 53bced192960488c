"""Cumulative reductions: cumsum, cumprod, cumulative_sum/prod and their nan* forms."""

from __future__ import annotations

__all__: list[str] = []
