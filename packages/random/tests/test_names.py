"""Every public name of JAX 0.10.2's ``jax.random`` exists in ``jaxle_random`` as a function with JAX's
signature, except the names still waiting in LATER (the list is data generated from JAX:
golden/make_random_names.py writes golden/random_names.json)."""

import inspect
import json
import pathlib

import pytest

import jaxle_random as random
from jaxle_core.core import Primitive

NAMES = json.loads((pathlib.Path(__file__).parent / "golden" / "random_names.json").read_text())

# Names planned as later work; each says why it waits. The test below fails once one lands, so the list shrinks.
LATER: dict[str, str] = {}


def test_later_names_are_jax_names():
    assert set(LATER) <= set(NAMES)


@pytest.mark.parametrize("name", sorted(set(NAMES) - set(LATER)))
def test_random_has_name_with_jax_signature(name):
    assert hasattr(random, name), f"jaxle_random lacks {name}"
    value = getattr(random, name)
    if NAMES[name]["kind"] == "object":  # random_gamma_p: a primitive, as in JAX
        assert isinstance(value, Primitive)
        return
    assert NAMES[name]["kind"] == "function" and callable(value) and not inspect.isclass(value)
    parameters = inspect.signature(value).parameters.values()
    assert [[p.name, p.kind.name, "-" if p.default is p.empty else repr(p.default)] for p in parameters] == \
        NAMES[name]["signature"]


def test_later_names_leave_the_list_once_they_land():
    landed = sorted(name for name in LATER if hasattr(random, name))
    assert not landed, f"{landed} have landed: remove them from LATER"


def test_public_names_are_jax_names():
    """``jaxle.random`` re-exports ``__all__``: no name beyond JAX's (the generator's pieces stay in submodules)."""
    assert sorted(random.__all__) == sorted(NAMES)
