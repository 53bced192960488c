"""Write special_lowering_golden.json: the lowered text (``jit(f).lower(*args).as_text()``) and the exact bits of
the special functions that are lowered as staged series, continued fractions and Chebyshev sums, recorded from the
module named on the command line:

    /work/jaxpeer/bin/python packages/xla/tests/golden/make_special_lowering_golden.py jax

Each case runs in float32, float64 (64-bit types enabled), float16 and bfloat16, on arguments spanning each
function's branches and its edges (zeros, infinities, NaN, negative values). The test (test_lower_special.py)
replays the cases with jaxle_core on XLA and compares text and bits.
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys

import ml_dtypes
import numpy as np

HERE = pathlib.Path(__file__).parent
GOLDEN = HERE / "special_lowering_golden.json"
DTYPES = ["float32", "float64", "float16", "bfloat16"]


def arguments() -> tuple[np.ndarray, np.ndarray]:
    """Fixed float64 arguments: uniform draws over the functions' main ranges, then edges."""
    rng = np.random.default_rng(0)
    edges = [0.0, -0.0, 1e-30, 1e-5, 0.5, 1.0, 1.5, 7.9, 8.0, 8.1, 50.0, 100.0, 700.0, 1e4, 1e6, 1e20,
             np.inf, -np.inf, np.nan, -1.0, -3.5]
    base = np.concatenate([rng.uniform(0, 30, 40), rng.uniform(0, 2, 20), edges])
    return base, base[::-1].copy()


def _functions(lax) -> dict:
    return {
        "bessel_i0e": lambda a, x: lax.bessel_i0e(a - 5),
        "betainc": lambda a, x: lax.betainc(a, x[::-1], x / (a + x)),
        "igamma": lambda a, x: lax.igamma(a, x),
        "igammac": lambda a, x: lax.igammac(a, x),
        "igamma_grad_a": lambda a, x: lax.igamma_grad_a(a, x),
    }


NAMES = sorted(_functions(None))


def x64_flag(module):
    """The context manager enabling 64-bit types: ``jax.enable_x64`` or ``jaxle_core.config.enable_x64``."""
    return module.enable_x64 if hasattr(module, "enable_x64") else module.config.enable_x64


def run_case(module, name: str, dtype: str) -> dict:
    """The lowered text and the hex of the result's bytes of case ``name`` in ``dtype``."""
    with np.errstate(over="ignore"):  # the largest edges become infinities in the 16-bit floats
        a, x = (v.astype(np.dtype(getattr(ml_dtypes, dtype, dtype))) for v in arguments())
    with x64_flag(module)(dtype == "float64"):
        f = module.jit(_functions(module.lax)[name])
        return {"text": f.lower(a, x).as_text(), "bits": np.asarray(f(a, x)).tobytes().hex()}


def cases() -> list[tuple[str, str]]:
    """Every (function, dtype) pair."""
    return [(name, dtype) for name in NAMES for dtype in DTYPES]


def record(module) -> dict:
    return {f"{name}/{dtype}": run_case(module, name, dtype) for name, dtype in cases()}


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(record(importlib.import_module(sys.argv[1])), indent=1, sort_keys=True) + "\n")
