"""jax.extend.random against JAX 0.10.2 (golden/extend_random_golden.json from golden/make_extend_random_golden.py):
a user-defined PRNG implementation's keys, bits and samplers, the built-in implementations and the threefry hash."""

import json
import pathlib
import sys

import numpy as np
import pytest

import jaxle
from jaxle.extend import random as xr

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))

import make_extend_random_golden as golden  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "extend_random_golden.json").read_text())


@pytest.fixture(scope="module")
def values():
    return golden.cases(jaxle)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_extend_random_golden(values, name):
    assert values[name] == GOLDEN[name]


def test_user_impl_is_not_registered_by_name():
    golden.user_impl(jaxle)
    with pytest.raises(ValueError, match='unrecognized PRNG implementation "mine"'):
        jaxle.random.key(0, impl="mine")


def test_threefry_2x32_needs_uint32():
    with pytest.raises(TypeError, match="threefry_2x32 requires uint32 arguments"):
        xr.threefry_2x32(np.array([1, 2], np.uint32), np.arange(4))
