"""``vmap(..., spmd_axis_name=...)`` splits the mapped dimension along the named mesh axes in the shardings written
inside, as JAX 0.10.2's does (golden/make_spmd_axis_name_golden.py): a sharding constraint's batch dimension (left
open to XLA's partitioner without the name; JAX's ValueError where the spec names it already) and a nested jit's
in_shardings and out_shardings, in jaxprs, lowered text and the results' layouts."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_spmd_axis_name_golden")


def test_golden_covers_every_case():
    assert sorted(GOLDEN) == sorted(GEN.CASES)

