"""Products: dot, vdot, vecdot, inner, outer, matmul, matvec, vecmat, tensordot, kron, trace, cross."""

from __future__ import annotations

__all__: list[str] = []
