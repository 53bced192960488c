"""Sorts of arrays laid out over a mesh of Auto axes under ``set_mesh`` of a mesh of Explicit axes fail as JAX 0.10.2's
do when their comparison is compiled (golden/make_sorts_under_other_mesh_golden.py): each sort equation keeps the
mesh it was traced under, which its lowering checks the keys' mesh against (eagerly, jitted, nested, lowered after
leaving the mesh), while tracing alone and sorts inside ``auto_axes`` go through."""

import numpy as np
from conftest import golden_cases_test

import jaxle
import jaxle.numpy as jnp

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_sorts_under_other_mesh_golden")


def test_sorts_outside_the_explicit_mesh_as_numpy():
    """The same arrays sort (as NumPy does) once the mesh of Explicit axes is no longer set."""
    a = GEN._put(jaxle, GEN.ROWS)
    np.testing.assert_array_equal(np.asarray(jnp.sort(a, axis=0)), np.sort(GEN.ROWS, axis=0))
    np.testing.assert_array_equal(np.asarray(jaxle.jit(jnp.argsort)(a)), np.argsort(GEN.ROWS, kind="stable"))
