"""Polynomials: polyval, polyadd/sub/mul/div, polyder, polyint, poly and friends."""

from __future__ import annotations

__all__: list[str] = []
