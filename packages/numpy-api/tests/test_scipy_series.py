"""The ``jax.scipy.special`` functions evaluated by jaxle's own series, continued fractions, quadratures and
recurrences (exponential, sine/cosine, Spence, Owen's T, Gauss hypergeometric, spherical harmonics, Bernoulli
numbers): JAX 0.10.2's values and errors (golden/make_scipy_series_golden.py; jaxprs are not compared, the algorithms
differ by design) and SciPy's values in float32 and float64, with ``wofz``, ``dawsn``, ``fresnel``, ``hyp1f1`` and
``bessel_jn`` (JAX's algorithms, golden cases in test_scipy_special.py) beside them against SciPy."""

import sys

import numpy as np
import pytest
import scipy.special

from jaxle_core import config, grad, jit, vmap
from jaxle_numpy.scipy import special

sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent / "golden"))
import jnp_golden  # noqa: E402
import scipy_golden  # noqa: E402
from make_scipy_series_golden import CASES  # noqa: E402

GOLDEN = jnp_golden.load("scipy_series_golden.json")


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_values_and_errors(name):
    actual = jnp_golden.run_case(scipy_golden.jaxle_namespace(), CASES[name])
    jnp_golden.assert_case_matches(dict(actual, jaxpr=None), dict(GOLDEN[name], jaxpr=None))


RNG = np.random.default_rng(3)
POSITIVE = np.concatenate([RNG.uniform(0.01, 40, 10), [1e-4, 1.0, 2.0, 2.01, 60.0]])
SIGNED = np.concatenate([RNG.uniform(-12, 12, 10), [-1e-3, 0.15, 0.25, 1.25, 4.5]])

CASES_VS_SCIPY = {
    "exp1": (POSITIVE,), "expi": (SIGNED,), "dawsn": (SIGNED,), "spence": (POSITIVE,), "sici": (SIGNED,),
    "fresnel": (SIGNED,), "expn": (np.arange(15) % 7, POSITIVE / 4), "owens_t": (SIGNED / 3, SIGNED[::-1] / 2),
}
RTOL32 = {"exp1": 5e-6, "fresnel": 2e-5, "sici": 1e-5, "expi": 5e-6}
# JAX's piecewise evaluations run every piece's loop on every element of a batch (a vmapped cond selects): on the
# NumPy reference backend a piece that converges slowly far outside its range (the continued fraction near 0)
# takes minutes in Python, so these are compared one point at a time, where each point runs its own piece only.
ONE_POINT_AT_A_TIME = {"exp1", "expi", "expn"}


def _as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


@pytest.mark.parametrize("x64", [False, True])
@pytest.mark.parametrize("name", sorted(CASES_VS_SCIPY))
def test_against_scipy(name, x64):
    dtype = np.float64 if x64 else np.float32
    args = [np.asarray(a, dtype) for a in CASES_VS_SCIPY[name]]
    wants = _as_tuple(getattr(scipy.special, name)(*(a.astype(np.float64) for a in args)))
    function = getattr(special, name)
    with config.enable_x64(x64):
        if name in ONE_POINT_AT_A_TIME:
            gots = (np.stack([function(*point) for point in zip(*args)]),)
        else:
            gots = _as_tuple(function(*args))
    for got, want in zip(gots, wants):
        assert got.dtype == dtype
        np.testing.assert_allclose(got, want, rtol=1e-12 if x64 else RTOL32.get(name, 2e-6), atol=1e-300 if x64
                                   else 1e-7, err_msg=name)


