"""``shard_map`` manual over some mesh axes, some of the others Explicit, refuses what JAX 0.10.2 refuses (blocks
their types no longer divide, eager bodies with unchecked types) with its errors, and runs the rest with its values,
layouts, jaxprs and lowered text (golden/make_partial_manual_golden.py)."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_partial_manual_golden")
