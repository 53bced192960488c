"""jnp's products: JAX's goldens (jaxprs, values, weak types, errors), NumPy over dtypes, gradients."""

import jnp_golden
import make_products_golden
import numpy as np
import pytest

import jaxle_core
import jaxle_numpy as jnp
from jaxle_core.test_util import check_grads

GOLDEN = jnp_golden.load("products_golden.json")


@pytest.mark.parametrize("name", sorted(make_products_golden.CASES))
def test_golden(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_products_golden.CASES[name])
    jnp_golden.assert_case_matches(actual, GOLDEN[name])


def _np(x):
    return np.asarray(x)


@pytest.mark.parametrize("dtype", ["int16", "uint8", "float32", "complex64"])
@pytest.mark.parametrize("shapes", [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 2)), ((2, 3), (3, 4)),
                                    ((2, 1, 2, 3), (4, 3, 2)), ((2, 2, 3), (3,)), ((3,), (2, 3, 2))])
def test_matmul_and_dot_match_numpy(shapes, dtype):
    a, b = jnp_golden.rand(shapes[0], dtype), jnp_golden.rand(shapes[1], dtype, 1)
    np.testing.assert_allclose(_np(jnp.matmul(a, b)), np.matmul(a, b), rtol=1e-5)
    if len(shapes[1]) <= 2:
        np.testing.assert_allclose(_np(jnp.dot(a, b)), np.dot(a, b), rtol=1e-5)
    np.testing.assert_allclose(_np(jaxle_core.jit(jnp.matmul)(a, b)), np.matmul(a, b), rtol=1e-5)


def test_other_products_match_numpy():
    a, b = jnp_golden.rand((2, 3, 4), "float32"), jnp_golden.rand((4, 3, 2), "float32", 1)
    np.testing.assert_allclose(_np(jnp.tensordot(a, b, ([1, 2], [1, 0]))), np.tensordot(a, b, ([1, 2], [1, 0])),
                               rtol=1e-5)
    np.testing.assert_allclose(_np(jnp.inner(a, a)), np.inner(a, a), rtol=1e-5)
    np.testing.assert_allclose(_np(jnp.outer(a, b)), np.outer(a, b), rtol=1e-5)
    np.testing.assert_allclose(_np(jnp.kron(a, b)), np.kron(a, b), rtol=1e-5)
    np.testing.assert_allclose(_np(jnp.trace(a, 1, 2, 0)), np.trace(a, 1, 2, 0), rtol=1e-5)
    c = jnp_golden.rand((2, 3), "complex64")
    np.testing.assert_allclose(_np(jnp.vdot(c, c)), np.vdot(c, c), rtol=1e-5)
    np.testing.assert_allclose(_np(jnp.vecdot(c, c[0])), np.vecdot(c, c[0]) if hasattr(np, "vecdot")
                               else (c.conj() * c[0]).sum(-1), rtol=1e-5)
    u, v = jnp_golden.rand((4, 3), "float32"), jnp_golden.rand((2, 1, 2), "float32", 1)
    v3 = np.concatenate([v, np.zeros((2, 1, 1), np.float32)], -1)  # NumPy 2 deprecates 2-vectors: a zero z instead
    np.testing.assert_allclose(_np(jnp.cross(u, v)), np.cross(u, v3), rtol=1e-5)
    u3 = np.concatenate([u[:, :2], np.zeros((4, 1), np.float32)], -1)
    np.testing.assert_allclose(_np(jnp.cross(u[:, :2], v)), np.cross(u3, v3)[..., 2], rtol=1e-5)  # z alone


def test_products_under_x64():
    with jaxle_core.config.enable_x64(True):
        a = jnp_golden.rand((2, 3), "float64")
        out = jnp.dot(a, a.T)
        assert out.dtype == np.float64
        np.testing.assert_allclose(_np(out), a @ a.T)
        assert jnp.trace(jnp_golden.rand((3, 3), "int8")).dtype == np.int64
        assert jnp.trace(jnp_golden.rand((3, 3), "uint8")).dtype == np.uint64
        # int64 with uint64 promotes to a weak float64, which jnp.array in cross makes strong (as JAX's)
        c = jnp.cross(jnp_golden.rand((3,), "int64"), jnp_golden.rand((3,), "uint64", 1))
        assert c.dtype == np.float64 and not c.weak_type


def test_gradients():
    a, b = jnp_golden.rand((2, 3), "float32"), jnp_golden.rand((3, 2), "float32", 1)
    check_grads(jnp.matmul, (a, b), order=2, modes=["fwd", "rev"])
    check_grads(lambda x, y: jnp.tensordot(x, y, 1), (a, b), order=1, modes=["fwd", "rev"])
    check_grads(jnp.kron, (a, b), order=1, modes=["fwd", "rev"])
    check_grads(lambda x: jnp.trace(x, 1), (a,), order=1, modes=["fwd", "rev"])
    u, v = jnp_golden.rand((3,), "float32"), jnp_golden.rand((3,), "float32", 1)
    check_grads(jnp.cross, (u, v), order=1, modes=["fwd", "rev"])
    check_grads(jnp.vecdot, (a, a), order=1, modes=["fwd", "rev"])


def test_inside_scan_and_cond():
    matrix = jnp_golden.rand((3, 3), "float32")
    vector = jnp_golden.rand((3,), "float32", 1)

    def step(v, _):
        return jnp.matmul(matrix, v), jnp.vdot(v, v)

    final, norms = jaxle_core.lax.scan(step, vector, None, length=3)
    expected, expected_norms = vector, []
    for _ in range(3):
        expected_norms.append(expected @ expected)
        expected = matrix @ expected
    np.testing.assert_allclose(_np(final), expected, rtol=1e-5)
    np.testing.assert_allclose(_np(norms), expected_norms, rtol=1e-5)
    chosen = jaxle_core.lax.cond(True, lambda m: jnp.trace(m), lambda m: jnp.dot(m[0], m[1]), matrix)
    np.testing.assert_allclose(_np(chosen), np.trace(matrix), rtol=1e-5)
