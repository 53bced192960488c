"""jnp.linalg's norms, products and powers against NumPy over dtypes, orders, axes, batches and zero-size arrays,
under jit and vmap, with gradients checked numerically."""

import jnp_golden
import numpy as np
import pytest

import jaxle_core
import jaxle_numpy as jnp
from jaxle_core.test_util import check_grads

DTYPES = ["float32", "float64", "complex64", "complex128"]
VECTOR_ORDS = [None, 2, 1, 0, np.inf, -np.inf, 3, -1, 0.5]
MATRIX_ORDS = [None, "fro", 1, -1, np.inf, -np.inf]


def _tolerance(dtype):
    return 1e-5 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-12


def _assert_close(got, expected, dtype):
    tol = _tolerance(dtype)
    np.testing.assert_allclose(np.asarray(got), expected, rtol=tol, atol=tol)


@pytest.mark.filterwarnings("ignore:divide by zero:RuntimeWarning")  # NumPy's negative orders of a zero element
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ord", VECTOR_ORDS)
@pytest.mark.parametrize("axis", [None, 0, -1])
def test_vector_norm_matches_numpy(dtype, ord, axis):
    with jaxle_core.config.enable_x64(True):
        x = jnp_golden.rand((3, 4), dtype, seed=1)
        x[0, 0] = 0
        got = jnp.linalg.vector_norm(x, ord=2 if ord is None else ord, axis=axis)
        flat = x.ravel() if axis is None else x
        expected = np.linalg.norm(flat, ord=ord, axis=0 if axis is None else axis)
        assert got.dtype == np.abs(x).dtype
        _assert_close(got, expected, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ord", MATRIX_ORDS)
@pytest.mark.parametrize("axis, keepdims", [((0, 1), False), ((1, 0), True), ((2, 0), False), ((-1, -2), True)])
def test_matrix_norm_matches_numpy(dtype, ord, axis, keepdims):
    with jaxle_core.config.enable_x64(True):
        x = jnp_golden.rand((3, 4, 2), dtype, seed=2)
        got = jnp.linalg.norm(x, ord=ord, axis=axis, keepdims=keepdims)
        _assert_close(got, np.linalg.norm(x, ord=ord, axis=axis, keepdims=keepdims), dtype)
        stacked = jnp.linalg.matrix_norm(x, ord="fro" if ord is None else ord, keepdims=keepdims)
        _assert_close(stacked, np.linalg.norm(x, ord=ord, axis=(-2, -1), keepdims=keepdims), dtype)


@pytest.mark.parametrize("shape", [(0,), (0, 3), (3, 0), (2, 0, 2)])
def test_norms_of_empty_arrays(shape):
    x = np.zeros(shape, np.float32)
    _assert_close(jnp.linalg.norm(x), np.linalg.norm(x), "float32")
    _assert_close(jnp.linalg.vector_norm(x, ord=np.inf, axis=-1), np.zeros(shape[:-1]), "float32")
    _assert_close(jnp.linalg.vector_norm(x, ord=1), 0.0, "float32")


def test_norm_of_integers_and_booleans_is_float():
    x = np.array([[3, -4], [0, 12]], np.int32)
    assert jnp.linalg.norm(x).dtype == np.float32
    _assert_close(jnp.linalg.norm(x), 13.0, "float32")
    assert jnp.linalg.vector_norm(x, ord=1).dtype == np.int32  # the sum of magnitudes stays integer, as in JAX
    assert int(jnp.linalg.vector_norm(x, ord=1)) == 19
    _assert_close(jnp.linalg.norm(np.array([True, False, True])), np.sqrt(2), "float32")


def test_norm_under_jit_and_vmap():
    x = jnp_golden.rand((4, 3, 5), "float32", seed=3)
    batched = jaxle_core.vmap(lambda m: jnp.linalg.norm(m, ord=1))(x)
    _assert_close(batched, np.linalg.norm(x, ord=1, axis=(1, 2)), "float32")
    jitted = jaxle_core.jit(lambda m: jnp.linalg.vector_norm(m, ord=3, axis=0))(x)
    _assert_close(jitted, np.linalg.norm(x, ord=3, axis=0), "float32")


@pytest.mark.parametrize("ord", [None, 1, np.inf, 3])
def test_vector_norm_gradient(ord):
    x = jnp_golden.rand((4,), "float64", seed=4)
    with jaxle_core.config.enable_x64(True):
        check_grads(lambda v: jnp.linalg.norm(v, ord=ord), (x,), order=2, modes=["fwd", "rev"])


@pytest.mark.parametrize("ord", ["fro", 1, -np.inf])
def test_matrix_norm_gradient(ord):
    x = jnp_golden.rand((3, 4), "float64", seed=5)
    with jaxle_core.config.enable_x64(True):
        check_grads(lambda m: jnp.linalg.matrix_norm(m, ord=ord), (x,), order=1, modes=["fwd", "rev"])


@pytest.mark.parametrize("shapes", [[(2, 3), (3, 4)], [(3,), (3, 5), (5, 2), (2,)], [(2, 6), (6, 3), (3, 7), (7, 4)],
                                    [(4,), (4,)]])
def test_multi_dot_matches_numpy(shapes):
    arrays = [jnp_golden.rand(shape, "float32", seed) for seed, shape in enumerate(shapes)]
    _assert_close(jnp.linalg.multi_dot(arrays), np.linalg.multi_dot(arrays), "float32")


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 6, 7, 13])
@pytest.mark.parametrize("dtype", ["int32", "float32", "complex64"])
def test_matrix_power_matches_numpy(n, dtype):
    x = jnp_golden.rand((2, 3, 3), dtype, seed=n) / (1 if dtype == "int32" else 2)
    x = x.astype(dtype)
    got = jnp.linalg.matrix_power(x, n)
    assert got.dtype == x.dtype
    expected = np.linalg.matrix_power(x, n)
    if dtype == "int32":
        np.testing.assert_array_equal(np.asarray(got), expected)
    else:
        np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-4, atol=1e-4 * np.abs(expected).max())


