"""Typed keys and the jaxprs of jax.random against JAX 0.10.2 (golden/random_keys_golden.json from
golden/make_random_keys_golden.py): key values and key data, reprs, errors, and the text make_jaxpr prints for
the key functions and the samplers, with typed and raw keys."""

import json

import make_random_keys_golden as golden  # on the path set by conftest.py
import numpy as np
import pytest
from make_random_golden import compare_errors, decode

import jaxle_core as jc
import jaxle_random as random

GOLDEN = json.loads(golden.GOLDEN.read_text())
NS = golden.keys_namespace("jaxle")
# Type only: messages that print a JAX-internal object (JAX's PRNGImpl with its functions' addresses, a tracer of
# JAX's jit), or list the PRNG implementations JAX registers (jaxle registers threefry2x32 alone).
TYPE_ONLY_ERRORS = {"error_wrap_dtype", "error_wrap_shape_and_dtype", "error_impl_unknown",
                    "error_PRNGKey_bool_array"}


@pytest.mark.parametrize("name", sorted(golden.CASES))
def test_keys_golden(name):
    """Every case, negative sizes included: MLIR refuses them once XLA lowers the program (on XLA:
    integration-tests/test_random_keys_on_xla.py), the reference backend when it runs it, with the same message
    and an exception of the same name (its stand-in for jaxlib's ``MLIRError``)."""
    got, expected = golden.run_case(NS, name), GOLDEN[name]
    if compare_errors(name, got, expected, check_message=name not in TYPE_ONLY_ERRORS):
        return
    if "text" in expected:
        assert got.get("text") == expected["text"], name
        return
    assert (got.get("key"), got["dtype"], got["shape"]) == (expected.get("key"), expected["dtype"],
                                                           expected["shape"]), name
    actual, wanted = decode(got), decode(expected)
    if actual.dtype.kind == "f":  # normals: the reference backend's erf_inv differs in the last bits
        np.testing.assert_allclose(actual, wanted, rtol=2e-6, atol=2e-6, err_msg=name)
    else:
        np.testing.assert_array_equal(actual, wanted, err_msg=name)


def test_keys_pickle_and_keep_their_impl():
    import pickle

    keys = NS.random.split(NS.random.key(3), 2)
    again = pickle.loads(pickle.dumps(keys))
    assert again.dtype == keys.dtype and again.shape == (2,)
    np.testing.assert_array_equal(NS.random.key_data(again), NS.random.key_data(keys))


def test_keys_have_float0_tangents_and_no_gradient():
    import jaxle_core as jc

    key = NS.random.key(0)
    out, tangent = jc.jvp(lambda k: NS.random.split(k), (key,), (np.zeros((), jc.dtypes.float0),))
    assert out.shape == (2,) and tangent.dtype == jc.dtypes.float0 and tangent.shape == (2,)
    # a key beside a differentiated argument is a constant of the derivative
    grad = jc.grad(lambda x, k: x * NS.random.normal(k))(2.0, key)
    np.testing.assert_allclose(grad, NS.random.normal(key), rtol=1e-6)
    with pytest.raises(TypeError, match="grad requires real- or complex-valued inputs"):
        jc.grad(lambda k: NS.random.normal(k))(key)


def test_default_impl_flag_selects_the_implementation():
    import jaxle_core as jc

    with jc.config.default_prng_impl("threefry2x32"):
        assert NS.random.key_impl(NS.random.key(0)) == "threefry2x32"
    with pytest.raises(ValueError, match="new enum value must be in"):
        jc.config.config.update("jax_default_prng_impl", "nope")


def test_samplers_take_the_sharding_an_aval_reports():
    from jaxle_core.avals import ShapedArray

    key = NS.random.key(0)
    outside_any_mesh = ShapedArray((2, 3), np.float32).sharding
    np.testing.assert_array_equal(np.asarray(NS.random.uniform(key, (2, 3), out_sharding=outside_any_mesh)),
                                  np.asarray(NS.random.uniform(key, (2, 3))))


def test_negative_sizes_raise_what_catches_as_jaxlibs_mlir_error():
    """jaxlib's MLIRError derives from Exception alone (no TypeError or ValueError handler catches it); so does the
    reference backend's stand-in."""
    with pytest.raises(Exception) as info:
        jc.jit(lambda k: random.bits(k, (-1,)))(random.key(0))
    assert type(info.value).__name__ == "MLIRError"
    assert type(info.value).__mro__[1:] == (Exception, BaseException, object)
