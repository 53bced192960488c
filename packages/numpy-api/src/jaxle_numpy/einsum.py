"""einsum and einsum_path, contraction order by opt_einsum."""

from __future__ import annotations

__all__: list[str] = []
