"""``jax_debug_key_reuse`` against JAX 0.10.2's outcomes (golden/key_reuse_golden.json from
golden/make_key_reuse_golden.py): which uses of typed keys raise KeyReuseError, with JAX's messages."""

import json

import make_key_reuse_golden as golden  # on the path set by conftest.py
import pytest

GOLDEN = json.loads(golden.GOLDEN.read_text())
NS = golden.namespace("jaxle")


@pytest.mark.parametrize("name", sorted(golden.CASES))
def test_key_reuse_golden(name):
    assert golden.run_case(NS, name) == GOLDEN[name]
