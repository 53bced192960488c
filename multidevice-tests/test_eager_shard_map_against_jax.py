"""The body of a ``shard_map`` called eagerly as JAX 0.10.2's (golden/make_eager_shard_map_golden.py): Python reads
a value every device agrees on by its type (``bool``, ``int``, ``operator.index``, ``item``) and gets JAX's errors
for the others, printing a value shows every device's block, and a failing ``pure_callback`` leaves its error with
the results that depend on it (raised when read), the rest of the body having run."""

import importlib
import json
import logging

import pytest

import jaxle

GEN = importlib.import_module("make_eager_shard_map_golden")
GOLDEN = json.loads((GEN.HERE / "eager_shard_map_golden.json").read_text())


def test_every_case_has_a_golden_record():
    assert GOLDEN.keys() == GEN.CASES.keys()


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name, caplog):
    with caplog.at_level(logging.CRITICAL, logger="jax._src.callback"):  # the failing callback's logged traceback
        assert json.loads(json.dumps(GEN.CASES[name](jaxle))) == GOLDEN[name]


def test_failing_case_runs_its_own_callback_when_run_again():
    """Programs are cached by their text, which names two callbacks of one name alike: each call runs its own."""
    assert GEN.CASES["failing_pure_callback"](jaxle)["pure"] == GOLDEN["failing_pure_callback"]["pure"]
    assert GEN.CASES["failing_pure_callback"](jaxle)["pure"] == GOLDEN["failing_pure_callback"]["pure"]
