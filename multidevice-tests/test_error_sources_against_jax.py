"""The user's line named by refusals under ``set_mesh`` (``This error occurs at source: ...``) and by a nested jit's
compiler_options error (``source info: ...``) is JAX 0.10.2's (golden/make_error_sources_golden.py): a function of
the library's own staged by make_jaxpr, jit, a control-flow body, checkpoint or eval_shape is located nowhere (the
user's frames outside the staged function are not searched), a conversion refused eagerly under vmap or a derivative
is located nowhere, and inside a staged program the user's line that called is named."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_error_sources_golden")
