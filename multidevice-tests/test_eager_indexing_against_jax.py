"""Indexing arrays laid out over several devices as JAX 0.10.2's (golden/make_eager_indexing_golden.py): eagerly, an
index taking part of a dimension gathers (the gather's layout over Auto axes, its errors over Explicit axes),
iterating over an array not held whole by every device gives rows put uncommitted on the default device, and an
array of partial sums (typed unreduced or reduced over mesh axes) refuses any gather or scatter with a
``ValueError`` (JAX's comes from its implementation: jaxle's says what is refused, and is checked by its type)."""

import importlib
import json

import pytest

import jaxle

GEN = importlib.import_module("make_eager_indexing_golden")
GOLDEN = json.loads((GEN.HERE / "eager_indexing_golden.json").read_text())
JAX_INTERNAL_REFUSAL = "ValueError: Using *pspec is dangerous when PartitionSpec has non-empty unreduced/reduced set."
REFUSAL = "ValueError: Indexing by gather or scatter does not take an operand unreduced or reduced over mesh axes;"


def _expected(outcome: str) -> str:
    return REFUSAL if outcome.startswith(JAX_INTERNAL_REFUSAL) else outcome


def _found(outcome: str) -> str:
    return REFUSAL if outcome.startswith(REFUSAL) else outcome


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    found = {label: _found(outcome) for label, outcome in GEN.CASES[name](jaxle).items()}
    assert found == {label: _expected(outcome) for label, outcome in GOLDEN[name].items()}
