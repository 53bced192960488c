"""Eager slices of arrays and keys laid out over a mesh as JAX 0.10.2's (golden/make_eager_slices_golden.py): an
unstrided slice runs as a dynamic_slice, so over Auto axes its result is replicated (a strided one keeps the
layout), and over Explicit axes its types and errors are dynamic_slice's."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_eager_slices_golden")
