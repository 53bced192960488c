"""``shard_map`` bodies checking varying manual axes print, compute and raise as JAX 0.10.2's
(golden/make_vma_golden.py), and their gradients agree with the same computation written without shard_map."""

import numpy as np
import pytest
from conftest import golden_cases_test

import jaxle
from jaxle import lax

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_vma_golden")
P = jaxle.sharding.PartitionSpec


@pytest.mark.parametrize("check_vma", [True, False])
def test_gradients_agree_with_unmapped_computation(check_vma):
    # Each device multiplies its rows by a weight vector every device holds; the loss sums squares of the row
    # sums. Its gradient, in either typing mode, is the unmapped one.
    def mapped(x, w):
        body = lambda rows, w: lax.psum(((rows * w).sum(1) ** 2).sum(), ("i", "j"))
        return GEN._sm(jaxle, body, (P(("i", "j")), P()), P(), check_vma=check_vma)(x, w)

    def unmapped(x, w):
        return (((x * w).sum(1)) ** 2).sum()

    x = np.arange(32.0, dtype=np.float32).reshape(8, 4) / 10
    w = np.linspace(-1.0, 1.0, 4, dtype=np.float32)
    for argnum in (0, 1):
        np.testing.assert_allclose(np.asarray(jaxle.grad(mapped, argnum)(x, w)),
                                   np.asarray(jaxle.grad(unmapped, argnum)(x, w)), rtol=1e-5)
