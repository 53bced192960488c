"""Window functions: bartlett, blackman, hamming, hanning, kaiser."""

from __future__ import annotations

__all__: list[str] = []
