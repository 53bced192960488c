"""The layouts of keys and of their data as JAX 0.10.2's (golden/make_key_data_layouts_golden.py): keys a ``jit`` lays
out (``out_shardings``, a sharding constraint), and keys that indexing, slicing, reshaping, joining, selecting, loops,
``vmap`` and the random functions make, eagerly and under ``jit``, over Auto and Explicit axes: the keys' spec
followed by one ``None`` per dimension of a key's data, or keys made eagerly of data laid out as a plain array's."""

import importlib
import json

import pytest

import jaxle

GEN = importlib.import_module("make_key_data_layouts_golden")
GOLDEN = json.loads((GEN.HERE / "key_data_layouts_golden.json").read_text())


def test_every_case_has_a_golden_record():
    assert GOLDEN.keys() == GEN.CASES.keys()


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert json.loads(json.dumps(GEN.CASES[name](jaxle))) == GOLDEN[name]
