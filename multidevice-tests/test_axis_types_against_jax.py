"""``jax.sharding.auto_axes`` and ``explicit_axes`` on eight CPU devices lay out and compute as JAX 0.10.2's
(golden/make_axis_types_golden.py)."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_axis_types_golden")
