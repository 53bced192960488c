"""Jitted functions under ``jax.set_mesh`` are partitioned over the mesh's devices as JAX 0.10.2's are, whatever
their arguments (golden/make_context_mesh_programs_golden.py): host values, arrays made elsewhere, scalars or none.
The lowered text (its partitions, meshes, the scalar arguments annotated over the empty mesh), the compiled input
shardings (XLA's own when no argument names a mesh) and output shardings, where the results lie and their types,
and JAX's error for an argument committed to one device."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_context_mesh_programs_golden")
