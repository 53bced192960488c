"""Eager derivatives of functions placing their result on a device put their results, tangents and cotangents
where JAX 0.10.2's do: a jitted function's derivative runs on the device a conversion (``device=``) or a
``device_put`` to a ``SingleDeviceSharding`` inside it names, its results committed there, and an argument,
tangent or cotangent committed to another device gets JAX's error, naming where the placement was written; a
``device_put`` outside ``jit`` puts values and tangents on its device and cotangents back where the operand lies
(golden/make_eager_placing_derivatives_golden.py)."""

import importlib
import json

import pytest

import jaxle

GEN = importlib.import_module("make_eager_placing_derivatives_golden")
GOLDEN = json.loads((GEN.HERE / "eager_placing_derivatives_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert GEN.CASES[name](jaxle) == GOLDEN[name]