def test_matrix_power_under_vmap_and_of_empty_matrices():
    x = jnp_golden.rand((4, 2, 2), "float32", seed=6)
    _assert_close(jaxle_core.vmap(lambda m: jnp.linalg.matrix_power(m, 5))(x), np.linalg.matrix_power(x, 5),
                  "float32")
    assert jnp.linalg.matrix_power(np.zeros((2, 0, 0), np.float32), 3).shape == (2, 0, 0)


def test_array_api_forms_match_numpy():
    a, b = jnp_golden.rand((2, 3, 3), "float32", 7), jnp_golden.rand((2, 3, 3), "float32", 8)
    _assert_close(jnp.linalg.cross(a, b), np.linalg.cross(a, b), "float32")
    _assert_close(jnp.linalg.outer(a[0, 0], b[0, 1]), np.linalg.outer(a[0, 0], b[0, 1]), "float32")
    _assert_close(jnp.linalg.matmul(a, b), np.linalg.matmul(a, b), "float32")
    _assert_close(jnp.linalg.trace(a, offset=1), np.linalg.trace(a, offset=1), "float32")
    _assert_close(jnp.linalg.diagonal(a, offset=-1), np.linalg.diagonal(a, offset=-1), "float32")
    _assert_close(jnp.linalg.matrix_transpose(a), np.linalg.matrix_transpose(a), "float32")
    _assert_close(jnp.linalg.vecdot(a, b, axis=1), np.linalg.vecdot(a, b, axis=1), "float32")
    axes = ((1, 2), (2, 1))
    _assert_close(jnp.linalg.tensordot(a, b, axes=axes), np.linalg.tensordot(a, b, axes=axes), "float32")
