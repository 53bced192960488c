"""Batching rule of ``fft``: the transform acts on the minor dimensions, so the batch dimension moves to the front
and the jitted ``lax.fft`` runs on the batch, as JAX 0.10.2 does."""

from __future__ import annotations

from jaxle_core.batching.trace import batching_rules, move_dim
from jaxle_core.lax.fft import fft, fft_p


def _fft_rule(vals, dims, *, fft_type, fft_lengths):
    (x,), (bdim,) = vals, dims
    return fft(move_dim(x, bdim, 0), fft_type, fft_lengths), 0


batching_rules[fft_p] = _fft_rule
