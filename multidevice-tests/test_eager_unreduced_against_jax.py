"""Arrays of partial sums made eagerly (a ``shard_map`` returning unreduced values, a contraction given an unreduced
``out_sharding``) are JAX 0.10.2's: typed and laid out as unreduced, each device holding its partial sum, summed by a
later ``reshard``, refusing what JAX refuses; ``vmap`` of the collectives of such values raises JAX's errors
(golden/make_eager_unreduced_golden.py)."""

import importlib
import json

import pytest

import jaxle

GEN = importlib.import_module("make_eager_unreduced_golden")
GOLDEN = json.loads((GEN.HERE / "eager_unreduced_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert GEN.CASES[name](jaxle) == GOLDEN[name]
