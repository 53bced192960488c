"""jaxle_random on the XLA backend: threefry2x32 lowered to StableHLO (registered by jaxle_random once
jaxle_xla is loaded) and every golden case of jax.random replayed bit for bit, eagerly and under jit."""

import functools
import json

import host_variants  # on the path set by conftest.py
import make_random_dist_golden as dist_golden
import make_random_golden as golden
import numpy as np
import pytest

import jaxle_core as jc
import jaxle_xla  # noqa: F401 - XLA becomes the default backend
from jaxle_random.threefry import threefry_2x32

NS = golden.namespace("jaxle")


def test_threefry_known_answer_compiled():
    k = np.array([0x13198A2E, 0x03707344], np.uint32)
    out = jc.jit(lambda a, b, c, d: threefry_2x32(a, b, c, d))(k[0], k[1], np.uint32(0x243F6A88),
                                                                np.uint32(0x85A308D3))
    assert [int(np.asarray(o)) for o in out] == [0xC4923A9C, 0x483DF7A0]


@functools.cache
def _golden(generator) -> tuple[dict, dict]:
    """A generator's golden records and their variants on other kinds of CPU."""
    return json.loads(generator.GOLDEN.read_text()), host_variants.load_variants(generator.GOLDEN)


def _replays(generator, name: str) -> None:
    """Case ``name`` of a generator gives the exception JAX's golden records, or JAX's bits on this kind of CPU."""
    records, variants = _golden(generator)
    got, expected = generator.run_case(NS, name), records[name]
    if "error" in expected:
        assert got.get("error") == expected["error"], (name, got)
        return
    host_variants.check(got, name, records, variants)


@pytest.mark.parametrize("name", sorted(golden.CASES))
def test_golden_bit_for_bit(name):
    _replays(golden, name)


@pytest.mark.parametrize("name", sorted(dist_golden.CASES))
def test_distribution_golden_bit_for_bit(name):
    _replays(dist_golden, name)
