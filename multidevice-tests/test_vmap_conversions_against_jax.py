"""Conversions for a device (``jnp.asarray``, ``jnp.array``, ``jnp.astype`` with ``device=`` a device or its
``SingleDeviceSharding``) under ``vmap``, eagerly and inside ``jit``, give what JAX 0.10.2 gives for the whole
array: the values converted, committed to the device. JAX's own ``vmap`` of them fails in its batching rule with an
``AttributeError`` (a ``SingleDeviceSharding`` has no ``spec``), a failure of its implementation which jaxle does
not reproduce (docs/differences.md) (golden/make_vmap_conversions_golden.py)."""

import importlib
import json

import pytest

import jaxle

GEN = importlib.import_module("make_vmap_conversions_golden")
GOLDEN = json.loads((GEN.HERE / "vmap_conversions_golden.json").read_text())
NAMES = ("asarray_device", "asarray_sharding", "array_device", "astype_device")


@pytest.mark.parametrize("name", NAMES)
def test_whole_array_matches_jax(name):
    assert GEN.CASES[f"{name}_whole"](jaxle) == GOLDEN[f"{name}_whole"]


@pytest.mark.parametrize("how", ("vmap", "vmap_columns", "jit_vmap"))
@pytest.mark.parametrize("name", NAMES)
def test_batched_gives_the_whole_conversion(name, how):
    assert GOLDEN[f"{name}_{how}"].startswith("AttributeError: ")  # JAX 0.10.2 fails in its batching rule
    assert GEN.CASES[f"{name}_{how}"](jaxle) == GOLDEN[f"{name}_whole"]
