"""Randomness invariant to the transformations: vmapped keys give the bits of a loop over the keys, and
jit gives the eager values (on core's reference backend)."""

import numpy as np
import pytest

import jaxle_core as jc
import jaxle_random as random

KEYS = np.asarray(random.split(random.PRNGKey(21), 3))

DRAWS = {
    "bits": lambda k: random.bits(k, (2, 3), np.uint16),
    "uniform": lambda k: random.uniform(k, (4,), minval=-1.0, maxval=2.0),
    "normal": lambda k: random.normal(k, (4,)),
    "randint": lambda k: random.randint(k, (5,), -7, 9),
    "bernoulli": lambda k: random.bernoulli(k, 0.3, (6,)),
    "split": lambda k: random.split(k, (2, 2)),
    "fold_in": lambda k: random.fold_in(k, 11),
}


@pytest.mark.parametrize("name", sorted(DRAWS))
def test_vmapped_keys_match_a_loop(name):
    draw = DRAWS[name]
    batched = np.asarray(jc.vmap(draw)(KEYS))
    np.testing.assert_array_equal(batched, np.stack([np.asarray(draw(k)) for k in KEYS]))


@pytest.mark.parametrize("name", sorted(DRAWS))
def test_jit_matches_eager(name):
    draw = DRAWS[name]
    np.testing.assert_array_equal(np.asarray(jc.jit(draw)(KEYS[0])), np.asarray(draw(KEYS[0])))


def test_vmap_over_keys_axis_one():
    draw = DRAWS["uniform"]
    batched = np.asarray(jc.vmap(draw, in_axes=1)(KEYS.T))
    np.testing.assert_array_equal(batched, np.stack([np.asarray(draw(k)) for k in KEYS]))
