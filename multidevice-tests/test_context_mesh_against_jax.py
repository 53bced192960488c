"""Under ``jax.set_mesh`` of a mesh of Auto axes, eager operations and jitted functions run over the mesh's devices
and replicate their results there, and an argument committed to one device is refused, as in JAX 0.10.2
(golden/make_context_mesh_golden.py)."""

import numpy as np
from conftest import golden_cases_test

import jaxle

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_context_mesh_golden")


def test_the_same_function_outside_the_mesh_runs_on_one_device():
    double = jaxle.jit(lambda a: a * 2)
    auto = jaxle.sharding.AxisType.Auto
    with jaxle.sharding.set_mesh(jaxle.make_mesh((2, 4), ("x", "y"), axis_types=(auto, auto))):
        inside = double(GEN.X)
    outside = double(GEN.X)
    assert len(inside.sharding.device_set) == 8 and len(outside.sharding.device_set) == 1
    np.testing.assert_array_equal(np.asarray(inside), np.asarray(outside))
