"""Constants ``jax.numpy`` makes print in jaxprs traced under ``set_mesh`` of a mesh of Explicit axes as JAX
0.10.2's do (golden/make_hoisted_constants_golden.py): an eagerly made scalar (``zeros(())`` and the like, under
the mesh or outside it) closed over is a constvar, as any computed array, and a scalar converted for a ``device=``
sharding inside the function is folded into a literal."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_hoisted_constants_golden")


def test_golden_covers_every_case():
    assert sorted(GOLDEN) == sorted(GEN.CASES)

