"""Under ``set_mesh`` of a mesh of Explicit axes, the ``jax.numpy`` and ``jax.lax`` functions that may leave an
array operand unchanged return it, or a new array, as JAX 0.10.2's do (golden/make_identity_results_golden.py): a
function JAX jits (``swapaxes``, ``einsum``, ``real``, ``conj``, ``positive``, ``broadcast_arrays``) returns a new
array laid out as its type says (one entry per dimension), as does a bound no-op (``expand_dims`` of no axes);
eager operations on uncommitted arrays (conversions to another dtype among them) report their results' specs as
JAX's (``P()`` where its rule keeps the operand's empty layout)."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_identity_results_golden")
