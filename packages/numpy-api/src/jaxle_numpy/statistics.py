"""Statistics over data: average, cov, corrcoef, histograms, bincount, digitize, diff, gradient, interp."""

from __future__ import annotations

__all__: list[str] = []
