"""Typed keys on the XLA backend: key arrays cross jit boundaries as their uint32 data, and every value case of
the typed-key golden (packages/random/tests/golden/make_random_keys_golden.py) is JAX 0.10.2's bit for bit."""

import json

import make_random_keys_golden as golden  # on the path set by conftest.py
import numpy as np
import pytest

import jaxle_core as jc
import jaxle_random as random
import jaxle_xla  # noqa: F401 - XLA becomes the default backend
from jaxle_core.extended import ExtendedArray
from jaxle_xla.array import XlaArray

GOLDEN = json.loads(golden.GOLDEN.read_text())
NS = golden.keys_namespace("jaxle")
VALUE_CASES = sorted(name for name, record in GOLDEN.items() if "hex" in record)


@pytest.mark.parametrize("name", VALUE_CASES)
def test_key_values_bit_for_bit(name):
    assert golden.run_case(NS, name) == GOLDEN[name], name


def test_key_arrays_hold_device_data():
    keys = jc.jit(lambda k: random.split(k, 3))(random.key(1))
    assert isinstance(keys, ExtendedArray) and type(keys.physical) is XlaArray
    assert keys.physical.aval.shape == (3, 2)
    np.testing.assert_array_equal(np.asarray(random.key_data(keys)), np.asarray(random.split(random.PRNGKey(1), 3)))


def test_lowered_text_carries_key_data():
    text = jc.jit(lambda k: random.split(k)).lower(random.key(0)).as_text()
    assert "tensor<2xui32>" in text and "tensor<2x2xui32>" in text and "key<" not in text
