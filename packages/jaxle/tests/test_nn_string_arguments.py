"""jax.nn and jax.scipy.special functions, and custom_jvp functions, given a string or bytes where an
array goes raise JAX 0.10.2's errors, eagerly and inside jit (golden/nn_string_arguments_golden.json from
golden/make_nn_string_arguments_golden.py)."""

import json
import pathlib
import sys

import pytest

import jaxle
import jaxle.scipy.special  # noqa: F401 - reached as jaxle.scipy.special by the cases

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))

import make_nn_string_arguments_golden as golden  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "nn_string_arguments_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(golden.CALLS))
def test_golden(name):
    assert golden.machinery.records({name: golden.CALLS[name]}, jaxle, jaxle.jit)[name] == GOLDEN[name]
