"""Shared by the jvp tests: float64 everywhere, central differences, and the check of a jvp against them."""

from __future__ import annotations

import numpy as np
import pytest

from jaxle_core.ad import jvp
from jaxle_core.config import enable_x64


@pytest.fixture(autouse=True)
def x64_everywhere():
    """Every test of a module that imports this fixture runs with 64-bit types."""
    with enable_x64(True):
        yield


def finite_difference(fun, primals, tangents, eps=1e-6):
    """Central difference of ``fun`` along ``tangents`` (float64)."""
    plus = fun(*[p + eps * t for p, t in zip(primals, tangents)])
    minus = fun(*[p - eps * t for p, t in zip(primals, tangents)])
    return (np.asarray(plus) - np.asarray(minus)) / (2 * eps)


def check_jvp(fun, primals, tangents=None, rtol=1e-6, atol=1e-8, rng=None):
    """The jvp's value is ``fun``'s and its tangent the central difference (random tangents from ``rng`` when
    none are given); returns the tangent."""
    if tangents is None:
        rng = np.random.default_rng(1) if rng is None else rng
        tangents = [rng.standard_normal(np.shape(p)) for p in primals]
    value, derivative = jvp(fun, tuple(primals), tuple(tangents))
    np.testing.assert_allclose(np.asarray(value), np.asarray(fun(*primals)), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(derivative), finite_difference(fun, primals, tangents),
                               rtol=rtol, atol=atol)
    return np.asarray(derivative)
