"""The creation functions given ``device=`` make arrays typed as JAX 0.10.2's on the device asked for, outside any
mesh and under ``jax.set_mesh`` (golden/make_creation_on_device_golden.py): the filling functions strongly typed
over no mesh, whatever the fill value; ``jnp.eye`` typed over the mesh it was computed under."""

import importlib
import json

import pytest

import jaxle

GEN = importlib.import_module("make_creation_on_device_golden")
GOLDEN = json.loads((GEN.HERE / "creation_on_device_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert GEN.CASES[name](jaxle) == GOLDEN[name]
