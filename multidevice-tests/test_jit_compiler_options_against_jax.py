"""``compiler_options`` given to ``jit``, to ``Lowered.compile`` and to ``pjit`` reach XLA as JAX 0.10.2's do: the
optimised program changes as the option says (the same whether given to jit or to compile, on one device and
partitioned), an option XLA does not know or cannot read fails with jaxlib's error, and a jitted function with
options refuses to be staged into another one (golden/make_jit_compiler_options_golden.py)."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_jit_compiler_options_golden")
