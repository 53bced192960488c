"""A jitted function given ``in_shardings`` takes a committed argument as JAX 0.10.2's: split into the same tiles
over other devices (another mesh of the same shape, the same devices in another order, whole copies anywhere), it is
moved to the in_sharding's devices; split otherwise or in another memory, it is refused, by a call and by ``lower``
(not by ``trace``); arguments without an in_sharding and out_shardings must lie on the same devices; and
``jaxle.experimental.pjit`` (golden/make_jit_in_shardings_golden.py)."""

import numpy as np
import pytest
from conftest import golden_cases_test

import jaxle

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_jit_in_shardings_golden")


@pytest.mark.parametrize("where", ["other:x.y", "reversed:x.y", "set:x.y"])
def test_moved_argument_again_and_after_one_in_place(where):
    """Calls after the first (jaxlib's C++ dispatch runs cached ones) move the argument again, also after a call
    whose argument lay where the in_sharding says (JAX 0.10.2 aborts on the second call)."""
    double = jaxle.jit(lambda a: a * 2, in_shardings=GEN._sharding(jaxle, "set:x.y"))
    in_place = jaxle.device_put(GEN.GRID, GEN._sharding(jaxle, "set:x.y"))
    elsewhere = jaxle.device_put(GEN.GRID, GEN._sharding(jaxle, where))
    expected = GOLDEN[f"set:x.y_{where}_call"]
    for x in (elsewhere, in_place, elsewhere, elsewhere):
        assert GEN._outcome(lambda x=x: double(x)) == expected
    np.testing.assert_array_equal(np.asarray(elsewhere), GEN.GRID)  # the argument itself stays where it was


def test_moved_argument_to_one_device_again():
    double = jaxle.jit(lambda a: a * 2, in_shardings=GEN._sharding(jaxle, "device0"))
    x = jaxle.device_put(GEN.GRID, GEN._sharding(jaxle, "other:-"))
    for _ in range(3):
        assert GEN._outcome(lambda: double(x)) == GOLDEN["device0_other:-_call"]
