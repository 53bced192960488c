"""jnp.vectorize, frompyfunc, apply_along_axis and apply_over_axes: JAX's goldens and NumPy."""

import functools

import jnp_golden
import make_vectorize_golden
import numpy as np
import pytest

import jaxle_core
import jaxle_numpy as jnp

GOLDEN = jnp_golden.load("vectorize_golden.json")


@pytest.mark.parametrize("name", sorted(make_vectorize_golden.CASES))
def test_golden(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_vectorize_golden.CASES[name])
    # the tracer's repr in this message is jaxle's own
    jnp_golden.assert_case_matches(actual, GOLDEN[name])


def test_vectorize_matches_numpy_with_signature():
    a, v = jnp_golden.rand((3, 1, 2, 4), "float32"), jnp_golden.rand((5, 4), "float32", 1)
    f = jnp.vectorize(lambda m, x: jaxle_core.lax.dot_general(m, x, (((1,), (0,)), ((), ()))),
                      signature="(i,j),(j)->(i)")
    expected = np.vectorize(lambda m, x: m @ x, signature="(i,j),(j)->(i)")(a, v)
    np.testing.assert_allclose(np.asarray(f(a, v)), expected, rtol=1e-5)
    np.testing.assert_allclose(np.asarray(jaxle_core.jit(f)(a, v)), expected, rtol=1e-5)


def test_vectorize_drops_keywords_that_are_not_excluded_as_jax_does():
    f = jnp.vectorize(lambda a, b=5: a + b)
    np.testing.assert_array_equal(np.asarray(f(np.ones(2), b=1)), [6.0, 6.0])
    g = jnp.vectorize(lambda a, b=5: a + b, excluded={"b"})
    np.testing.assert_array_equal(np.asarray(g(np.ones(2), b=1)), [2.0, 2.0])


def test_vectorize_bad_excluded():
    with pytest.raises(ValueError, match=r"excluded=\{-1\} contains negative numbers"):
        jnp.vectorize(lambda a: a, excluded={-1})
    with pytest.raises(TypeError, match="can only exclude integer or string arguments"):
        jnp.vectorize(lambda a: a, excluded={1.5})


def test_frompyfunc_is_a_ufunc_with_numpys_attributes():
    f = jnp.frompyfunc(lambda x, y: x + y, 2, 1, identity=0)
    assert isinstance(f, jnp.ufunc)
    assert (f.nin, f.nout, f.nargs, f.identity, repr(f)) == (2, 1, 2, 0, "<jnp.ufunc '<lambda>'>")
    a, b = jnp_golden.rand((2, 3), "float32"), jnp_golden.rand((3,), "float32", 1)
    np.testing.assert_allclose(np.asarray(f(a, b)), a + b)
    np.testing.assert_allclose(np.asarray(f.reduce(a, axis=1)), a.sum(1), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(f.outer(b, b)), np.add.outer(b, b))


def test_frompyfunc_reduce_starts_from_the_identity():
    a = jnp_golden.rand((4,), "float32")
    with_identity = jnp.frompyfunc(lambda x, y: x * y + 1, 2, 1, identity=0)
    without = jnp.frompyfunc(lambda x, y: x * y + 1, 2, 1)
    np.testing.assert_allclose(np.asarray(with_identity.reduce(a)),
                               functools.reduce(lambda x, y: x * y + 1, a, np.float32(0)), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(without.reduce(a)), functools.reduce(lambda x, y: x * y + 1, a),
                               rtol=1e-6)


def test_apply_along_axis_matches_numpy():
    a = jnp_golden.rand((2, 3, 4), "float32")
    for axis in (0, 1, 2, -1):
        expected = np.apply_along_axis(lambda x: np.cumsum(x) * x[0], axis, a)
        got = jnp.apply_along_axis(lambda x: jaxle_core.lax.cumsum(x) * x[0], axis, a)
        np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-5)


def test_apply_over_axes_matches_numpy():
    a = jnp_golden.rand((2, 3, 4), "float32")
    expected = np.apply_over_axes(np.sum, a, [0, 2])
    got = jnp.apply_over_axes(lambda x, axis: jaxle_core.lax.reduce_sum(x, (axis,)), a, [0, 2])
    np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-5)
