"""The warning for a 64-bit dtype asked for with x64 off is attributed where JAX 0.10.2 attributes it
(golden/make_warning_sources_golden.py): to the line that called the sampler or the jnp function, or, for a dtype
asked of an array's ``astype`` method (``multinomial``'s counts), to the module of the array methods."""

import json

import make_warning_sources_golden as golden  # on the path set by conftest.py
import pytest

import jaxle

GOLDEN = json.loads(golden.GOLDEN.read_text())


def test_every_case_has_a_golden_record():
    assert GOLDEN.keys() == golden.CASES.keys()


@pytest.mark.parametrize("name", sorted(golden.CASES))
def test_warning_is_attributed_as_jax_attributes_it(name):
    assert golden.sources(jaxle, name) == GOLDEN[name]
