"""Reductions: sum, prod, mean, var, std, min, max, arg*, all, any, quantiles and their nan* forms."""

from __future__ import annotations

__all__: list[str] = []
