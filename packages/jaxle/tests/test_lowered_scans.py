"""Scans that unroll their steps lower to JAX 0.10.2's text, word for word (golden/lowered_scans_golden.json): the
steps of each trip called one after the other on static slices of a block of xs, the steps left over run after
the loop, no loop at all when every step is unrolled. The programs compute what a loop in NumPy does."""

import json
import pathlib
import sys

import numpy as np
import pytest

import jaxle as jax

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))

import make_lowered_scans_golden as gen  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "lowered_scans_golden.json").read_text())


def numpy_scan(step, carry, xs, reverse=False):
    """``lax.scan``'s meaning, one step at a time in NumPy."""
    n = len(xs[0]) if isinstance(xs, tuple) else len(xs)
    order = range(n - 1, -1, -1) if reverse else range(n)
    ys = {}
    for i in order:
        x = tuple(x[i] for x in xs) if isinstance(xs, tuple) else xs[i]
        carry, ys[i] = step(carry, x)
    stacked = [ys[i] for i in range(n)]
    if stacked and isinstance(stacked[0], tuple):
        return carry, tuple(np.stack(column) for column in zip(*stacked))
    return carry, np.stack(stacked)


def numpy_two(c, xs):
    (a, b), (x, y) = c, xs
    return (a + x, b * y), (a * y, np.sin(x).astype(np.float16))


def test_every_case_has_a_golden_record():
    assert GOLDEN.keys() == gen._cases(jax).keys()


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_lowered_text_is_jax(name):
    assert gen.lowered(jax, name) == GOLDEN[name]


@pytest.mark.parametrize("name", [n for n in sorted(GOLDEN) if n.startswith(("one_", "two_"))])
def test_values_are_numpy_loops(name):
    f, *args = gen._cases(jax)[name]
    step = gen.one if name.startswith("one_") else numpy_two
    carry = args[0] if name.startswith("two_") else np.float32(args[0])
    expected = numpy_scan(step, carry, args[1], reverse=name.endswith("_reversed"))
    got = jax.jit(f)(*args)
    for mine, theirs in zip(jax.tree.leaves(got), jax.tree.leaves(expected)):
        np.testing.assert_allclose(np.asarray(mine), theirs, rtol=1e-3 if theirs.dtype == np.float16 else 1e-6)
        assert np.asarray(mine).dtype == theirs.dtype


def test_fori_loop_and_consts_values():
    fori, x = gen._cases(jax)["fori_loop"][:2]
    expected = np.float32(x)
    for i in range(7):
        expected = expected * np.float32(2) + np.float32(i)
    assert jax.jit(fori)(x) == expected
    consts, w, rows = gen._cases(jax)["consts"]
    carry, ys = numpy_scan(lambda c, a: (c * w + a.sum(), a * w), w, rows)
    got_carry, got_ys = jax.jit(consts)(w, rows)
    np.testing.assert_allclose(got_carry, carry, rtol=1e-6)
    np.testing.assert_allclose(got_ys, ys, rtol=1e-6)


def test_grad_is_finite_differences():
    f = lambda c, xs: jax.lax.scan(lambda c, x: (jax.numpy.sin(c) * x, c), c, xs, unroll=2)[0]  # noqa: E731
    c, xs = np.float64(0.5), gen.XS.astype(np.float64) / 5
    with jax.enable_x64(True):
        eps = 1e-6
        numeric = (f(c + eps, xs) - f(c - eps, xs)) / (2 * eps)
        np.testing.assert_allclose(jax.jit(jax.grad(f))(c, xs), numeric, rtol=1e-6)
