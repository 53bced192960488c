"""``jax.scipy.stats``: every distribution function against SciPy (float32 and float64, in and outside the
support, broadcasting parameters), the sample summaries, gradients, jit/vmap, and JAX 0.10.2's jaxprs, values
and errors for a sample (golden/make_scipy_stats_golden.py)."""

import sys

import numpy as np
import pytest
import scipy.stats

from jaxle_core import config, grad, jit, vmap
from jaxle_core.test_util import check_grads
from jaxle_numpy.scipy import stats

sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent / "golden"))
import jnp_golden  # noqa: E402
import make_scipy_kde_golden  # noqa: E402
import scipy_golden  # noqa: E402
from make_scipy_stats_golden import CASES  # noqa: E402

GOLDEN = jnp_golden.load("scipy_stats_golden.json")


KDE_SUITES = jnp_golden.float32_and_x64(make_scipy_kde_golden.CASES, "scipy_kde_golden.json",
                                        make_scipy_kde_golden.CASES_X64, "scipy_kde_x64_golden.json")


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name):
    scipy_golden.assert_case_matches(CASES[name], GOLDEN[name])


@pytest.mark.parametrize("x64, name", sorted((x64, name) for x64, (cases, _) in KDE_SUITES.items() for name in cases))
def test_gaussian_kde_golden(x64, name):
    """Every method of ``gaussian_kde``: JAX's jaxprs, values, weak types and errors, float32 and 64-bit."""
    cases, records = KDE_SUITES[x64]
    with config.enable_x64(x64):
        scipy_golden.assert_case_matches(cases[name], records[name])


X = np.array([-2.5, -0.7, 0.0, 0.3, 1.2, 4.0])
UNIT = np.array([0.0, 0.05, 0.3, 0.5, 0.9, 1.0])
POSITIVE = np.array([0.2, 0.5, 1.0, 2.5, 6.0, 11.0])
COUNTS = np.array([-1.0, 0.0, 1.0, 2.0, 3.0, 7.0])
LOC, SCALE = np.float64(0.3), np.array([[0.5], [2.0]])  # parameters broadcast against x: results are (2, 6)

# distribution -> (its arguments after x/k/q, the points its density/mass functions take)
CONTINUOUS = {
    "norm": ((LOC, SCALE), X), "cauchy": ((LOC, SCALE), X), "logistic": ((LOC, SCALE), X),
    "laplace": ((LOC, SCALE), X), "uniform": ((LOC, SCALE), X), "expon": ((LOC, SCALE), X),
    "gumbel_r": ((LOC, SCALE), X), "gumbel_l": ((LOC, SCALE), X), "t": ((np.array([[1.5], [7.0]]), LOC, 1.3), X),
    "gamma": ((np.array([[0.7], [3.0]]), LOC, 1.5), X), "chi2": ((np.array([[1.0], [5.0]]), LOC, 1.5), X),
    "beta": ((np.array([[0.7], [3.0]]), 2.5, -0.5, 2.0), X), "pareto": ((np.array([[1.5], [3.0]]), -1.0, 0.8), X),
    "truncnorm": ((-1.0, np.array([[0.5], [2.5]]), LOC, 1.3), X), "gennorm": ((np.array([[0.8], [2.5]]),), X),
    "vonmises": ((np.array([[0.5], [4.0]]),), X), "wrapcauchy": ((np.array([[0.2], [0.7]]),), X + 2.5),
}
DISCRETE = {
    "poisson": ((np.array([[0.5], [4.0]]),), COUNTS), "bernoulli": ((np.array([[0.2], [0.7]]),), COUNTS),
    "binom": ((6.0, np.array([[0.2], [0.7]])), COUNTS), "geom": ((np.array([[0.2], [0.7]]),), COUNTS),
    "nbinom": ((3.0, np.array([[0.2], [0.7]])), COUNTS), "betabinom": ((6.0, np.array([[0.5], [3.0]]), 2.0), COUNTS),
}
QUANTILE_FUNCTIONS = {"ppf", "isf"}


def _cases():
    for name, (args, points) in {**CONTINUOUS, **DISCRETE}.items():
        module = getattr(stats, name)
        for function in module.__all__:
            if function == "entropy":
                continue
            if function in QUANTILE_FUNCTIONS:
                yield name, function, (UNIT[1:-1],) + args
            elif name == "bernoulli" and function in ("cdf", "ppf"):
                yield name, function, (points if function == "cdf" else UNIT[1:-1], args[0])
            else:
                yield name, function, (points,) + args


