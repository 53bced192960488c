"""jnp functions given a string or bytes where an array goes raise JAX 0.10.2's errors (type and message), eagerly
and inside jit: a function JAX jits refuses it as an argument it cannot trace, naming its path; others as their
argument check, their array conversion or their dtype promotion refuses it; typeof, vmap and custom derivatives
refuse it with JAX's quoting of its type."""

import jnp_golden
import make_string_arguments_golden as cases
import pytest

import jaxle_core
import jaxle_numpy

GOLDEN = jnp_golden.load("string_arguments_golden.json")


@pytest.mark.parametrize("name", sorted(cases.CALLS))
def test_golden(name):
    assert cases.records({name: cases.CALLS[name]}, jaxle_numpy, jaxle_core.jit)[name] == GOLDEN[name]


@pytest.mark.parametrize("name", sorted(cases.API_CALLS))
def test_api_golden(name):
    assert cases.records({name: cases.API_CALLS[name]}, jaxle_core, jaxle_core.jit)[name] == GOLDEN[f"api_{name}"]
