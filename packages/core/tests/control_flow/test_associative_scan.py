"""``lax.associative_scan``: results against NumPy cumulative operations and sequential folds (including a
non-commutative operator), pytrees, reverse and axis, gradients and vmap, errors and jaxprs against JAX 0.10.2."""

from __future__ import annotations

import functools
import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest

import jaxle_core as jc
from jaxle_core import lax
from jaxle_core.batching import vmap

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "golden"
sys.path.insert(0, os.fspath(GOLDEN_DIR))
from make_associative_scan_golden import render  # noqa: E402

f32 = np.float32
scan = lax.associative_scan


def close(a, b, rtol=1e-5):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=1e-6)


def matmul(a, b):
    """Batched 2x2 matrix products: operands of shape ``(n, 2, 2)``."""
    return lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,))))


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 13])
@pytest.mark.parametrize(("op", "reference"), [(lax.add, np.cumsum), (lax.mul, np.cumprod),
                                               (lax.max, np.maximum.accumulate), (lax.min, np.minimum.accumulate)])
def test_scans_match_numpy_cumulative_operations(n, op, reference):
    x = np.random.default_rng(n).uniform(0.5, 1.5, n).astype(f32)
    close(scan(op, x), reference(x))
    close(scan(op, x, reverse=True), reference(x[::-1])[::-1])


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_scans_along_any_axis(axis):
    x = np.random.default_rng(0).normal(size=(3, 4, 5)).astype(f32)
    close(scan(lax.add, x, axis=axis), np.cumsum(x, axis=axis))
    close(scan(lax.max, x, axis=axis), np.maximum.accumulate(x, axis=axis))


def test_integer_and_boolean_scans():
    close(scan(lax.mul, np.arange(1, 7, dtype=np.int32)), np.cumprod(np.arange(1, 7)))
    flags = np.array([False, False, True, False, True])
    assert np.asarray(scan(lax.bitwise_or, flags)).tolist() == [False, False, True, True, True]


@pytest.mark.parametrize("n", [1, 4, 7])
def test_a_non_commutative_operator_folds_in_order(n):
    mats = np.random.default_rng(n).normal(size=(n, 2, 2)).astype(f32)
    expected = list(itertools_accumulate(mats, lambda a, b: a @ b))
    close(scan(matmul, mats), np.stack(expected), rtol=1e-4)
    backwards = list(itertools_accumulate(mats[::-1], lambda a, b: a @ b))[::-1]  # [..., f(f(z, y), x), f(z, y), z]
    close(scan(matmul, mats, reverse=True), np.stack(backwards), rtol=1e-4)


def itertools_accumulate(items, fn):
    total = None
    for item in items:
        total = item if total is None else fn(total, item)
        yield total


def compose_affine(f, g):
    return f[0] * g[0], g[0] * f[1] + g[1]


def test_pytree_elements_compose_affine_maps():
    a = np.array([2.0, 0.5, -1.0, 3.0, 1.5], f32)
    b = np.array([1.0, -2.0, 0.5, 0.0, 4.0], f32)
    out_a, out_b = scan(compose_affine, (a, b))
    folds = list(itertools_accumulate(zip(a, b), lambda f, g: (f[0] * g[0], g[0] * f[1] + g[1])))
    close(out_a, [f[0] for f in folds])
    close(out_b, [f[1] for f in folds])
    out = scan(lambda u, v: {"s": u["s"] + v["s"], "m": lax.max(u["m"], v["m"])}, {"s": a, "m": b})
    close(out["s"], np.cumsum(a))
    close(out["m"], np.maximum.accumulate(b))


def test_empty_scans():
    assert np.asarray(scan(lax.add, np.ones((0,), f32))).shape == (0,)
    assert np.asarray(scan(lax.add, np.ones((3, 0), f32))).shape == (3, 0)


def test_grad_of_a_cumulative_product():
    x = np.array([1.5, 0.5, 2.0, -1.0, 3.0], f32)
    grad = jc.grad(lambda v: lax.reduce_sum(scan(lax.mul, v), (0,)))(x)
    prefix = np.cumprod(x)
    expected = [sum(prefix[k] / x[i] for k in range(i, len(x))) for i in range(len(x))]
    close(grad, expected, rtol=1e-4)
    reverse_grad = jc.grad(lambda v: lax.reduce_sum(scan(lax.add, v, reverse=True), (0,)))(x)
    close(reverse_grad, np.arange(1, 6))


def test_vmap_of_a_scan():
    x = np.random.default_rng(1).normal(size=(4, 6)).astype(f32)
    close(vmap(functools.partial(scan, lax.add))(x), np.cumsum(x, axis=1))
    close(vmap(functools.partial(scan, lax.add), in_axes=1)(x), np.cumsum(x, axis=0).T)
    mats = np.random.default_rng(2).normal(size=(3, 5, 2, 2)).astype(f32)
    expected = np.stack([np.stack(list(itertools_accumulate(m, lambda a, b: a @ b))) for m in mats])
    close(vmap(functools.partial(scan, matmul))(mats), expected, rtol=1e-4)


def test_jit_of_a_scan_and_of_its_grad():
    x = np.random.default_rng(3).normal(size=(7,)).astype(f32)
    close(jc.jit(functools.partial(scan, lax.max))(x), np.maximum.accumulate(x))
    grad = jc.jit(jc.grad(lambda v: lax.reduce_sum(scan(lax.add, v), (0,))))(x)
    close(grad, np.arange(7, 0, -1))


def test_errors_match_jax():
    with pytest.raises(TypeError, match="fn argument should be callable"):
        scan(3, np.ones(3, f32))
    with pytest.raises(ValueError, match=r"must have the same first dimension. \(saw: \[\(3,\), \(4,\)\]\)"):
        scan(lax.add, (np.ones(3, f32), np.ones(4, f32)))
    with pytest.raises(ValueError, match="axis 2 is out of bounds for array of dimension 1"):
        scan(lax.add, np.ones(3, f32), axis=2)
    with pytest.raises(ValueError, match="axis 0 is out of bounds for array of dimension 0"):
        scan(lax.add, f32(1))


def test_jaxprs_match_jax():
    with open(GOLDEN_DIR / "associative_scan_golden.json") as f:
        golden = json.load(f)
    ours = render("jaxle_core")
    assert set(ours) == set(golden)
    for name, text in golden.items():
        assert ours[name] == text, name
