"""The samplers of ``jax.random`` given ``out_sharding`` draw the sample whole and lay it out as asked, as JAX 0.10.2's:
the sample's type, layout and bits (those of the unsharded draw), eagerly and under ``jit``, over meshes of Explicit,
Auto and mixed axes; the staged jaxprs; JAX's errors for specs a sample cannot take
(golden/make_random_sharding_golden.py)."""

import importlib
import json

import host_variants  # noqa: E402 - on the path set by conftest.py
import numpy as np
import pytest

import jaxle

GEN = importlib.import_module("make_random_sharding_golden")
GOLDEN = json.loads(GEN.GOLDEN.read_text())
VARIANTS = host_variants.load_variants(GEN.GOLDEN)
# jaxle's single-device sharding is a subclass of its own name (see docs/differences.md): the message is compared
# up to the type
TYPE_NAMED = {"single_device_sharding"}


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    got = GEN.CASES[name](jaxle)
    if name in TYPE_NAMED:
        assert got.split(" of type: ")[0] == GOLDEN[name].split(" of type: ")[0]
    else:
        host_variants.check(got, name, GOLDEN, VARIANTS, approximate=_same_but_bits)


def _same_but_bits(got: str, expected: str) -> bool:
    """On a kind of CPU with no recorded outcome: the same type and layout (a float sample's bits may differ)."""
    return got.rpartition(" | ")[0] == expected.rpartition(" | ")[0]


@pytest.mark.parametrize("name", ["normal", "randint", "gamma", "permutation_rows"])
def test_a_sharded_draw_is_the_unsharded_draw(name):
    key = jaxle.random.key(7)
    whole = np.asarray(GEN.SAMPLERS[name](jaxle.random, key, None))
    with jaxle.sharding.set_mesh(GEN._mesh(jaxle, "Explicit", "Explicit")):
        spec = jaxle.sharding.PartitionSpec("x")
        sharded = GEN.SAMPLERS[name](jaxle.random, key, spec)
        compiled = jaxle.jit(lambda k: GEN.SAMPLERS[name](jaxle.random, k, spec))(key)
    for draw in (sharded, compiled):
        assert draw.sharding.spec[0] == "x" and len(draw.addressable_shards) == 8
        np.testing.assert_array_equal(np.asarray(draw), whole)
