"""``jax.scipy.special.logsumexp``, ``softmax`` and ``log_softmax``: JAX 0.10.2's jaxprs, values and errors
(golden/make_scipy_softmax_golden.py), values against SciPy, gradients against finite differences."""

import sys

import numpy as np
import pytest
import scipy.special

from jaxle_core import config, jit, vmap
from jaxle_core.test_util import check_grads
from jaxle_numpy.scipy import special

sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent / "golden"))
import jnp_golden  # noqa: E402
import scipy_golden  # noqa: E402
from make_scipy_softmax_golden import CASES  # noqa: E402

GOLDEN = jnp_golden.load("scipy_softmax_golden.json")


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name):
    jnp_golden.assert_case_matches(jnp_golden.run_case(scipy_golden.jaxle_namespace(), CASES[name]), GOLDEN[name])


RNG = np.random.default_rng(0)
A = RNG.normal(size=(3, 4)) * 30


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1), -1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_logsumexp_against_scipy_x64(axis, keepdims):
    b = RNG.normal(size=(3, 4))
    with config.enable_x64(True):
        np.testing.assert_allclose(special.logsumexp(A, axis=axis, keepdims=keepdims),
                                   scipy.special.logsumexp(A, axis=axis, keepdims=keepdims), rtol=1e-13)
        out, sign = special.logsumexp(A, axis=axis, b=b, keepdims=keepdims, return_sign=True)
        want, want_sign = scipy.special.logsumexp(A, axis=axis, b=b, keepdims=keepdims, return_sign=True)
        np.testing.assert_allclose(out, want, rtol=1e-12)
        np.testing.assert_array_equal(sign, want_sign)


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_softmax_and_log_softmax_against_scipy(axis):
    x = A.astype(np.float32)
    np.testing.assert_allclose(special.softmax(x, axis=axis), scipy.special.softmax(x, axis=axis), rtol=2e-5,
                               atol=1e-30)
    np.testing.assert_allclose(special.log_softmax(x, axis=axis), scipy.special.log_softmax(x, axis=axis),
                               rtol=2e-5, atol=1e-4)


def test_logsumexp_where_and_broadcast_b():
    where = A > 0
    np.testing.assert_allclose(special.logsumexp(A.astype(np.float32), axis=1, where=where),
                               scipy.special.logsumexp(np.where(where, A, -np.inf), axis=1), rtol=1e-6)
    b = np.array([1.0, 2.0, 0.0, 3.0], np.float32)
    np.testing.assert_allclose(special.logsumexp(A.astype(np.float32), axis=1, b=b),
                               scipy.special.logsumexp(A, axis=1, b=b), rtol=1e-6)


def test_gradients():
    x = RNG.normal(size=(2, 3))
    with config.enable_x64(True):
        check_grads(lambda a: special.logsumexp(a, axis=1), (x,), order=2, modes=["fwd", "rev"])
        check_grads(lambda a: special.softmax(a, axis=0), (x,), order=2, modes=["fwd", "rev"])
        check_grads(lambda a: special.log_softmax(a, axis=1), (x,), order=1, modes=["fwd", "rev"])


def test_jit_and_vmap_agree_with_eager():
    x = A.astype(np.float32)
    np.testing.assert_allclose(jit(lambda a: special.logsumexp(a, axis=1))(x), special.logsumexp(x, axis=1),
                               rtol=1e-6)
    np.testing.assert_allclose(vmap(special.softmax)(x), np.stack([special.softmax(row) for row in x]), rtol=1e-6)
