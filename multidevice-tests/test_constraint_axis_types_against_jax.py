"""``jax.lax.with_sharding_constraint`` treats the axis types of its sharding's mesh and of the mesh set by
``jax.set_mesh`` as JAX 0.10.2 does (golden/make_constraint_axis_types_golden.py): Explicit axes are refused with
JAX's ValueError except under a mesh of Explicit axes only, where the constraint asserts the type."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_constraint_axis_types_golden")
