"""Derivatives of values unreduced or reduced over an Explicit axis print and compute as JAX 0.10.2's
(golden/make_unreduced_pullbacks_golden.py): a host cotangent is taken as it is (no reshard first: the transpositions
retype it), grad's seed is a one resharded to the output's cotangent type (unreduced and reduced axes swapped), and
a cotangent of another type is refused naming that cotangent type."""

import numpy as np
from conftest import golden_cases_test
from golden_cases import typed_mesh

import jaxle

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_unreduced_pullbacks_golden")


def test_pullback_of_the_reduced_product_follows_numpy():
    # y = x @ m, so for a cotangent of ones: dm = x^T ones, dx = ones m^T (summed once, not once per 'y' device)
    P = jaxle.sharding.PartitionSpec
    with jaxle.sharding.set_mesh(typed_mesh(jaxle, "Explicit")):
        m, x = jaxle.device_put(GEN.M, P("y", None)), jaxle.device_put(GEN.X, P("x", "y"))
        dm, dx = jaxle.jit(lambda m, x: jaxle.vjp(lambda a, b: GEN._reduced(jaxle, a, b), m, x)[1](GEN.ONES))(m, x)
    np.testing.assert_allclose(np.asarray(dm), GEN.X.T @ GEN.ONES, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(dx), GEN.ONES @ GEN.M.T, rtol=1e-6)
