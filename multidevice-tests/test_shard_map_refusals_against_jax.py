"""``shard_map`` over a mesh of Explicit axes refuses what JAX 0.10.2 refuses (``in_specs`` other than the
arguments' types; eager gradients of values typed over the mesh outside ``set_mesh``) with its errors, and
accepts the rest with its values (golden/make_shard_map_refusals_golden.py)."""

import numpy as np
from conftest import golden_cases_test

import jaxle

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_shard_map_refusals_golden")


def test_resharded_argument_is_accepted():
    """The remedy the error names: resharding the argument to the spec first."""
    mesh = GEN._mesh(jaxle)
    x = GEN._put(jaxle, mesh, "x")
    moved = jaxle.reshard(x, jaxle.sharding.NamedSharding(mesh, GEN._p(jaxle, "y")))
    np.testing.assert_array_equal(np.asarray(GEN._double(jaxle, GEN._p(jaxle, "y"))(moved)), GEN.X * 2)
