"""jnp's array creation against JAX 0.10.2's records (jaxprs, values, weak types, errors) and against NumPy."""

import warnings

import jnp_golden
import make_array_creation_golden
import numpy as np
import pytest

import jaxle_core
import jaxle_numpy as jnp
from jaxle_core import config
from jaxle_core.test_util import check_grads

GOLDEN = jnp_golden.load("array_creation_golden.json")


@pytest.mark.parametrize("name", sorted(make_array_creation_golden.CASES))
def test_golden(name):
    expected = GOLDEN[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_array_creation_golden.CASES[name])
    # An object's address in a message differs from run to run.
    jnp_golden.assert_case_matches(actual, expected, check_message="0x" not in expected.get("message", ""))


@pytest.mark.parametrize("value", [[1, 2, 3], [[1.5, -0.0], [np.nan, np.inf]], [True, False], [1 + 2j, 3],
                                   np.arange(6).reshape(2, 3), np.float32(2.5), (np.int8(1), np.int8(-2)), []])
def test_array_matches_numpy_values(value):
    out = jnp.array(value)
    expected = np.array(value)
    np.testing.assert_array_equal(np.asarray(out), expected)
    assert out.shape == expected.shape
    assert out.dtype == jaxle_core.dtypes.canonicalize_dtype(expected.dtype)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int32", "float16", "bfloat16", "float32", "complex64"])
def test_asarray_dtype(dtype):
    out = jnp.asarray([0, 1, 2], dtype=dtype)
    assert out.dtype == np.dtype(jnp.dtype(dtype)) and not out.weak_type
    expected = np.array([0, 1, 2]).astype(jnp.dtype(dtype))
    np.testing.assert_array_equal(np.asarray(out).astype(expected.dtype), expected)


def test_x64_keeps_64_bit_types():
    with config.enable_x64(True):
        assert jnp.array(1.0).dtype == np.float64 and jnp.array(1.0).weak_type
        assert jnp.array([1, 2]).dtype == np.int64
        assert jnp.array(2**40).item() == 2**40
        assert jnp.zeros(2).dtype == np.float64
        assert jnp.full(2, 1.5, jnp.float64).dtype == np.float64
        assert jnp.array(np.arange(3.0)).dtype == np.float64
    assert jnp.array(np.arange(3.0)).dtype == np.float32


def test_requested_64_bit_dtype_warns_naming_the_function():
    for fn, name in [(lambda: jnp.zeros(2, np.float64), "zeros"), (lambda: jnp.array(1, np.float64), "array"),
                     (lambda: jnp.float64(1), "asarray"), (lambda: jnp.ones(2, dtype=np.float64), "ones"),
                     (lambda: jnp.full_like(np.ones(2), 1, np.float64), "full_like")]:
        with pytest.warns(UserWarning, match=f"requested in {name} is not available"):
            assert fn().dtype == np.float32


def test_array_positional_arguments_are_deprecated():
    with pytest.warns(DeprecationWarning, match="positionally is deprecated"):
        out = jnp.array([1, 2], None, True, "K", 2)
    assert out.shape == (1, 2)


@pytest.mark.parametrize("fn, like", [(jnp.zeros, np.zeros), (jnp.ones, np.ones)])
@pytest.mark.parametrize("shape", [(), 0, 3, (2, 0), (2, 3)])
def test_filled_match_numpy(fn, like, shape):
    out = fn(shape, jnp.int16)
    np.testing.assert_array_equal(np.asarray(out), like(shape, np.int16))
    assert out.dtype == np.int16


def test_creation_under_jit_and_vmap():
    def f(x):
        return jnp.array([x, 2 * x]) + jnp.ones(2) - 1.0 + jnp.full_like(x, 1.0) + jnp.zeros_like(x)

    x = np.float32(3.0)
    np.testing.assert_allclose(np.asarray(jaxle_core.jit(f)(x)), [4.0, 7.0])
    batched = jaxle_core.vmap(f)(np.arange(3, dtype=np.float32))
    np.testing.assert_allclose(np.asarray(batched), [[1, 1], [2, 3], [3, 5]])
    full = jaxle_core.vmap(lambda v: jnp.full((2,), v))(np.arange(3, dtype=np.float32))
    np.testing.assert_array_equal(np.asarray(full), np.repeat(np.arange(3.0), 2).reshape(3, 2))


def test_gradient_flows_through_array_of_tracers():
    def f(x):
        return jaxle_core.lax.reduce_sum(jnp.array([[x, 2.0], [3.0, x * x]]) ** 2, (0, 1))

    g = jaxle_core.grad(f)(np.float32(1.5))
    np.testing.assert_allclose(np.asarray(g), 2 * 1.5 + 4 * 1.5**3, rtol=1e-6)
    check_grads(lambda x: jnp.asarray(x) * jaxle_core.lax.reduce_sum(jnp.array([x, x]), (0,)), (np.float32(0.7),),
                order=2)


# JAX 0.10.2 warns as NumPy does (same category and message) when lax.convert_element_type, jnp.array/asarray or a
# scalar type convert complex values to a real dtype, eagerly and while tracing; x.astype gives its own
# DeprecationWarning alone, and jnp.real, jnp.abs do not warn.
Z = np.array([1 + 2j, 3 - 1j], np.complex64)


def _numpy_complex_warning():
    with pytest.warns(np.exceptions.ComplexWarning) as record:
        expected = np.asarray(Z, dtype=np.float32)
    return expected, str(record[0].message)


@pytest.mark.parametrize("convert", [
    lambda z: jaxle_core.lax.convert_element_type(z, np.float32),
    lambda z: jnp.asarray(z, dtype=np.float32),
    lambda z: jnp.array(z, dtype=np.float32),
    lambda z: jnp.float32(z),
    lambda z: jaxle_core.jit(lambda a: jnp.asarray(a, dtype=np.float32))(z),
    lambda z: jaxle_core.jit(lambda a: jaxle_core.lax.convert_element_type(a, np.float32))(z),
])
def test_complex_to_real_conversion_warns_as_numpy(convert):
    expected, message = _numpy_complex_warning()
    z = jnp.asarray(Z)
    with pytest.warns(np.exceptions.ComplexWarning) as record:
        out = convert(z)
    assert [str(w.message) for w in record if w.category is np.exceptions.ComplexWarning] == [message]
    np.testing.assert_array_equal(np.asarray(out), expected)


def test_complex_to_real_conversion_warns_when_staged():
    _, message = _numpy_complex_warning()
    with pytest.warns(np.exceptions.ComplexWarning, match=message):
        jaxpr = jaxle_core.make_jaxpr(lambda a: jaxle_core.lax.convert_element_type(a, np.int32))(Z)
    assert "convert_element_type" in str(jaxpr)


def test_complex_parts_and_astype_do_not_give_the_complex_warning():
    z = jnp.asarray(Z)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        np.testing.assert_array_equal(np.asarray(jnp.real(z)), Z.real)
        np.testing.assert_allclose(np.asarray(jnp.abs(z)), np.abs(Z), rtol=1e-6)
        np.testing.assert_array_equal(np.asarray(z.astype(np.float32)), Z.real)
    assert [w.category for w in record] == [DeprecationWarning]
