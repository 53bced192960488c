"""The derivatives of conversions for ``device=`` (``jnp.asarray``, ``astype``, ``jnp.array``, ``jnp.linspace``)
constrain their values and tangents or cotangents to the device as JAX 0.10.2's do: once for each level the
conversion is bound at (twice by reverse mode, which JAX linearizes by staging), inside linspace's jitted function
too (golden/make_conversion_derivatives_golden.py)."""

import importlib
import json

import pytest

import jaxle

GEN = importlib.import_module("make_conversion_derivatives_golden")
GOLDEN = json.loads((GEN.HERE / "conversion_derivatives_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert GEN.CASES[name](jaxle) == GOLDEN[name]
