"""Shared by the derivative tests: float64 everywhere, central differences, and the check of a jvp against them."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import GOLDEN_DIR

import jaxle_tree as tree
from jaxle_core.ad import grad, jvp
from jaxle_core.config import enable_x64


@pytest.fixture(autouse=True)
def x64_everywhere():
    """Every test of a module that imports this fixture runs with 64-bit types."""
    with enable_x64(True):
        yield


def finite_difference(fun, primals, tangents, eps=1e-6):
    """Central difference of ``fun`` (pytree outputs too) along ``tangents`` (float64)."""
    plus = fun(*[p + eps * t for p, t in zip(primals, tangents)])
    minus = fun(*[p - eps * t for p, t in zip(primals, tangents)])
    return tree.tree_map(lambda a, b: (np.asarray(a) - np.asarray(b)) / (2 * eps), plus, minus)


def gradient_by_differences(fun, args):
    """Each argument's gradient of the scalar ``fun``, one central difference per entry."""
    grads = []
    for i, arg in enumerate(args):
        grad = np.zeros(arg.shape)
        for index in np.ndindex(arg.shape):
            tangents = [np.zeros(a.shape) for a in args]
            tangents[i][index] = 1.0
            grad[index] = finite_difference(fun, list(args), tangents)
        grads.append(grad)
    return grads


def assert_gradients_are_differences(fun, args, differentiated=None, rtol=1e-7, atol=1e-9) -> None:
    """``grad`` of ``differentiated`` (``fun`` itself by default: else, say, ``fun`` checkpointed) with respect to
    each of ``args`` equals the central differences of ``fun``, in float64."""
    with enable_x64(True):
        grads = grad(fun if differentiated is None else differentiated, argnums=tuple(range(len(args))))(*args)
        for actual, expected in zip(grads, gradient_by_differences(fun, args), strict=True):
            np.testing.assert_allclose(np.asarray(actual), expected, rtol=rtol, atol=atol)


def assert_record_matches(actual: dict, expected: dict, rtol: float = 2e-5, atol: float = 1e-6) -> None:
    """A derivative's record (``{"jaxpr": text, "values": lists}``) against JAX 0.10.2's: the same jaxpr text, the
    same number of values, each close."""
    assert actual["jaxpr"] == expected["jaxpr"]
    assert len(actual["values"]) == len(expected["values"])
    for a, e in zip(actual["values"], expected["values"]):
        np.testing.assert_allclose(a, e, rtol=rtol, atol=atol)


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


def assert_jaxprs_match_golden(golden_file: str, render) -> None:
    """The jaxprs ``render("jaxle_core")`` prints (64-bit types off) equal JAX 0.10.2's in ``golden/golden_file``."""
    with open(GOLDEN_DIR / golden_file) as f:
        golden = json.load(f)
    with enable_x64(False):
        ours = render("jaxle_core")
    assert set(ours) == set(golden)
    for name, text in golden.items():
        assert ours[name] == text, name
