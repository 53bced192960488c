"""``with_sharding_constraint`` and ``reshard`` place values as JAX 0.10.2 does on eight CPU devices
(golden/make_constraint_placement_golden.py): constraints to devices outside the mesh set by ``set_mesh`` are
refused with JAX's errors (eagerly, under ``jit`` naming the line that staged them, and evaluated by ``grad`` and
``vmap``), an eager PartitionSpec over a mesh of Auto axes needs a value laid out over a mesh, results report
their sharding as the constraint wrote it, and a reshard naming no axis of a mesh of Auto axes leaves the layout
as it is."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_constraint_placement_golden")
