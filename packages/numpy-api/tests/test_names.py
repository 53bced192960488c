"""Every public name of JAX 0.10.2's ``jax.numpy`` exists in ``jaxle_numpy`` as the same kind of object, and the
Array has every attribute JAX's has.

The lists are data generated from JAX (golden/make_numpy_names.py: numpy_names.json, fft_names.json,
linalg_names.json, array_attributes.json).
"""

import inspect
import json
import math
import pathlib

import pytest

import jaxle_core
import jaxle_numpy as jnp

GOLDEN = pathlib.Path(__file__).parent / "golden"
NAMES = json.loads((GOLDEN / "numpy_names.json").read_text())
FFT_NAMES = json.loads((GOLDEN / "fft_names.json").read_text())
LINALG_NAMES = json.loads((GOLDEN / "linalg_names.json").read_text())
ARRAY_ATTRIBUTES = json.loads((GOLDEN / "array_attributes.json").read_text())

# Names whose subsystem is planned as its own piece of work; each says why it waits.
LATER: dict[str, str] = {}

# Array attributes that describe placement on devices: the XLA backend's Array has them, core's reference one not.
DEVICE_ATTRIBUTES = {"addressable_data", "addressable_shards", "committed", "copy_to_host_async", "device",
                     "global_shards", "is_fully_addressable", "is_fully_replicated", "sharding", "to_device"}


@pytest.mark.parametrize("name", sorted(set(NAMES) - set(LATER)))
def test_numpy_has_name(name):
    assert hasattr(jnp, name), f"jaxle_numpy lacks {name}"
    value = getattr(jnp, name)
    expected = NAMES[name]
    if expected == "module":
        assert inspect.ismodule(value)
    elif expected == "ufunc":
        assert isinstance(value, jnp.ufunc)
    elif expected == "class":
        assert inspect.isclass(value)
    elif expected == "function":
        assert callable(value) and not inspect.isclass(value)
    elif expected.startswith("value:"):
        want = expected.removeprefix("value:")
        if want == "None":
            assert value is None
        else:
            got = float(value)
            assert (math.isnan(got) and want == "nan") or got == float(want)


@pytest.mark.parametrize("name", sorted(FFT_NAMES))
def test_fft_has_name(name):
    assert inspect.ismodule(jnp.fft)
    assert hasattr(jnp.fft, name), f"jnp.fft lacks {name}"
    assert FFT_NAMES[name]["kind"] == "function" and inspect.isfunction(getattr(jnp.fft, name))
    parameters = inspect.signature(getattr(jnp.fft, name)).parameters.values()
    assert [[p.name, p.kind.name, "-" if p.default is p.empty else repr(p.default)] for p in parameters] == \
        FFT_NAMES[name]["signature"]


@pytest.mark.parametrize("name", sorted(LINALG_NAMES))
def test_linalg_has_name(name):
    assert inspect.ismodule(jnp.linalg)
    assert hasattr(jnp.linalg, name), f"jnp.linalg lacks {name}"
    function = getattr(jnp.linalg, name)
    assert LINALG_NAMES[name]["kind"] == "function" and callable(function) and not inspect.isclass(function)
    parameters = inspect.signature(function).parameters.values()
    assert [[p.name, p.kind.name, "-" if p.default is p.empty else repr(p.default)] for p in parameters] == \
        LINALG_NAMES[name]["signature"]


def test_fft_functions_stay_in_their_submodule():
    assert not any(hasattr(jnp, name) for name in FFT_NAMES if name != "fft")


def test_later_names_leave_the_list_once_they_land():
    assert set(LATER) <= set(NAMES)
    for name in LATER:
        assert not hasattr(jnp, name), f"{name} has landed: remove it from LATER"


@pytest.mark.parametrize("name", sorted(set(ARRAY_ATTRIBUTES) - DEVICE_ATTRIBUTES - {"__module__", "__slots__",
                                                                                      "__weakref__"}))
def test_array_and_tracer_have_attribute(name):
    assert hasattr(jaxle_core.Array, name), f"Array lacks {name}"
    if name not in {"committed", "flat", "__array_namespace__", "__numpy_dtype__"}:
        assert hasattr(jaxle_core.core.Tracer, name), f"Tracer lacks {name}"
