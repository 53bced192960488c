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

_SAMPLERS = "samplers beyond the first slice"
# Names planned as later work; each says why it waits. The test below fails once one lands, so the list shrinks.
LATER = {
    **{name: _SAMPLERS for name in (
        "multinomial", "multivariate_normal", "orthogonal")},
}


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


@pytest.mark.parametrize("name", sorted(LATER))
def test_later_names_leave_the_list_once_they_land(name):
    assert not hasattr(random, name), f"{name} has landed: remove it from LATER"
