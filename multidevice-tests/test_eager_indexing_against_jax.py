"""Indexing arrays laid out over several devices as JAX 0.10.2's (golden/make_eager_indexing_golden.py): eagerly, an
index taking part of a dimension gathers (the gather's layout over Auto axes, its errors over Explicit axes),
iterating over an array not held whole by every device gives rows put uncommitted on the default device, and an
array of partial sums (typed unreduced or reduced over mesh axes) refuses any gather or scatter with JAX's
``ValueError``."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_eager_indexing_golden")
