"""``shard_map`` over a mesh of Explicit axes refuses what JAX 0.10.2 refuses (``in_specs`` other than the
arguments' types; eager gradients of values typed over the mesh outside ``set_mesh``) with its errors, and
accepts the rest with its values (golden/make_shard_map_refusals_golden.py)."""

import importlib
import json

import numpy as np
import pytest

import jaxle

GEN = importlib.import_module("make_shard_map_refusals_golden")
GOLDEN = json.loads((GEN.HERE / "shard_map_refusals_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert GEN.CASES[name](jaxle) == GOLDEN[name]


def test_resharded_argument_is_accepted():
    """The remedy the error names: resharding the argument to the spec first."""
    mesh = GEN._mesh(jaxle)
    x = GEN._put(jaxle, mesh, "x")
    moved = jaxle.reshard(x, jaxle.sharding.NamedSharding(mesh, GEN._p(jaxle, "y")))
    np.testing.assert_array_equal(np.asarray(GEN._double(jaxle, GEN._p(jaxle, "y"))(moved)), GEN.X * 2)
