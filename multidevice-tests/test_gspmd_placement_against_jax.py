"""``GSPMDSharding`` as a placement, and the layouts XLA's partitioner chooses that no PartitionSpec names, as
JAX 0.10.2 gives them (golden/make_gspmd_placement_golden.py): ``device_put`` and ``jit``'s in_shardings and
out_shardings over HLO shardings, the arrays' shardings, shards and values, lowered text, compiled shardings and
errors."""

import functools
import importlib
import json

import pytest

import jaxle

GEN = importlib.import_module("make_gspmd_placement_golden")
GOLDEN = json.loads((GEN.HERE / "gspmd_placement_golden.json").read_text())


@functools.cache
def _mine() -> dict:
    """Every case run by jaxle, once."""
    return GEN.record(jaxle)


@pytest.mark.parametrize("case", sorted(GOLDEN))
def test_matches_jax(case):
    assert _mine()[case] == GOLDEN[case]
