"""Eager control flow on XLA: bodies re-traced on every call reuse one compiled executable when they are equal,
and only then."""

import numpy as np

import jaxle_xla  # noqa: F401  (installs the XLA backend)
from jaxle_core import lax
from jaxle_xla.executable import Executable


def test_equal_bodies_compile_once():
    xs = np.arange(10, dtype=np.float32)
    lax.scan(lambda c, x: (c * 0.5 + x, c), np.float32(0), xs)
    before = Executable.compile_count
    for _ in range(3):
        carry, ys = lax.scan(lambda c, x: (c * 0.5 + x, c), np.float32(0), xs)
        total = lax.fori_loop(1, 11, lambda i, s: s + i, 0)
        picked = lax.cond(np.float32(1) > 0, lambda v: v + 1, lambda v: v - 1, np.float32(2))
    assert Executable.compile_count - before <= 3  # the first fori_loop and cond of the loop compile
    expected = 0.0
    for x in xs:
        expected = expected * 0.5 + x
    np.testing.assert_allclose(float(carry), expected, rtol=1e-6)
    assert int(total) == 55 and float(picked) == 3.0


def test_different_bodies_or_constants_do_not_share_executables():
    a, b = np.ones(3, np.float32), np.full(3, 2.0, np.float32)
    xs = np.arange(3, dtype=np.float32)
    out_a = lax.scan(lambda c, x: (c + a * x, None), np.zeros(3, np.float32), xs)[0]
    out_b = lax.scan(lambda c, x: (c + b * x, None), np.zeros(3, np.float32), xs)[0]
    np.testing.assert_array_equal(np.asarray(out_a), a * 3)
    np.testing.assert_array_equal(np.asarray(out_b), b * 3)
    plus, minus = (lax.cond(True, lambda v, k=k: v + k, lambda v: v, np.float32(1)) for k in (1.0, -1.0))
    assert (float(plus), float(minus)) == (2.0, 0.0)
    weak = lax.cond(True, lambda: 1.0, lambda: 2.0)
    strong = lax.cond(True, lambda: np.float32(1.0), lambda: np.float32(2.0))
    assert weak.weak_type and not strong.weak_type
