"""The results of a jitted function whose in_sharding moves an argument from a mesh of other axes (other names,
another shape splitting it alike, whole copies over more devices) are named as JAX 0.10.2 names them: over a mesh
of the argument's axes on the in_sharding's devices, or as a GSPMDSharding (golden/make_moved_results_golden.py).
Called again with such an argument (where JAX 0.10.2 aborts the process), jaxle's function moves it again."""

import pytest
from conftest import golden_cases_test

import jaxle

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_moved_results_golden")


@pytest.mark.parametrize("move", sorted(GEN.MOVES))
def test_called_again(move):
    """Every call (the later ones dispatched by jaxlib's C++ dispatch) moves the argument and names the result as
    the first did, also after a call whose argument lay where the in_sharding says."""
    given, where = GEN.MOVES[move]
    double = jaxle.jit(lambda a: a * 2, in_shardings=GEN._parsed(jaxle, given))
    moved = jaxle.device_put(GEN.GRID, GEN._parsed(jaxle, where))
    in_place = jaxle.device_put(GEN.GRID, GEN._parsed(jaxle, given))
    first = GEN._outcome(lambda: double(moved))
    assert first == GOLDEN[f"{move}_double"]
    for x in (moved, in_place, moved, moved):
        outcome = GEN._outcome(lambda x=x: double(x))
        assert outcome == (first if x is moved else GEN._outcome(lambda: in_place * 2))
