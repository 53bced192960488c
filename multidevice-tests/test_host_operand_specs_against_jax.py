"""The ``jax.numpy`` functions called eagerly on NumPy operands report their results' shardings as JAX 0.10.2's
(golden/make_host_operand_specs_golden.py): under ``set_mesh`` of a mesh of Explicit axes and of one of Auto axes,
``P()`` where JAX's function hands its host operands to a computation as they are and one entry per dimension
where it makes arrays of them first; without a mesh, uncommitted on the default device."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_host_operand_specs_golden")
