"""The closed-form samplers (jaxle_random.distributions) against JAX 0.10.2's values
(golden/random_dist_golden.json from golden/make_random_dist_golden.py) and against their analytic laws.

On core's NumPy reference backend the transcendental functions and XLA's fused multiply-adds round
differently in the last bits, so float values compare to a few ulps here; integration-tests/test_random_on_xla.py
replays every case bit for bit on XLA. Integer results (rademacher, geometric) compare exactly.
"""

import json

import make_random_dist_golden as golden  # on the path set by conftest.py
import ml_dtypes  # noqa: F401 - registers bfloat16 with NumPy for decoding
import numpy as np
import pytest
import scipy.stats
from make_random_golden import compare_errors, decode

import jaxle_core
import jaxle_numpy as jnp
import jaxle_random as random

GOLDEN = json.loads(golden.GOLDEN.read_text())
NS = golden.namespace("jaxle")


@pytest.mark.parametrize("name", sorted(golden.CASES))
def test_golden(name):
    got, expected = golden.run_case(NS, name), GOLDEN[name]
    if compare_errors(name, got, expected):
        return
    assert (got["dtype"], got["shape"]) == (expected["dtype"], expected["shape"]), name
    actual, wanted = decode(got), decode(expected)
    if actual.dtype.kind != "f" and actual.dtype != ml_dtypes.bfloat16:
        np.testing.assert_array_equal(actual, wanted, err_msg=name)
        return
    rtol = {2: 8e-3, 4: 2e-5, 8: 1e-13}[actual.itemsize]
    np.testing.assert_allclose(actual.astype(np.float64), wanted.astype(np.float64), rtol=rtol, atol=rtol,
                               err_msg=name)


N = 10_000
KEY = random.PRNGKey(2026)

# each sampler with its scipy.stats law
LAWS = {
    "exponential": (lambda k: random.exponential(k, (N,)), scipy.stats.expon()),
    "gumbel": (lambda k: random.gumbel(k, (N,)), scipy.stats.gumbel_r()),
    "gumbel_high": (lambda k: random.gumbel(k, (N,), mode="high"), scipy.stats.gumbel_r()),
    "laplace": (lambda k: random.laplace(k, (N,)), scipy.stats.laplace()),
    "logistic": (lambda k: random.logistic(k, (N,)), scipy.stats.logistic()),
    "cauchy": (lambda k: random.cauchy(k, (N,)), scipy.stats.cauchy()),
    "pareto": (lambda k: random.pareto(k, 3.0, (N,)), scipy.stats.pareto(3.0)),
    "weibull_min": (lambda k: random.weibull_min(k, 2.0, 1.5, (N,)), scipy.stats.weibull_min(1.5, scale=2.0)),
    "rayleigh": (lambda k: random.rayleigh(k, 2.0, (N,)), scipy.stats.rayleigh(scale=2.0)),
    "lognormal": (lambda k: random.lognormal(k, 0.5, (N,)), scipy.stats.lognorm(0.5)),
    "maxwell": (lambda k: random.maxwell(k, (N,)), scipy.stats.maxwell()),
    "triangular": (lambda k: random.triangular(k, -1.0, 0.5, 2.0, (N,)), scipy.stats.triang(0.5, loc=-1.0, scale=3.0)),
    "truncated_normal": (lambda k: random.truncated_normal(k, -1.0, 2.0, (N,)), scipy.stats.truncnorm(-1.0, 2.0)),
    "wald": (lambda k: random.wald(k, 1.5, (N,)), scipy.stats.invgauss(1.5)),
}


@pytest.mark.parametrize("name", sorted(LAWS))
def test_follows_its_law(name):
    sample, law = LAWS[name]
    draws = np.asarray(sample(KEY), np.float64)
    assert scipy.stats.kstest(draws, law.cdf).pvalue > 1e-3, name


def test_double_sided_maxwell_moments():
    draws = np.asarray(random.double_sided_maxwell(KEY, 1.0, 2.0, (N,)), np.float64)
    # |x - loc| / scale is Maxwell; the sign is symmetric
    assert scipy.stats.kstest(np.abs(draws - 1.0) / 2.0, scipy.stats.maxwell().cdf).pvalue > 1e-3
    assert abs(np.mean(draws > 1.0) - 0.5) < 0.02


def test_rademacher_is_a_fair_sign():
    draws = np.asarray(random.rademacher(KEY, (N,)))
    assert set(np.unique(draws)) == {-1, 1}
    assert abs(draws.mean()) < 0.03


