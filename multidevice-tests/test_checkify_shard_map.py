"""``jax.experimental.checkify`` with checks inside ``shard_map`` and ``pmap`` bodies on eight CPU devices, against
JAX 0.10.2 (golden/checkify_shard_map_golden.json): one error per shard, reported at its mapped index, the one
``throw`` raises, and the results."""

import importlib
import json

import numpy as np
import pytest

import jaxle

GEN = importlib.import_module("make_checkify_shard_map_golden")
GOLDEN = json.loads((GEN.HERE / "checkify_shard_map_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_matches_jax(name):
    got = GEN.record(jaxle, name)
    assert got["get"] == GOLDEN[name]["get"]
    assert got["throw"] == GOLDEN[name]["throw"]
    assert got["exception"] == GOLDEN[name]["exception"]
    np.testing.assert_allclose(np.asarray(got["out"]), np.asarray(GOLDEN[name]["out"]), rtol=1e-6)
