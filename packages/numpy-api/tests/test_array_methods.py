"""The Array's NumPy methods and properties: JAX's goldens (jaxprs, values, errors) and NumPy comparisons, on
arrays and tracers."""

import copy

import jnp_golden
import make_array_methods_golden
import make_indexing_signatures_golden
import numpy as np
import pytest

import jaxle_core
import jaxle_numpy as jnp

GOLDEN = jnp_golden.load("array_methods_golden.json")


@pytest.mark.parametrize("name", sorted(make_array_methods_golden.CASES))
def test_golden(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_array_methods_golden.CASES[name])
    jnp_golden.assert_case_matches(actual, GOLDEN[name])


X = np.arange(12, dtype=np.float32).reshape(3, 4) - 4.5


@pytest.mark.parametrize("method, args, kwargs", [
    ("sum", (), {"axis": 0}), ("prod", (1,), {}), ("max", (), {}), ("min", (), {"axis": 1}), ("mean", (), {}),
    ("var", (), {"ddof": 1}), ("std", (0,), {}), ("argmax", (), {"axis": 1}), ("argmin", (), {}),
    ("cumsum", (), {"axis": 1}), ("cumprod", (), {}), ("reshape", (4, 3), {}), ("reshape", ((2, 6),), {}),
    ("ravel", (), {}), ("flatten", (), {}), ("transpose", (), {}), ("transpose", (1, 0), {}),
    ("swapaxes", (0, 1), {}), ("diagonal", (), {"offset": 1}), ("astype", (np.int32,), {}),
    ("argsort", (), {"axis": 0}), ("trace", (), {}), ("take", (np.array([0, 11, 5]),), {}), ("copy", (), {}),
    ("all", (), {}), ("any", (), {"axis": 0}), ("view", (np.int32,), {}), ("view", (np.uint16,), {}),
    ("byteswap", (), {}),
])
def test_methods_against_numpy(method, args, kwargs):
    x = jnp.asarray(X)
    expected = getattr(X, method)(*args, **kwargs)
    np.testing.assert_allclose(np.asarray(getattr(x, method)(*args, **kwargs)), expected, rtol=1e-6)
    traced = jaxle_core.jit(lambda v: getattr(v, method)(*args, **kwargs))(X)
    np.testing.assert_allclose(np.asarray(traced), expected, rtol=1e-6)


def test_properties_and_protocols():
    x = jnp.asarray(X)
    np.testing.assert_array_equal(np.asarray(x.T), X.T)
    np.testing.assert_array_equal(np.asarray(x.sort(axis=0)), np.sort(X, axis=0))
    assert (x.itemsize, x.nbytes, x.__numpy_dtype__) == (4, 48, np.dtype(np.float32))
    assert x.__array_namespace__() is jnp
    np.testing.assert_array_equal(np.asarray(copy.deepcopy(x)), X)
    assert bool(jnp.asarray(X[0]).__contains__(X[0, 2])) and not bool(jnp.asarray(X[0]).__contains__(100.0))
    assert jaxle_core.jit(lambda v: (v.itemsize, v.nbytes) == (4, 48) and v.T)(X).shape == (4, 3)
    with pytest.raises(NotImplementedError, match="arr.flat"):
        x.flat  # noqa: B018 - the property raises


SIGNATURES = jnp_golden.load("indexing_signatures.json")


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_signature_is_jax(name):
    x = jnp.ones(2)
    ours = make_indexing_signatures_golden.signatures(jnp, x, x.at[0])
    assert ours[name] == SIGNATURES[name]
