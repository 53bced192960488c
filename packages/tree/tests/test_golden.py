"""Every case in golden/make_golden.py, run through jaxle_tree, must give what JAX 0.10.2 gave."""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

import jaxle_tree

HERE = Path(__file__).parent / "golden"
_spec = importlib.util.spec_from_file_location("make_golden", HERE / "make_golden.py")
make_golden = importlib.util.module_from_spec(_spec)
sys.modules["make_golden"] = make_golden  # dataclasses resolve annotations through sys.modules
_spec.loader.exec_module(make_golden)

GOLDEN = json.loads((HERE / "golden.json").read_text())


@pytest.fixture(scope="module")
def results(tree_path):
    return make_golden.compute(jaxle_tree)


def test_same_cases(results):
    assert sorted(results) == sorted(GOLDEN)


@pytest.mark.parametrize("case", sorted(GOLDEN))
def test_matches_jax(case, results):
    assert results[case] == GOLDEN[case]
