"""The ``accuracy=`` parameter of lax's unary math functions (AccuracyMode, Tolerance): jaxprs, values, derivative
rules and errors against JAX 0.10.2 goldens."""

import importlib

import pytest

import jaxle_core
from jaxle_core import lax

SHARED = importlib.import_module("make_reductions_golden")
GEN, GOLDEN = SHARED.load_suite("accuracy")


def _with_jax_class_path(outcome):
    """A Tolerance prints as an object of its class (address masked); JAX's class lives in jax._src.lax.lax."""
    if "jaxpr" in outcome:
        outcome["jaxpr"] = outcome["jaxpr"].replace("jaxle_core.lax.accuracy.Tolerance", "jax._src.lax.lax.Tolerance")
    return outcome


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    actual = _with_jax_class_path(SHARED.run_text_case(jaxle_core, GEN.CASES[name]))
    SHARED.assert_text_matches(actual, GOLDEN[name])


def test_accuracy_objects():
    assert [(m.name, m.value) for m in lax.AccuracyMode] == [("HIGHEST", 1), ("DEFAULT", 2)]
    tolerance = lax.Tolerance(atol=1e-5, ulps=2)
    assert (tolerance.atol, tolerance.rtol, tolerance.ulps) == (1e-5, 0.0, 2)
    assert tolerance != lax.Tolerance(atol=1e-5, ulps=2)  # compared by identity, as in JAX


def test_typing_aliases_name_the_accepted_types():
    assert lax.Precision in lax.PrecisionLike.__args__ and lax.DotAlgorithmPreset in lax.PrecisionLike.__args__
    assert lax.DotDimensionNumbers.__origin__ is tuple