CASES_VS_SCIPY = sorted(_cases())
RTOL32 = {("pareto", "ppf"): 1e-4, ("truncnorm", "logsf"): 1e-4, ("truncnorm", "logcdf"): 1e-4}
RTOL64 = {("betabinom", "logpmf"): 2e-6, ("betabinom", "pmf"): 2e-6}  # JAX's series for betaln


@pytest.mark.parametrize("x64", [False, True])
@pytest.mark.parametrize("name, function, args", CASES_VS_SCIPY, ids=[f"{n}.{f}" for n, f, _ in CASES_VS_SCIPY])
def test_against_scipy(name, function, args, x64):
    dtype = np.float64 if x64 else np.float32
    args = tuple(np.asarray(a, dtype) for a in args)
    want = getattr(getattr(scipy.stats, name), function)(*(a.astype(np.float64) for a in args))
    if name == "bernoulli" and function == "ppf":  # SciPy's ppf(0) is -1, JAX's 0; the interior agrees
        want = np.where(args[0] == 0, 0, want)
    with config.enable_x64(x64):
        got = getattr(getattr(stats, name), function)(*args)
    assert got.dtype == dtype
    want = np.broadcast_to(want, got.shape).astype(dtype)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(np.isinf(got) & (got > 0), np.isinf(want) & (want > 0))
    rtol = RTOL64.get((name, function), 1e-9) if x64 else RTOL32.get((name, function), 2e-5)
    np.testing.assert_allclose(np.where(np.isfinite(want), got, 0), np.where(np.isfinite(want), want, 0),
                               rtol=rtol, atol=1e-12 if x64 else 2e-6)


def test_dirichlet_and_multinomial_against_scipy():
    alpha = np.array([1.5, 2.0, 3.0])
    points = np.array([[0.2, 0.3], [0.3, 0.1], [0.5, 0.6]])  # two points of the simplex, components first
    with config.enable_x64(True):
        np.testing.assert_allclose(stats.dirichlet.logpdf(points, alpha), scipy.stats.dirichlet.logpdf(points, alpha),
                                   rtol=1e-12)
        np.testing.assert_allclose(stats.dirichlet.pdf(points[:2], alpha), scipy.stats.dirichlet.pdf(points, alpha),
                                   rtol=1e-12)
        assert stats.dirichlet.logpdf(np.array([0.2, 0.3, 0.6]), alpha) == -np.inf
        p = np.array([0.2, 0.3, 0.5])
        counts = np.array([[1, 2, 3], [0, 0, 6], [1, 1, 1]])
        np.testing.assert_allclose(stats.multinomial.logpmf(counts, 6, p),
                                   [scipy.stats.multinomial.logpmf(counts[0], 6, p),
                                    scipy.stats.multinomial.logpmf(counts[1], 6, p), -np.inf], rtol=1e-12)
        np.testing.assert_allclose(stats.multinomial.pmf(counts[0], 6, p), scipy.stats.multinomial.pmf(counts[0], 6, p),
                                   rtol=1e-12)
    with pytest.raises(ValueError, match="must be one-dimensional"):
        stats.dirichlet.logpdf(points, alpha[None])
    with pytest.raises(ValueError, match="x and n must be of integer type"):
        stats.multinomial.logpmf(counts.astype(np.float32), 6, p)


def test_poisson_entropy_against_scipy():
    """Sums over the probable counts below mu = 100, beyond two terms of the asymptotic series (as JAX), whose
    error is about 1 / (24 mu^2)."""
    mu = np.array([0.0, 0.5, 5.0, 50.0, 500.0])
    with config.enable_x64(True):
        np.testing.assert_allclose(stats.poisson.entropy(mu[:4]), scipy.stats.poisson.entropy(mu[:4]), rtol=1e-8,
                                   atol=1e-12)
        np.testing.assert_allclose(stats.poisson.entropy(mu[4:]), scipy.stats.poisson.entropy(mu[4:]), rtol=0,
                                   atol=1 / (12 * 500.0 ** 2))
    np.testing.assert_allclose(stats.poisson.entropy(mu.astype(np.float32)), scipy.stats.poisson.entropy(mu),
                               rtol=2e-5, atol=1e-6)


