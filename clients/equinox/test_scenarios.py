"""equinox 0.13.8 on the module named ``jax`` (jaxle under ``pytest -p jaxle.compat.pytest_plugin``, as the
``clients`` nox session runs it): each scenario's numbers equal JAX 0.10.2's, recorded in golden.json by
``scenarios.py``."""

import importlib
import json
import math

import pytest
from scenarios import GOLDEN, SCENARIOS, plain

EXPECTED = json.loads(GOLDEN.read_text())


def assert_matches(ours, expected, path="result"):
    if isinstance(expected, dict) and "values" in expected:
        assert isinstance(ours, dict) and (ours["dtype"], ours["shape"]) == (expected["dtype"], expected["shape"]), \
            f"{path}: {ours} != {expected}"
        for a, b in zip(ours["values"], expected["values"], strict=True):
            assert math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-6) or (math.isnan(a) and math.isnan(b)), \
                f"{path}: {ours['values']} != {expected['values']}"
    elif isinstance(expected, dict):
        assert isinstance(ours, dict) and ours.keys() == expected.keys(), f"{path}: {ours} != {expected}"
        for key in expected:
            assert_matches(ours[key], expected[key], f"{path}.{key}")
    elif isinstance(expected, list):
        assert isinstance(ours, list) and len(ours) == len(expected), f"{path}: {ours} != {expected}"
        for index, (a, b) in enumerate(zip(ours, expected)):
            assert_matches(a, b, f"{path}[{index}]")
    else:
        assert ours == expected, f"{path}: {ours!r} != {expected!r}"


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario_gives_jax_numbers(name):
    jax = importlib.import_module("jax")
    assert_matches(json.loads(json.dumps(plain(SCENARIOS[name](jax)))), EXPECTED[name])