def test_wofz_hypergeometric_bessel_and_harmonics_against_scipy():
    z = np.array([1 + 1j, 0.5 + 0.2j, 3j, 0.1 + 0.01j, 5 + 0.5j, 20 + 1j, 2.0, 1 - 3j, -2 - 1j])
    x = np.array([-80.0, -30.0, -1.0, 0.0, 0.5, 3.0, 10.0, 50.0])
    y = np.array([-50.0, -5.0, -0.9, 0.0, 0.3, 0.9, 0.99])
    with config.enable_x64(True):
        np.testing.assert_allclose(special.wofz(z), scipy.special.wofz(z), rtol=1e-12)
        # JAX's power series cancels for large negative x (there its golden values are the reference)
        for a, b in ((0.5, 1.5), (-2.0, 1.5), (2.5, -1.5), (1.0, 3.0)):
            np.testing.assert_allclose(special.hyp1f1(a, b, x[2:]), scipy.special.hyp1f1(a, b, x[2:]), rtol=2e-15)
        for a, b, c in ((0.5, 1.5, 2.0), (-2.0, 1.5, 2.0), (1.0, 2.0, 4.0)):
            np.testing.assert_allclose(special.hyp2f1(a, b, c, y), scipy.special.hyp2f1(a, b, c, y), rtol=1e-12)
        assert special.hyp2f1(0.5, 1.5, 2.0, 1.0) == np.inf
        np.testing.assert_allclose(special.hyp2f1(0.5, 0.5, 2.0, 1.0), scipy.special.hyp2f1(0.5, 0.5, 2.0, 1.0),
                                   rtol=1e-12)
        z = np.array([1e-3, 0.5, 2.0, 10.0, 30.0])
        # JAX's recurrence runs 50 orders from the top: 5e-9 relative error left at z = 30
        orders, want = special.bessel_jn(z, v=4), scipy.special.jv(np.arange(5)[:, None], z)
        np.testing.assert_allclose(orders[:, :4], want[:, :4], rtol=1e-13, atol=1e-300)
        np.testing.assert_allclose(orders[:, 4], want[:, 4], rtol=1e-8)
        n, m = np.array([0, 1, 2, 3, 5, 6, 4, 1]), np.array([0, 1, -1, 2, -3, 6, 5, -1])
        theta = np.array([0.3, 0.5, 1.0, 2.0, 2.5, 1.2, 0.7, 0.0])
        phi = np.array([0.1, 0.2, 0.3, 0.4, 1, -0.5, 0.3, 0.7])
        np.testing.assert_allclose(special.sph_harm_y(n, m, theta, phi), scipy.special.sph_harm_y(n, m, theta, phi),
                                   atol=1e-14)
    np.testing.assert_allclose(special.bernoulli(12), scipy.special.bernoulli(12), rtol=1e-7)
    assert special.wofz(z.astype(np.complex64)).dtype == np.complex64
    assert special.sph_harm_y(n, m, theta.astype(np.float32), phi.astype(np.float32)).dtype == np.complex64


def test_gradients_and_transforms():
    with config.enable_x64(True):
        np.testing.assert_allclose(grad(special.exp1)(1.5), -np.exp(-1.5) / 1.5, rtol=1e-10)
        np.testing.assert_allclose(grad(special.expi)(2.5), np.exp(2.5) / 2.5, rtol=1e-10)
        np.testing.assert_allclose(grad(special.dawsn)(0.7), 1 - 2 * 0.7 * scipy.special.dawsn(0.7), rtol=1e-10)
        np.testing.assert_allclose(grad(special.spence)(1.7), np.log(1.7) / (1 - 1.7), rtol=1e-10)
        owens_derivative = -np.exp(-0.32) * scipy.special.erf(0.4 / np.sqrt(2)) / (2 * np.sqrt(2 * np.pi))
        np.testing.assert_allclose(grad(lambda t: special.owens_t(t, 0.5))(0.8), owens_derivative, rtol=1e-10)
    x = POSITIVE[:6].astype(np.float32)
    np.testing.assert_allclose(jit(special.exp1)(x), special.exp1(x), rtol=1e-6)
    np.testing.assert_allclose(vmap(special.dawsn)(x), special.dawsn(x), rtol=1e-6)
