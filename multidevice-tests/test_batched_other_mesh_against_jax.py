"""Under ``set_mesh`` of a mesh of Explicit axes, ``vmap`` (eager, jitted, staged) and ``lax.map`` of the functions
that refuse a value typed over a mesh of Auto axes (``*_like``, ``imag``, ``argsort``, ``sort``) refuse it as JAX
0.10.2's do (golden/make_batched_other_mesh_golden.py): a slice of ``lax.map``'s operand keeps its type's mesh, and
a batched sort inside a jitted function is compiled under the mesh it was traced under, whose comparison refuses its
keys."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_batched_other_mesh_golden")


def test_golden_covers_every_case():
    assert sorted(GOLDEN) == sorted(GEN.CASES)

