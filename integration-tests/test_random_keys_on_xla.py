"""Typed keys on the XLA backend: key arrays cross jit boundaries as their uint32 data, every value case of the
typed-key golden (packages/random/tests/golden/make_random_keys_golden.py) is JAX 0.10.2's bit for bit, and its
negative sizes fail with JAX's MLIRError when lowered (and, XLA loaded, when the reference backend runs them)."""

import json

import make_random_keys_golden as golden  # on the path set by conftest.py
import numpy as np
import pytest

import jaxle_core as jc
import jaxle_random as random
import jaxle_tree
import jaxle_xla  # noqa: F401 - XLA becomes the default backend
from jaxle_core.extended import ExtendedArray
from jaxle_xla.array import XlaArray
from jaxle_xla.dispatch_testing import counting_misses, cpp_dispatch

GOLDEN = json.loads(golden.GOLDEN.read_text())
NS = golden.keys_namespace("jaxle")
VALUE_CASES = sorted(name for name, record in GOLDEN.items() if "hex" in record)


@pytest.mark.parametrize("name", VALUE_CASES)
def test_key_values_bit_for_bit(name):
    assert golden.run_case(NS, name) == GOLDEN[name], name


@pytest.mark.parametrize("name", sorted(name for name in GOLDEN if name.startswith("compile_error_")))
def test_negative_sizes_fail_as_xla_lowers_them(name):
    # staged as JAX stages them (the golden's jaxpr_*_negative_size cases), refused with MLIR's own error
    assert golden.run_case(NS, name) == GOLDEN[name], name


@pytest.mark.parametrize("name", sorted(name for name in GOLDEN if name.startswith("compile_error_")))
def test_reference_backend_raises_mlirs_own_error_once_xla_is_loaded(name):
    """With jaxle_xla loaded, the reference backend refuses a negative size with MLIR's own error (jaxlib's
    ``MLIRError`` class, its diagnostics attached), as XLA's lowering does."""
    from jaxlib.mlir import ir

    with jc.backend.use_backend("reference"):
        assert golden.run_case(NS, name) == GOLDEN[name], name
        with pytest.raises(ir.MLIRError) as info:
            jc.jit(lambda k: random.bits(k, (-1,)))(random.key(0))
    assert len(info.value.error_diagnostics) == 1


def test_key_arrays_hold_device_data():
    keys = jc.jit(lambda k: random.split(k, 3))(random.key(1))
    assert isinstance(keys, ExtendedArray) and type(keys.physical) is XlaArray
    assert keys.physical.aval.shape == (3, 2)
    np.testing.assert_array_equal(np.asarray(random.key_data(keys)), np.asarray(random.split(random.PRNGKey(1), 3)))


def test_lowered_text_carries_key_data():
    text = jc.jit(lambda k: random.split(k)).lower(random.key(0)).as_text()
    assert "tensor<2xui32>" in text and "tensor<2x2xui32>" in text and "key<" not in text


def test_cached_calls_with_keys_run_in_cpp_keyed_by_dtype_and_shape():
    # as in JAX, C++ dispatch passes a key array's data and keys its cache by the key dtype: two implementations
    # with the same data shape (rbg, unsafe_rbg) never share an entry, nor do typed and raw keys
    def draw(k):
        return random.bits(k, (4,))

    f = jc.jit(draw)
    misses = counting_misses(f)
    keys = [random.key(0), random.key(1), random.key(0, impl="rbg"), random.key(1, impl="rbg"),
            random.key(0, impl="unsafe_rbg"), random.key(1, impl="unsafe_rbg"), random.PRNGKey(0), random.PRNGKey(1)]
    with cpp_dispatch():
        for k in keys + keys:
            expected = jc.jit(draw)(k)  # a function of its own: its first call runs on core's path
            np.testing.assert_array_equal(np.asarray(f(k)), np.asarray(expected))
    assert misses[0] == 4  # one per signature: threefry, rbg, unsafe_rbg and raw keys
    assert jc.jit(lambda k: k)(keys[0]) is not keys[0]
    assert jaxle_tree.tree_leaves({"key": keys[0]})[0] is keys[0]  # keys stay leaves of every pytree
