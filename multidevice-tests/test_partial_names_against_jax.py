"""A jitted partial application (``jnp.linalg.lstsq`` is one, as in JAX) is named as JAX 0.10.2 names it in its
errors for arguments committed to different devices: by the partial's repr when called, directly or under
``grad`` (compared up to the memory addresses the repr holds), by the function's name when lowered and in jaxprs
(golden/make_partial_names_golden.py)."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_partial_names_golden")
