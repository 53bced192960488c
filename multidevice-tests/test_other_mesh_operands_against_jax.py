"""jnp and lax functions given operands laid out over a mesh of Auto axes, under ``set_mesh`` of a mesh of Explicit
axes, compute or refuse as JAX 0.10.2's do, eagerly and traced: the ``*_like`` functions and ``jnp.imag`` (so
``isreal``, ``iscomplex``, ``angle``) of a real value by their ``broadcast_in_dim``, ``argsort`` by its
``broadcasted_iota``, each with JAX's ValueError; a sort is traced, and refused eagerly when its comparison is
compiled; under a mesh of Auto axes all compute (golden/make_other_mesh_operands_golden.py)."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_other_mesh_operands_golden")
