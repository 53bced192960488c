"""Eager ``vjp``'s pullback and ``linearize``'s jvp function hold JAX 0.10.2's leaves (golden/vjp_leaves_golden.json):
the primal inputs their derivative reads, then its residuals, each with JAX's dtype, shape and value."""

import pathlib
import sys

import pytest

import jaxle as jax

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))
sys.path.insert(0, str(pathlib.Path(__file__).parents[2] / "numpy-api" / "tests" / "golden"))

import jnp_golden  # noqa: E402 - found through the path set just above
import make_vjp_leaves_golden  # noqa: E402

GOLDEN = jnp_golden.load(str(pathlib.Path(__file__).parent / "golden" / "vjp_leaves_golden.json"))
MINE = make_vjp_leaves_golden.record(jax)


@pytest.mark.parametrize("name", sorted(GOLDEN))
@pytest.mark.parametrize("part", ["pullback_leaves", "cotangents", "jvp_function_leaves"])
def test_matches_jax(name, part):
    expected, actual = GOLDEN[name][part], MINE[name][part]
    assert [(a["dtype"], a["shape"]) for a in actual] == [(e["dtype"], e["shape"]) for e in expected]
    jnp_golden._core_golden.assert_matches({"eqns": [], "values": actual}, {"eqns": [], "values": expected})