def test_geometric_moments():
    p = 0.3
    draws = np.asarray(random.geometric(KEY, p, (N,)), np.float64)
    assert draws.min() >= 1
    assert abs(draws.mean() - 1 / p) < 0.05 * (1 / p)
    assert abs(draws.var() - (1 - p) / p ** 2) < 0.1 * (1 - p) / p ** 2


def test_permutation_is_uniform_over_orders():
    keys = random.split(KEY, 2000)
    orders = np.stack([np.asarray(random.permutation(k, 3)) for k in keys[:600]])
    assert all(sorted(order) == [0, 1, 2] for order in orders.tolist())
    counts = np.unique([str(order) for order in orders.tolist()], return_counts=True)[1]
    assert len(counts) == 6 and scipy.stats.chisquare(counts).pvalue > 1e-3


def test_permutation_of_rows_keeps_rows():
    x = np.arange(20).reshape(5, 4)
    shuffled = np.asarray(random.permutation(KEY, x))
    assert sorted(map(tuple, shuffled.tolist())) == sorted(map(tuple, x.tolist()))
    independent = np.asarray(random.permutation(KEY, x, axis=1, independent=True))
    np.testing.assert_array_equal(np.sort(independent, axis=1), x)


def _frequencies(draws: np.ndarray, n: int) -> np.ndarray:
    return np.bincount(np.asarray(draws).ravel(), minlength=n) / np.asarray(draws).size


def test_choice_follows_the_weights():
    weights = np.array([0.1, 0.0, 0.5, 0.15, 0.25], np.float32)
    frequencies = _frequencies(random.choice(KEY, 5, (N,), p=weights), 5)
    np.testing.assert_allclose(frequencies, weights, atol=0.02)
    np.testing.assert_allclose(_frequencies(random.choice(KEY, 4, (N,)), 4), 0.25, atol=0.02)


def test_choice_without_replacement_is_distinct():
    picks = np.asarray(random.choice(KEY, 50, (20,), replace=False))
    assert len(set(picks.tolist())) == 20 and picks.min() >= 0 and picks.max() < 50
    weighted = np.asarray(random.choice(KEY, 6, (6,), replace=False, p=np.full(6, 1 / 6, np.float32)))
    assert sorted(weighted.tolist()) == list(range(6))


def test_categorical_follows_softmax():
    probabilities = np.array([0.1, 0.2, 0.3, 0.4], np.float32)
    draws = random.categorical(KEY, np.log(probabilities), shape=(N,))
    np.testing.assert_allclose(_frequencies(draws, 4), probabilities, atol=0.02)
    without = np.asarray(random.categorical(KEY, np.log(probabilities), shape=(4,), replace=False))
    assert sorted(without.tolist()) == [0, 1, 2, 3]


@pytest.mark.parametrize("p", [1.0, 2.0])
def test_ball_radius_to_the_d_is_uniform(p):
    d = 3
    points = np.asarray(random.ball(KEY, d, p, (N // 4,)), np.float64)
    radii = np.sum(np.abs(points) ** p, axis=-1) ** (1 / p)
    assert radii.max() < 1
    assert scipy.stats.kstest(radii ** d, scipy.stats.uniform().cdf).pvalue > 1e-3


REPARAMETERIZED = {
    "truncated_normal_lower": (lambda v: random.truncated_normal(KEY, v, 2.0, (8,)), -1.0),
    "lognormal_sigma": (lambda v: random.lognormal(KEY, v, (8,)), 0.5),
    "wald_mean": (lambda v: random.wald(KEY, v, (8,)), 1.5),
    "pareto_b": (lambda v: random.pareto(KEY, v, (8,)), 3.0),
    "weibull_min_scale": (lambda v: random.weibull_min(KEY, v, 1.5, (8,)), 2.0),
    "triangular_mode": (lambda v: random.triangular(KEY, -1.0, v, 2.0, (8,)), 0.5),
}


@pytest.mark.parametrize("name", sorted(REPARAMETERIZED))
def test_gradient_through_the_draws_matches_finite_differences(name):
    # with the key fixed, each draw is a smooth function of the parameter (as JAX's, reparameterised)
    sample, value = REPARAMETERIZED[name]
    gradient = float(jaxle_core.grad(lambda v: jnp.sum(sample(v)))(np.float32(value)))
    step = 1e-2
    difference = (np.sum(np.asarray(sample(np.float32(value + step)), np.float64))
                  - np.sum(np.asarray(sample(np.float32(value - step)), np.float64))) / (2 * step)
    np.testing.assert_allclose(gradient, difference, rtol=2e-2, atol=1e-3)
