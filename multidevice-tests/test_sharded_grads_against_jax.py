"""Derivatives under mesh types as JAX 0.10.2's (golden/make_sharded_grads_golden.py): a sampler given
``out_sharding`` is differentiable with respect to its parameters (its gradients JAX's, and those without
``out_sharding``); under a ``vmap`` over a dimension split over a mesh axis, the gradients of loops and conditionals
are computed (the cotangents' zeros laid out over the mesh); an eager ``checkpoint`` returns a constant result as
the constant, which a ``vmap`` broadcasts over no mesh."""

import importlib
import json

import numpy as np
import pytest

import jaxle

GEN = importlib.import_module("make_sharded_grads_golden")
GOLDEN = json.loads((GEN.HERE / "sharded_grads_golden.json").read_text())


def _assert_grads_match(got, expected):
    """Gradients alike in type and, up to float32 rounding, in value (an error alike in type and message)."""
    if isinstance(expected, str):
        assert got == expected
        return
    assert [t for t, _ in got] == [t for t, _ in expected]
    for (_, values), (_, wanted) in zip(got, expected):
        np.testing.assert_allclose(values, wanted, rtol=2e-6, atol=1e-6)


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    got = GEN.CASES[name](jaxle)
    if name.startswith("checkpoint_"):
        assert got == GOLDEN[name]
    else:
        _assert_grads_match(got, GOLDEN[name])


@pytest.mark.parametrize("name", sorted(GEN.SAMPLERS))
def test_a_sharded_draw_has_the_unsharded_gradient(name):
    for where in ("eager", "jit"):
        sharded = GEN.CASES[f"sampler_{name}_{where}"](jaxle)
        _assert_grads_match(sharded, GEN.CASES[f"sampler_{name}_{where}_unsharded"](jaxle))
