"""JVP and transpose rules of ``fft``.

Every transform is linear, so its jvp is the same transform of the tangent. The (unconjugated) transpose of the
complex FFT and IFFT is the transform itself. RFFT and IRFFT keep only the non-negative frequencies of a Hermitian
spectrum, so their transposes weigh the frequencies whose mirror image was dropped twice: the transpose of RFFT is a
scaled IRFFT of the conjugated, reweighted cotangent, that of IRFFT the conjugate of a reweighted, scaled RFFT. The
equations (and the jitted ``_rfft_transpose``) are those JAX 0.10.2 emits.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_core.ad.rule_helpers import deflinear
from jaxle_core.ad.transpose import transpose_rules
from jaxle_core.avals import get_aval
from jaxle_core.jit import jit
from jaxle_core.lax.fft import FftType, fft, fft_p

deflinear(fft_p)


def _mirror_weights(like: Any, fft_lengths: tuple[int, ...]) -> Any:
    """Per-frequency weights of a half spectrum shaped like ``like``: 2 where the dropped negative frequency
    mirrors this one, 1 at zero frequency and (for even lengths) at the Nyquist frequency; broadcastable along the
    last axis of ``like``."""
    aval = get_aval(like)
    count = aval.shape[-1]

    def filled(value: int, shape: tuple[int, ...]) -> Any:
        return lax.broadcast_in_dim(np.array(value, aval.dtype)[()], shape, ())

    weights = lax.dynamic_update_slice(filled(2, (count,)), filled(1, (1,)), (0,))
    if fft_lengths[-1] % 2 == 0:
        weights = lax.dynamic_update_slice(weights, filled(1, (1,)), (count - 1,))
    if aval.ndim > 1:
        weights = lax.broadcast_in_dim(weights, (1,) * (aval.ndim - 1) + (count,), (aval.ndim - 1,))
    return weights


@functools.partial(jit, static_argnums=(1,))
def _rfft_transpose(ct: Any, fft_lengths: tuple[int, ...]) -> Any:
    weights = _mirror_weights(ct, fft_lengths)
    spectrum = lax.conj(ct) / weights
    return math.prod(fft_lengths) * fft(spectrum, FftType.IRFFT, fft_lengths)


def _irfft_transpose(ct: Any, fft_lengths: tuple[int, ...]) -> Any:
    spectrum = fft(ct, FftType.RFFT, fft_lengths)
    weights = _mirror_weights(spectrum, fft_lengths)
    return lax.conj((1 / math.prod(fft_lengths)) * weights * spectrum)


def _fft_transpose(ct: Any, x: Any, *, fft_type: FftType, fft_lengths: tuple[int, ...]) -> list[Any]:
    if fft_type == FftType.RFFT:
        return [_rfft_transpose(ct, fft_lengths)]
    if fft_type == FftType.IRFFT:
        return [_irfft_transpose(ct, fft_lengths)]
    return [fft(ct, fft_type, fft_lengths)]


transpose_rules[fft_p] = _fft_transpose
