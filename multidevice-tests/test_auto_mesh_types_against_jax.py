"""The types of arrays laid out over meshes of Auto axes name the mesh as JAX 0.10.2's do (``jax.typeof(x).sharding``
over the abstract mesh, no axis named), for arrays put there, the arguments a jitted function sees and the results
of jit, eager operations, pmap and shard_map, the values computed from them inside a trace, and the mesh as part of
the type's identity (golden/make_auto_mesh_types_golden.py)."""

import numpy as np
from conftest import golden_cases_test

import jaxle

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_auto_mesh_types_golden")


def test_one_device_arguments_get_results_over_no_mesh():
    """A jitted function traced for an argument over an Auto mesh is traced again for one-device arguments (the
    mesh is part of the type): their results are typed over no mesh."""
    double = jaxle.jit(lambda a: a * 2)
    over_mesh = double(GEN._put(jaxle, "x", "y"))
    on_one_device = double(GEN.GRID)
    assert not jaxle.typeof(over_mesh).sharding.mesh.empty
    assert jaxle.typeof(on_one_device).sharding.mesh.empty
    np.testing.assert_array_equal(np.asarray(on_one_device), np.asarray(over_mesh))
