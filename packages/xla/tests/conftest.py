"""Shared helpers: run a function with XLA and with core's NumPy reference backend, and compare."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ml_dtypes
import numpy as np

import jaxle_core as jc
import jaxle_xla
from jaxle_core.backend import get_backend, use_backend

REFERENCE = get_backend("reference")
XLA = jaxle_xla.xla_backend

# Relative tolerances for comparing XLA's floating results with the reference's.
_RTOL = {np.dtype(np.float16): 2e-3, np.dtype(ml_dtypes.bfloat16): 2e-2, np.dtype(np.float32): 2e-6,
         np.dtype(np.float64): 1e-13, np.dtype(np.complex64): 2e-6, np.dtype(np.complex128): 1e-13}


def run_both(fun: Callable[..., Any], *args: Any) -> tuple[list[np.ndarray], list[np.ndarray], list[Any]]:
    """``fun`` staged to a jaxpr, then run compiled by XLA and by the reference; returns both and the out avals."""
    closed = jc.make_jaxpr(fun)(*args)
    flat = [np.asarray(a) for a in args]
    with use_backend("reference"):
        reference = REFERENCE.compile(closed, "f", (), True, None)(*flat)
    compiled = XLA.compile(closed, "f", (), True, None)(*flat)
    return [np.asarray(r) for r in reference], [np.asarray(c) for c in compiled], closed.out_avals


def assert_same(expected: np.ndarray, actual: np.ndarray, rtol: float | None = None, atol: float = 0.0) -> None:
    """Equal dtype and shape; exact for integers and booleans, ``rtol`` (dtype default) for floats; NaNs match."""
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    dtype = expected.dtype
    if dtype.kind in "biu" or dtype in (ml_dtypes.int4, ml_dtypes.uint4):
        np.testing.assert_array_equal(actual, expected)
        return
    tol = _RTOL.get(dtype, 0.13) if rtol is None else rtol  # float8 and the like: one ulp or so
    wide = np.complex128 if dtype.kind == "c" else np.float64
    np.testing.assert_allclose(actual.astype(wide), expected.astype(wide), rtol=tol, atol=atol, equal_nan=True)


def check_against_reference(fun: Callable[..., Any], *args: Any, rtol: float | None = None, atol: float = 0.0,
                            eager: bool = True) -> None:
    """XLA (jitted, and eagerly op by op when ``eager``) agrees with the NumPy reference on ``fun(*args)``."""
    reference, compiled, avals = run_both(fun, *args)
    for r, c, aval in zip(reference, compiled, avals):
        assert c.dtype == aval.dtype
        assert_same(r, c, rtol, atol)
    if eager:
        device_args = [jaxle_xla.device_put(np.asarray(a)) for a in args]
        outs = fun(*device_args)
        outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
        for r, out in zip(reference, outs):
            assert isinstance(out, jaxle_xla.XlaArray)
            assert_same(r, np.asarray(out), rtol, atol)


def random_values(rng: np.random.Generator, shape: Sequence[int], dtype: Any) -> np.ndarray:
    """Random test values of ``dtype``: full-range integers, signed floats of moderate size, random booleans."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
    if dtype.kind == "c":
        parts = rng.standard_normal((2, *shape)) * 3
        return (parts[0] + 1j * parts[1]).astype(dtype)
    return (rng.standard_normal(shape) * 3).astype(dtype)


# Special float values every float lowering is tried on.
FLOAT_EDGES = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.5, np.inf, -np.inf, np.nan, 1e-30, -1e30, 65504.0])
