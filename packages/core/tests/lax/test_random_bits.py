"""lax random bits: rng_bit_generator's bits against JAX 0.10.2 goldens and published test vectors, rng_uniform's
jaxprs and ranges."""

import importlib

import numpy as np
import pytest

import jaxle_core
from jaxle_core import lax
from jaxle_core.config import enable_x64
from jaxle_core.lax.random_bits import philox_4x32, threefry_2x32

SHARED = importlib.import_module("make_reductions_golden")
GEN, GOLDEN = SHARED.load_suite("random_bits")


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    with enable_x64(name.startswith("x64-")):
        SHARED.assert_matches(SHARED.run_case(jaxle_core, GEN.CASES[name]), GOLDEN[name])


def test_vmap_draws_the_batch_from_the_first_key():
    assert GEN.vmap_case(jaxle_core) == GOLDEN["vmap"]


def _words(*values):
    return [np.array([v], np.uint32) for v in values]


@pytest.mark.parametrize("key, counter, expected", [
    ((0, 0), (0, 0), (0x6B200159, 0x99BA4EFE)),
    ((0xFFFFFFFF, 0xFFFFFFFF), (0xFFFFFFFF, 0xFFFFFFFF), (0x1CB996FC, 0xBB002BE7)),
    ((0x13198A2E, 0x03707344), (0x243F6A88, 0x85A308D3), (0xC4923A9C, 0x483DF7A0)),
])
def test_threefry_known_answers(key, counter, expected):
    """Random123's known-answer vectors for Threefry-2x32-20."""
    assert [int(w[0]) for w in threefry_2x32(np.array(key, np.uint32), *_words(*counter))] == list(expected)


@pytest.mark.parametrize("key, counter, expected", [
    ((0, 0), (0, 0, 0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((0xFFFFFFFF, 0xFFFFFFFF), (0xFFFFFFFF,) * 4, (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    ((0xA4093822, 0x299F31D0), (0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344),
     (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
])
def test_philox_known_answers(key, counter, expected):
    """Random123's known-answer vectors for Philox-4x32-10."""
    assert [int(w[0]) for w in philox_4x32(np.array(key, np.uint32), _words(*counter))] == list(expected)


def test_bits_advance_the_key():
    key = np.array([7, 0, 9, 0], np.uint32)
    new_key, first = lax.rng_bit_generator(key, (8,))
    _, again = lax.rng_bit_generator(key, (8,))
    _, second = lax.rng_bit_generator(new_key, (8,))
    np.testing.assert_array_equal(np.asarray(first), np.asarray(again))
    assert not np.any(np.asarray(first) == np.asarray(second))


def test_rng_uniform_spreads_over_the_interval():
    x = np.asarray(lax.rng_uniform(np.float32(-2), np.float32(3), (2000,)))
    assert x.dtype == np.float32 and x.min() >= -2 and x.max() < 3
    assert abs(x.mean() - 0.5) < 0.25


def test_bad_arguments():
    key = np.array([1, 2, 3, 4], np.uint32)
    with pytest.raises(TypeError, match="`out_sharding` argument of rng_bit_generator only supports instances of "
                                        "`NamedSharding` or `PartitionSpec`. Got x of type: <class 'str'>"):
        lax.rng_bit_generator(key, (3,), out_sharding="x")
    with pytest.raises(TypeError, match="non-negative"):
        lax.rng_bit_generator(key, (-1,))


def test_uint64_without_x64_is_truncated_with_jax_warning():
    with pytest.warns(UserWarning, match="Explicitly requested dtype uint64 requested in rng_bit_generator is not "
                                         "available, and will be truncated to dtype uint32"):
        _, bits = lax.rng_bit_generator(np.array([1, 2, 3, 4], np.uint32), (3,), dtype=np.uint64)
    assert bits.dtype == np.uint32