def test_summaries_against_scipy():
    rng = np.random.default_rng(0)
    a = rng.integers(0, 4, size=(5, 6)).astype(np.float32)
    for axis in (0, 1, None):
        got = stats.mode(a, axis=axis)
        want = scipy.stats.mode(a, axis=axis)
        np.testing.assert_array_equal(got.mode, want.mode)
        np.testing.assert_array_equal(got.count, want.count)
        assert got.count.dtype == np.int32
        for method in ("average", "min", "max", "dense", "ordinal"):
            np.testing.assert_array_equal(stats.rankdata(a, method, axis=axis),
                                          scipy.stats.rankdata(a, method, axis=axis))
        np.testing.assert_allclose(stats.sem(a, axis=axis), scipy.stats.sem(a, axis=axis), rtol=1e-6)
    np.testing.assert_array_equal(stats.mode(a, axis=1, keepdims=True).mode,
                                  scipy.stats.mode(a, axis=1, keepdims=True).mode)
    np.testing.assert_allclose(stats.sem(a, axis=1, ddof=0, keepdims=True),
                               scipy.stats.sem(a, axis=1, ddof=0, keepdims=True), rtol=1e-6)
    with_nan = np.array([[1.0, np.nan, np.nan], [2.0, 2.0, np.nan]])
    np.testing.assert_array_equal(stats.mode(with_nan, axis=1).mode, [np.nan, 2.0])
    assert np.isnan(stats.rankdata(with_nan[0])).all()
    with pytest.raises(NotImplementedError, match="omit"):
        stats.rankdata(a, nan_policy="omit")
    with pytest.raises(ValueError, match="unknown method 'foo'"):
        stats.rankdata(a, "foo")


@pytest.mark.parametrize("function, args", [
    (stats.norm.logpdf, (0.3, 0.1, 1.5)), (stats.norm.logcdf, (-4.0, 0.0, 1.0)), (stats.t.logpdf, (0.4, 3.0)),
    (stats.gamma.logpdf, (1.3, 2.5)), (stats.beta.logpdf, (0.3, 2.0, 3.0)),
    (lambda mu: stats.poisson.logpmf(3, mu), (2.5,)),
    (stats.binom.logpmf, (2.0, 5.0, 0.3)), (stats.logistic.logpdf, (0.7,)), (stats.cauchy.cdf, (0.5, 0.1, 2.0)),
    (stats.truncnorm.logpdf, (0.2, -1.0, 1.5)), (stats.vonmises.logpdf, (0.4, 2.0)),
    (stats.gennorm.logpdf, (0.6, 1.5)), (stats.gumbel_r.logcdf, (0.2,)), (stats.pareto.logpdf, (2.0, 1.5)),
])
def test_gradients(function, args):
    with config.enable_x64(True):
        check_grads(function, args, order=1, modes=["fwd", "rev"])


def test_jit_vmap_and_grad_compose():
    x = X.astype(np.float32)
    np.testing.assert_allclose(jit(stats.norm.logpdf)(x, 0.5, 2.0), stats.norm.logpdf(x, 0.5, 2.0), rtol=1e-6)
    np.testing.assert_allclose(vmap(lambda s: stats.gamma.cdf(x, 2.0, 0.0, s))(np.array([1.0, 2.0], np.float32)),
                               stats.gamma.cdf(x, 2.0, 0.0, np.array([[1.0], [2.0]], np.float32)), rtol=1e-6)
    np.testing.assert_allclose(grad(lambda m: stats.norm.logpdf(1.0, m, 2.0))(0.5), (1.0 - 0.5) / 4, rtol=1e-6)


def test_multivariate_normal_against_scipy():
    rng = np.random.default_rng(1)
    factor = rng.normal(size=(3, 3))
    cov, mean, x = factor @ factor.T + np.eye(3), rng.normal(size=3), rng.normal(size=(2, 4, 3))
    want = scipy.stats.multivariate_normal.logpdf(x, mean, cov)
    with config.enable_x64(True):
        np.testing.assert_allclose(stats.multivariate_normal.logpdf(x, mean, cov), want, rtol=1e-12)
        np.testing.assert_allclose(stats.multivariate_normal.pdf(x[0, 0], mean, cov), np.exp(want[0, 0]), rtol=1e-12)
        np.testing.assert_allclose(stats.multivariate_normal.logpdf(x, mean, 2.0),
                                   scipy.stats.multivariate_normal.logpdf(x, mean, 2.0), rtol=1e-12)
        np.testing.assert_allclose(stats.multivariate_normal.logpdf(1.0, 0.5, 2.0),
                                   scipy.stats.multivariate_normal.logpdf(1.0, 0.5, 2.0), rtol=1e-12)
    got = stats.multivariate_normal.logpdf(x.astype(np.float32), mean.astype(np.float32), cov.astype(np.float32))
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=2e-5)
    with pytest.raises(NotImplementedError, match="allow_singular"):
        stats.multivariate_normal.logpdf(x, mean, cov, allow_singular=True)
    with pytest.raises(ValueError, match="incompatible shapes"):
        stats.multivariate_normal.logpdf(x, mean, np.ones((2, 2)))


