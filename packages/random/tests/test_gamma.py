"""The gamma family against JAX 0.10.2's values (golden/random_gamma_golden.json) and against the
distributions themselves (moments and Kolmogorov–Smirnov distances from SciPy's CDFs).

On core's NumPy reference backend ``erf_inv`` and fused multiply-adds round differently from XLA in the
last bits (see test_golden.py), so values compare with a tolerance here; the XLA integration test replays
every case bit for bit.
"""

import json

import make_random_gamma_golden as golden  # on the path set by conftest.py
import ml_dtypes  # noqa: F401 - registers bfloat16 with NumPy for decoding
import numpy as np
import pytest
from make_random_golden import compare_errors, decode
from scipy import stats

import jaxle_core as jc
import jaxle_random as random

GOLDEN = json.loads(golden.GOLDEN.read_text())
NS = golden.namespace("jaxle")


@pytest.mark.parametrize("name", sorted(golden.CASES))
def test_golden(name):
    got, expected = golden.run_case(NS, name), GOLDEN[name]
    if compare_errors(name, got, expected):
        return
    assert (got["dtype"], got["shape"]) == (expected["dtype"], expected["shape"]), name
    actual, wanted = decode(got).astype(np.float64), decode(expected).astype(np.float64)
    rtol = {2: 2e-2, 4: 2e-5, 8: 1e-12}[decode(got).itemsize]
    np.testing.assert_allclose(actual, wanted, rtol=rtol, atol=rtol, err_msg=name)


N = 2000
KEY = random.PRNGKey(2024)


def _ks(sample: np.ndarray, cdf) -> float:
    return stats.kstest(np.asarray(sample, np.float64), cdf).statistic


@pytest.mark.parametrize("alpha", [0.3, 1.0, 4.0])
def test_gamma_distribution(alpha):
    sample = np.asarray(random.gamma(KEY, alpha, (N,)))
    assert _ks(sample, stats.gamma(alpha).cdf) < 0.04
    assert abs(sample.mean() - alpha) < 5 * np.sqrt(alpha / N)


def test_loggamma_is_log_of_gamma_distribution():
    sample = np.exp(np.asarray(random.loggamma(KEY, 0.5, (N,))))
    assert _ks(sample, stats.gamma(0.5).cdf) < 0.04


def test_loggamma_tiny_alpha_is_finite():
    # Gamma(1e-4) underflows to 0 in float32; its log stays finite and very negative
    sample = np.asarray(random.loggamma(KEY, 1e-4, (64,)))
    assert np.all(np.isfinite(sample)) and np.median(sample) < -100


def test_beta_distribution():
    sample = np.asarray(random.beta(KEY, 2.0, 5.0, (N,)))
    assert _ks(sample, stats.beta(2.0, 5.0).cdf) < 0.04


def test_dirichlet_distribution():
    alpha = np.array([1.0, 2.0, 3.0], np.float32)
    sample = np.asarray(random.dirichlet(KEY, alpha, (N,)))
    np.testing.assert_allclose(sample.sum(-1), 1, rtol=1e-5)
    # each marginal is Beta(alpha_i, sum(alpha) - alpha_i)
    assert _ks(sample[:, 2], stats.beta(3.0, 3.0).cdf) < 0.04


def test_chisquare_distribution():
    assert _ks(np.asarray(random.chisquare(KEY, 3.0, (N,))), stats.chi2(3.0).cdf) < 0.04


def test_f_distribution():
    assert _ks(np.asarray(random.f(KEY, 4.0, 6.0, (N,))), stats.f(4.0, 6.0).cdf) < 0.04


def test_t_distribution():
    assert _ks(np.asarray(random.t(KEY, 5.0, (N,))), stats.t(5.0).cdf) < 0.04


@pytest.mark.parametrize("p", [1.0, 2.0, 4.0])
def test_generalized_normal_distribution(p):
    assert _ks(np.asarray(random.generalized_normal(KEY, p, (N,))), stats.gennorm(p).cdf) < 0.04


@pytest.mark.parametrize("alpha", [0.3, 1.0, 4.0])
def test_gamma_gradient_is_that_of_a_fixed_quantile(alpha):
    # a sample is the Gamma(alpha) quantile of a fixed uniform; its derivative in alpha, by finite differences
    # of SciPy's quantile at the sample's own CDF level
    sample = float(random.gamma(KEY, np.float32(alpha)))
    level, h = stats.gamma(alpha).cdf(sample), 1e-4
    expected = (stats.gamma(alpha + h).ppf(level) - stats.gamma(alpha - h).ppf(level)) / (2 * h)
    np.testing.assert_allclose(float(jc.grad(lambda a: random.gamma(KEY, a))(np.float32(alpha))), expected,
                               rtol=2e-3)


@pytest.mark.parametrize("lam", [0.7, 4.0, 30.0])
def test_poisson_distribution(lam):
    sample = np.asarray(random.poisson(KEY, lam, (N,)))
    assert abs(sample.mean() - lam) < 5 * np.sqrt(lam / N)
    assert abs(sample.var() - lam) < 0.15 * lam
    frequencies = np.bincount(sample, minlength=int(3 * lam) + 10)[:int(3 * lam) + 10] / N
    assert np.abs(frequencies - stats.poisson(lam).pmf(np.arange(frequencies.size))).max() < 0.03


@pytest.mark.parametrize("n, p", [(8.0, 0.3), (60.0, 0.4), (200.0, 0.8)])
def test_binomial_distribution(n, p):
    sample = np.asarray(random.binomial(KEY, n, p, (N,))).astype(np.int64)
    frequencies = np.bincount(sample, minlength=int(n) + 1) / N
    assert np.abs(frequencies - stats.binom(int(n), p).pmf(np.arange(int(n) + 1))).max() < 0.03
    assert abs(sample.mean() - n * p) < 5 * np.sqrt(n * p * (1 - p) / N)
