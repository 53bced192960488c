"""jnp's polynomial functions: JAX's goldens, NumPy, gradients."""

import jnp_golden
import make_polynomial_golden
import numpy as np
import pytest

import jaxle_core
import jaxle_numpy as jnp
from jaxle_core.test_util import check_grads

GOLDEN = jnp_golden.load("polynomial_golden.json")
# errors whose message shows the tracer's repr, which is jaxle's own
TRACER_IN_MESSAGE = {"polyint_traced_m"}


@pytest.mark.parametrize("name", sorted(make_polynomial_golden.CASES))
def test_golden(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_polynomial_golden.CASES[name])
    jnp_golden.assert_case_matches(actual, GOLDEN[name], check_message=name not in TRACER_IN_MESSAGE)


def _close(got, expected):
    np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("sizes", [(1, 1), (3, 2), (2, 4), (5, 5)])
def test_arithmetic_matches_numpy(sizes):
    a, b = jnp_golden.rand((sizes[0],), "float32"), jnp_golden.rand((sizes[1],), "float32", 1)
    _close(jnp.polyadd(a, b), np.polyadd(a, b))
    _close(jnp.polysub(a, b), np.polysub(a, b))
    _close(jnp.polymul(a, b), np.polymul(a, b))
    _close(jnp.polyval(a, b), np.polyval(a, b))
    quotient, remainder = jnp.polydiv(a, b)
    expected_quotient, expected_remainder = np.polydiv(a, b)
    _close(quotient, expected_quotient)
    _close(remainder[-len(expected_remainder):], expected_remainder)


@pytest.mark.parametrize("m", [1, 2, 3])
def test_calculus_matches_numpy(m):
    p = jnp_golden.rand((5,), "float32")
    _close(jnp.polyder(p, m), np.polyder(p, m))
    _close(jnp.polyint(p, m), np.polyint(p, m))
    _close(jnp.polyint(p, m, k=np.arange(m, dtype=np.float32)), np.polyint(p, m, k=np.arange(m)))


def test_poly_of_roots_and_of_a_matrix():
    roots = jnp_golden.rand((4,), "float32")
    _close(jnp.poly(roots), np.poly(roots))
    matrix = jnp_golden.rand((3, 3), "float32")
    got = jnp.poly(matrix)
    assert got.dtype == np.complex64
    _close(got, np.poly(matrix))
    _close(jaxle_core.jit(jnp.poly)(matrix), np.poly(matrix))


def test_polymul_trims_concrete_leading_zeros():
    a = np.array([0.0, 0.0, 1.0, 2.0], np.float32)
    _close(jnp.polymul(a, np.array([3.0], np.float32), trim_leading_zeros=True), [3.0, 6.0])


def test_polydiv_trims_concrete_leading_zeros_of_the_remainder():
    quotient, remainder = jnp.polydiv(np.array([1.0, 3.0, 2.0, 1.0], np.float32), np.array([1.0, 1.0], np.float32),
                                      trim_leading_zeros=True)
    expected_quotient, expected_remainder = np.polydiv([1.0, 3.0, 2.0, 1.0], [1.0, 1.0])
    _close(quotient, expected_quotient)
    _close(remainder, expected_remainder)


def test_x64():
    with jaxle_core.config.enable_x64(True):
        p = jnp_golden.rand((4,), "int64")
        assert jnp.polyval(p, 2).dtype == np.int64
        assert jnp.polyval(p, 2.0).dtype == np.float64
        assert jnp.polyder(p).dtype == np.float64


def test_gradients():
    p, x = jnp_golden.rand((4,), "float32"), jnp_golden.rand((3,), "float32", 1)
    check_grads(jnp.polyval, (p, x), order=2, modes=["fwd", "rev"])
    check_grads(jnp.polymul, (p, x), order=1, modes=["fwd", "rev"])
    check_grads(lambda q: jnp.polyint(q, 2), (p,), order=1, modes=["fwd", "rev"])


@pytest.mark.parametrize("call", [lambda: jnp.polyder(1.0), lambda: jnp.polyint(np.float32(2)),
                                  lambda: jnp.polymul(1, np.ones(2, np.float32))])
def test_0d_coefficients_get_jax_type_error(call):
    with pytest.raises(TypeError, match="len\\(\\) of unsized object"):
        call()
