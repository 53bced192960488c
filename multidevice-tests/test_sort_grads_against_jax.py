"""Derivatives of sorts under ``set_mesh`` of a mesh of Explicit axes print and compute as JAX 0.10.2's
(golden/make_sort_grads_golden.py): each result of a sort is typed as its own operand (the sorted values of a host
argument over no mesh, though the positions sorted with them are typed over the mesh), so ``grad``'s seed needs no
reshard, and a pullback accepts a cotangent replicated over the mesh for a result typed over none."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_sort_grads_golden")


def test_golden_covers_every_case():
    assert sorted(GOLDEN) == sorted(GEN.CASES)

