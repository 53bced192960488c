"""A ``with_sharding_constraint`` splitting a jitted function's open argument, or an intermediate value, along a
dimension its mesh axes do not divide runs as JAX 0.10.2's (golden/make_uneven_constraints_golden.py): XLA's
partitioner pads the constrained value, the argument is read in the layout XLA chose (a GSPMDSharding where no
PartitionSpec names it), and only where another argument's layout names a mesh does JAX's IndivisibleError come
from naming the open one over it; ``in_shardings``/``out_shardings`` that do not divide an argument or result
raise JAX's IndivisibleError when the function is traced."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_uneven_constraints_golden")


def test_golden_covers_every_case():
    assert sorted(GOLDEN) == sorted(GEN.CASES)

