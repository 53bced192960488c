"""jax.debug.visualize_sharding and visualize_array_sharding print, box for box, the text JAX 0.10.2 prints
(golden/make_visualize_golden.py)."""

import importlib
import json
import sys

import pytest

import jaxle

GEN = importlib.import_module("make_visualize_golden")
GOLDEN = json.loads((GEN.HERE / "visualize_golden.json").read_text())
CASES = GEN.run(jaxle)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_matches_jax(name):
    assert CASES[name] == GOLDEN[name]


def test_without_rich(monkeypatch):
    monkeypatch.setitem(sys.modules, "rich", None)
    with pytest.raises(ValueError, match="`visualize_sharding` requires `rich` to be installed."):
        jaxle.debug.visualize_sharding((4,), jaxle.sharding.SingleDeviceSharding(jaxle.devices()[0]))
