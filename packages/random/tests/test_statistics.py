"""The samplers draw from the distributions they promise, and split keys give independent streams.

Each test draws 10^4–10^5 values from a fixed key and checks them with a SciPy goodness-of-fit test at
a small significance level, so a correct sampler passes (the key is fixed: the outcome is deterministic)
and a biased one (wrong scaling, a stuck bit, a shifted range) fails by a wide margin.
"""

import numpy as np
import pytest
from scipy import stats

import jaxle_random as random

ALPHA = 1e-3
N = 50_000


def _key(seed: int = 0):
    return random.PRNGKey(seed)


def test_uniform_is_uniform_on_its_interval():
    draws = np.asarray(random.uniform(_key(1), (N,), minval=-2.0, maxval=3.0))
    assert draws.min() >= -2.0 and draws.max() < 3.0
    assert stats.kstest(draws, stats.uniform(loc=-2.0, scale=5.0).cdf).pvalue > ALPHA


def test_uniform_low_bits_are_balanced():
    # the mantissa comes from the high bits of each word: every one of the 23 mantissa bits is a fair coin
    draws = np.asarray(random.uniform(_key(2), (N,), dtype=np.float32)) + np.float32(1)
    mantissas = draws.view(np.uint32) & np.uint32((1 << 23) - 1)
    ones = np.array([np.count_nonzero(mantissas >> np.uint32(b) & np.uint32(1)) for b in range(23)])
    assert stats.binomtest(int(ones.min()), N).pvalue > ALPHA / 23
    assert stats.binomtest(int(ones.max()), N).pvalue > ALPHA / 23


def test_normal_is_standard_normal():
    draws = np.asarray(random.normal(_key(3), (N,)))
    assert stats.kstest(draws, stats.norm.cdf).pvalue > ALPHA
    assert abs(draws.mean()) < 5 / np.sqrt(N) and abs(draws.std() - 1) < 0.02


def test_complex_normal_has_independent_halves_of_variance_one_half():
    draws = np.asarray(random.normal(_key(4), (N,), dtype=np.complex64))
    for part in (draws.real, draws.imag):
        assert stats.kstest(part, stats.norm(scale=np.sqrt(0.5)).cdf).pvalue > ALPHA
    assert abs(stats.pearsonr(draws.real, draws.imag).statistic) < 5 / np.sqrt(N)


@pytest.mark.parametrize("minval,maxval", [(0, 10), (-7, 50), (3, 4)])
def test_randint_hits_every_value_equally_often(minval, maxval):
    draws = np.asarray(random.randint(_key(5), (N,), minval, maxval))
    assert draws.min() >= minval and draws.max() < maxval
    counts = np.bincount(draws - minval, minlength=maxval - minval)
    if maxval - minval == 1:
        assert counts.tolist() == [N]
    else:
        assert stats.chisquare(counts).pvalue > ALPHA


def test_randint_range_wider_than_half_the_dtype():
    # a span above 2**31 needs both random words; the result must still be uniform over the whole span
    draws = np.asarray(random.randint(_key(6), (N,), -2 ** 31, 2 ** 31 - 1)).astype(np.float64)
    assert stats.kstest(draws, stats.uniform(loc=-2 ** 31, scale=2 ** 32 - 1).cdf).pvalue > ALPHA


@pytest.mark.parametrize("p", [0.5, 0.1, 0.97])
def test_bernoulli_success_rate(p):
    draws = np.asarray(random.bernoulli(_key(7), p, (N,)))
    assert draws.dtype == np.bool_
    assert stats.binomtest(int(draws.sum()), N, p).pvalue > ALPHA


def test_bernoulli_per_element_probabilities():
    p = np.linspace(0.05, 0.95, 10, dtype=np.float32)
    draws = np.asarray(random.bernoulli(_key(8), p, (N // 10, 10)))
    for column, q in zip(draws.T, p):
        assert stats.binomtest(int(column.sum()), N // 10, float(q)).pvalue > ALPHA / 10


def test_bits_are_uniform_words():
    draws = np.asarray(random.bits(_key(9), (N,), np.uint32))
    counts = np.bincount((draws >> np.uint32(24)).astype(np.int64), minlength=256)  # the top byte
    assert stats.chisquare(counts).pvalue > ALPHA
    counts = np.bincount((draws & np.uint32(255)).astype(np.int64), minlength=256)  # the bottom byte
    assert stats.chisquare(counts).pvalue > ALPHA


def _max_abs_correlation(streams: np.ndarray) -> float:
    corr = np.corrcoef(streams)
    return float(np.abs(corr[~np.eye(len(corr), dtype=bool)]).max())


def test_split_keys_give_uncorrelated_streams():
    keys = random.split(_key(10), 16)
    streams = np.stack([np.asarray(random.uniform(k, (N // 10,))) for k in keys])
    # 16 * 15 / 2 pairs: the largest |r| of independent streams of n values stays below ~5 / sqrt(n)
    assert _max_abs_correlation(streams) < 5 / np.sqrt(N // 10)


def test_parent_and_child_streams_are_uncorrelated():
    parent = _key(11)
    child, other = random.split(parent)
    streams = np.stack([np.asarray(random.normal(k, (N,))) for k in (parent, child, other, random.fold_in(parent, 7))])
    assert _max_abs_correlation(streams) < 5 / np.sqrt(N)


def test_fold_in_of_i_is_the_ith_split_key():
    # both hash the counter i under the key (partitionable layout), as in JAX 0.10.2: not independent streams
    parent = _key(11)
    np.testing.assert_array_equal(random.fold_in(parent, 1), random.split(parent)[1])


def test_fold_in_of_consecutive_integers_gives_uncorrelated_streams():
    streams = np.stack([np.asarray(random.normal(random.fold_in(_key(12), i), (N // 10,))) for i in range(16)])
    assert _max_abs_correlation(streams) < 5 / np.sqrt(N // 10)


def test_split_keys_are_distinct_and_their_words_uniform():
    keys = np.asarray(random.split(_key(13), N))
    assert len({tuple(k) for k in keys.tolist()}) == N
    counts = np.bincount((keys[:, 0] >> np.uint32(24)).astype(np.int64), minlength=256)
    assert stats.chisquare(counts).pvalue > ALPHA
