"""device_put under vmap (golden/make_vmapped_device_put_golden.py): one staged equation however many placements
a pytree of them names, and, run eagerly, the batched values moved where each placement says (a device, a
NamedSharding's layout of the whole batch, a memory kind), as JAX 0.10.2's."""

import numpy as np
from conftest import golden_cases_test

import jaxle

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_vmapped_device_put_golden")


def test_a_pytree_of_placements_moves_each_batched_leaf_to_its_own():
    device, named = GEN._placements(jaxle)["pytree"]
    first, second = jaxle.vmap(GEN._put(jaxle, "pytree"))(GEN.X)
    assert first.devices() == {device} and second.sharding == named
    np.testing.assert_array_equal(np.asarray(first), GEN.X)
    np.testing.assert_array_equal(np.asarray(second), GEN.X * 2)
