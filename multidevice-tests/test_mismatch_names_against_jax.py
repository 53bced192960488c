"""Under ``set_mesh``, the refusal of an argument on other devices names it as JAX 0.10.2's does: by the parameter
of the jitted function that received it (``jnp`` functions included, with JAX's names for them: ``_reduce_sum``),
by ``args[i]`` of a primitive applied eagerly, and not at all when a jitted function received it traced (under
``grad``, ``vmap``, ``jvp``) (golden/make_mismatch_names_golden.py)."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_mismatch_names_golden")