def test_gaussian_kde_against_scipy():
    rng = np.random.default_rng(2)
    data, points = rng.normal(size=(2, 7)), rng.normal(size=(2, 3))
    weights = rng.uniform(0.5, 2.0, size=7)
    for kwargs in ({}, {"bw_method": "silverman"}, {"bw_method": 0.6}, {"weights": weights}):
        want = scipy.stats.gaussian_kde(data, **kwargs)
        with config.enable_x64(True):
            kde = stats.gaussian_kde(data, **kwargs)
            np.testing.assert_allclose(kde.covariance, want.covariance, rtol=1e-12)
            np.testing.assert_allclose(kde.inv_cov, want.inv_cov, rtol=1e-10)
            np.testing.assert_allclose(kde.neff, want.neff, rtol=1e-12)
            np.testing.assert_allclose(kde.evaluate(points), want.evaluate(points), rtol=1e-12)
            np.testing.assert_allclose(kde.logpdf(points), want.logpdf(points), rtol=1e-12)
            np.testing.assert_allclose(kde.integrate_gaussian(np.zeros(2), np.eye(2)),
                                       want.integrate_gaussian(np.zeros(2), np.eye(2)), rtol=1e-12)
            other = stats.gaussian_kde(data + 1)
            np.testing.assert_allclose(kde.integrate_kde(other), want.integrate_kde(scipy.stats.gaussian_kde(data + 1)),
                                       rtol=1e-12)
    one_d = stats.gaussian_kde(data[0].astype(np.float32))
    np.testing.assert_allclose(one_d.integrate_box_1d(-0.5, 1.0),
                               scipy.stats.gaussian_kde(data[0]).integrate_box_1d(-0.5, 1.0), rtol=2e-5)
    assert (one_d.d, one_d.n) == (1, 7) and one_d.dataset.dtype == np.float32
    kde = stats.gaussian_kde(data.astype(np.float32))
    np.testing.assert_allclose(jit(lambda k, p: k(p))(kde, points.astype(np.float32)), kde.pdf(points), rtol=1e-5)
    with pytest.raises(ValueError, match="points have dimension 3, dataset has dimension 2"):
        kde.evaluate(np.ones((3, 2)))
    with pytest.raises(ValueError, match="`bw_method` should be"):
        stats.gaussian_kde(data, bw_method="foo")
    with pytest.raises(ValueError, match="only handles 1D pdfs"):
        kde.integrate_box_1d(0.0, 1.0)


def test_linear_algebra_backed_gradients_and_vmap():
    rng = np.random.default_rng(4)
    factor = rng.normal(size=(3, 3))
    cov, mean, x = factor @ factor.T + np.eye(3), rng.normal(size=3), rng.normal(size=(2, 3))
    data, points = rng.normal(size=(2, 5)), rng.normal(size=(2, 3))
    with config.enable_x64(True):
        check_grads(stats.multivariate_normal.logpdf, (x, mean, cov), order=1, modes=["fwd", "rev"])
        check_grads(lambda p: stats.gaussian_kde(data).logpdf(p), (points,), order=1, modes=["fwd", "rev"])
        check_grads(lambda d: stats.gaussian_kde(d).evaluate(points), (data,), order=1, modes=["fwd", "rev"])
        np.testing.assert_allclose(vmap(lambda row: stats.multivariate_normal.logpdf(row, mean, cov))(x),
                                   stats.multivariate_normal.logpdf(x, mean, cov), rtol=1e-12)


# one density (or mass) function and the cdf of each distribution keep the transforms' sweep short
TRANSFORM_CASES = [case for case in CASES_VS_SCIPY if case[1] in ("logpdf", "logpmf", "cdf")]


@pytest.mark.parametrize("name, function, args", TRANSFORM_CASES, ids=[f"{n}.{f}" for n, f, _ in TRANSFORM_CASES])
def test_jit_and_vmap_agree_with_eager(name, function, args):
    fn = getattr(getattr(stats, name), function)
    args = [np.asarray(a, np.float32) for a in args]
    eager = np.asarray(fn(*args))
    np.testing.assert_allclose(jit(fn)(*args), eager, rtol=1e-5, atol=1e-6)
    mapped = np.asarray(vmap(lambda first: fn(first, *args[1:]))(args[0]))  # over the points: a leading axis
    np.testing.assert_allclose(np.moveaxis(mapped, 0, -1).reshape(eager.shape), eager, rtol=1e-5, atol=1e-6)
