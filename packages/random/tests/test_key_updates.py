"""``.at[].apply`` on typed keys and arrays of keys filled with a value, as JAX 0.10.2 gives them
(golden/make_key_updates_golden.py): the jaxprs JAX stages (the zero keys it makes on the way included), the keys
it returns where the applied function leaves each key's data as it is (the scatter combines the data word by word),
and MLIR's verifier errors, as JAX's ValueError, where it does not."""

import json

import make_key_updates_golden as golden  # on the path set by conftest.py
import pytest

import jaxle

GOLDEN = json.loads(golden.GOLDEN.read_text())


def test_every_case_has_a_golden_record():
    assert GOLDEN.keys() == golden.CASES.keys()


@pytest.mark.parametrize("name", sorted(golden.CASES))
def test_matches_jax(name):
    assert json.loads(json.dumps(golden.run(jaxle, name))) == GOLDEN[name]
