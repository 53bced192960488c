"""A jitted function's arguments that it does not read (or reads only in dead code) are pruned before its program
is placed, as JAX 0.10.2 prunes them: lying on other devices than the rest, they are neither refused nor followed
(called once or again, compiled ahead of time, under ``set_mesh``), unless ``keep_unused=True``
(golden/make_unused_arguments_golden.py)."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_unused_arguments_golden")
