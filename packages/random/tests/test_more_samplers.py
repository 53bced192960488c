"""multinomial, orthogonal, multivariate_normal, the ``jax_threefry_partitionable=False`` scheme and the
``rbg``/``unsafe_rbg`` implementations against JAX 0.10.2's values (golden/random_more_golden.json from
golden/make_random_more_golden.py), and against what they promise.

Integers, bits and keys match bit for bit on core's reference backend. Floats from normal draws (erf_inv)
and from the factorizations (QR, Cholesky, eigh, SVD in NumPy's LAPACK rather than jaxlib's kernels) are
compared to a few ulps here; integration-tests/test_random_more_on_xla.py replays every case bit for bit.
The ``jaxpr_`` cases compare make_jaxpr's text with JAX's, character for character.
"""

import json
import sys
import warnings

import make_random_more_golden as golden  # on the path set by conftest.py
import ml_dtypes  # noqa: F401 - registers bfloat16 with NumPy for decoding
import numpy as np
import pytest
from make_random_golden import compare_errors, decode
from scipy import stats

import jaxle_core as jc
import jaxle_random as random

GOLDEN = json.loads(golden.GOLDEN.read_text())
NS = golden.namespace("jaxle")
ROUNDED = ("orthogonal", "mvn", "normal")  # floats the reference backend rounds differently from XLA


def _rounded(name: str, expected: dict) -> bool:
    """Whether the reference backend may round the case's values differently from XLA (the ``list_shape_``
    cases draw from every sampler: their floats may)."""
    return any(part in name for part in ROUNDED) or (name.startswith("list_shape_")
                                                     and np.dtype(expected["dtype"]).kind == "f")


@pytest.mark.parametrize("name", sorted(golden.CASES))
def test_golden(name):
    got, expected = golden.implementation_neutral(name, golden.run_case(NS, name)), GOLDEN[name]
    if compare_errors(name, got, expected, check_message="message" in expected):
        return
    if name.startswith("jaxpr_"):
        assert golden.jaxpr_text(got) == golden.jaxpr_text(expected)
        return
    if not _rounded(name, expected):
        assert got == expected, name
        return
    assert (got["dtype"], got["shape"]) == (expected["dtype"], expected["shape"]), name
    actual, wanted = decode(got), decode(expected)
    tolerance = 1e-12 if actual.dtype.itemsize == 8 and actual.dtype.kind == "f" else 2e-6
    tolerance = 2e-3 if actual.dtype == np.float16 else tolerance
    np.testing.assert_allclose(actual, wanted, rtol=tolerance, atol=tolerance, err_msg=name)


def test_multinomial_counts_sum_to_n_with_multinomial_moments():
    p = np.array([0.1, 0.6, 0.3], np.float32)
    counts = np.asarray(random.multinomial(random.key(1), 20, p, shape=(2000, 3)))
    assert (counts.sum(-1) == 20).all() and (counts >= 0).all()
    np.testing.assert_allclose(counts.mean(0), 20 * p, atol=0.15)
    np.testing.assert_allclose(np.cov(counts.T), 20 * (np.diag(p) - np.outer(p, p)), atol=0.25)


def test_multinomial_skips_categories_without_weight():
    counts = np.asarray(random.multinomial(random.key(2), 50, np.array([0.0, 1.0, 0.0, 3.0], np.float32)))
    assert counts[0] == counts[2] == 0 and counts.sum() == 50


@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
def test_orthogonal_matrices_are_orthonormal_and_haar(dtype):
    q = np.asarray(random.orthogonal(random.key(3), 3, (400,), dtype))
    np.testing.assert_allclose(np.conj(np.swapaxes(q, -1, -2)) @ q, np.broadcast_to(np.eye(3), q.shape), atol=1e-5)
    # under the Haar measure each entry of a real 3x3 orthogonal matrix has mean 0 and variance 1/3
    entries = q.reshape(400, 9)
    assert np.abs(entries.mean(0)).max() < 0.15
    np.testing.assert_allclose(np.mean(np.abs(entries) ** 2, 0), 1 / 3, atol=0.06)


def test_orthogonal_rectangular_has_orthonormal_rows():
    q = np.asarray(random.orthogonal(random.key(4), 2, m=5))
    assert q.shape == (2, 5)
    np.testing.assert_allclose(q @ q.T, np.eye(2), atol=1e-6)


@pytest.mark.parametrize("method", ["cholesky", "eigh", "svd"])
def test_multivariate_normal_has_its_mean_and_covariance(method):
    mean, cov = np.array([1.0, -2.0, 0.5], np.float32), golden.COV
    draws = np.asarray(random.multivariate_normal(random.key(5), mean, cov, (20_000,), method=method))
    np.testing.assert_allclose(draws.mean(0), mean, atol=0.05)
    np.testing.assert_allclose(np.cov(draws.T), cov, atol=0.06)
    # a projection of a multivariate normal is normal
    direction = np.array([1.0, 1.0, -1.0])
    projected = draws @ direction
    assert stats.kstest(projected, stats.norm(direction @ mean, np.sqrt(direction @ cov @ direction)).cdf).pvalue \
        > 1e-3


def test_sequential_scheme_draws_depend_on_how_many():
    # jax_threefry_partitionable=False hashes all counters together: a prefix of a longer draw is not the
    # shorter draw, unlike under the default scheme
    key = random.PRNGKey(0)
    with jc.config.threefry_partitionable(False):
        short, long = np.asarray(random.bits(key, (4,))), np.asarray(random.bits(key, (6,)))
        assert not np.array_equal(short, long[:4])
    assert np.array_equal(np.asarray(random.bits(key, (4,))), np.asarray(random.bits(key, (6,)))[:4])


def test_jit_follows_the_partitionable_flag():
    draw = jc.jit(lambda k: random.bits(k, (3,)))
    key = random.PRNGKey(1)
    default = np.asarray(draw(key))
    with jc.config.threefry_partitionable(False):
        sequential = np.asarray(draw(key))
        np.testing.assert_array_equal(sequential, np.asarray(random.bits(key, (3,))))
    assert not np.array_equal(default, sequential)


@pytest.mark.parametrize("impl, tag", [("rbg", "rbg"), ("unsafe_rbg", "urbg")])
def test_rbg_keys_have_their_dtype_and_jaxpr(impl, tag):
    key = random.key(0, impl=impl)
    assert str(key.dtype) == f"key<{tag}>" and random.key_impl(key) == impl
    assert random.key_data(key).shape == (4,)
    text = str(jc.make_jaxpr(lambda k: random.bits(k, (3,)))(key))
    assert text == (f"{{ lambda ; a:key<{tag}>[]. let\n    b:u32[3] = random_bits[bit_width=32 shape=(3,)] a\n"
                    "  in (b,) }")
    assert np.asarray(random.uniform(key, (10_000,))).mean() == pytest.approx(0.5, abs=0.01)


def test_default_impl_flag_makes_raw_rbg_keys():
    with jc.config.default_prng_impl("unsafe_rbg"):
        key = random.PRNGKey(7)
        assert key.shape == (4,) and random.split(key, 3).shape == (3, 4)
        assert random.key_impl(key) == "unsafe_rbg"


@pytest.mark.parametrize("impl", ["rbg", "unsafe_rbg"])
def test_rbg_split_keys_draw_distinct_streams(impl):
    keys = random.split(random.key(7, impl=impl), 16)
    assert len({tuple(row) for row in np.asarray(random.key_data(keys)).tolist()}) == 16
    draws = [tuple(np.asarray(random.bits(keys[i], (2,))).tolist()) for i in range(4)]
    assert len(set(draws)) == 4


@pytest.mark.parametrize("name", [n for n in sorted(golden.CASES) if n.startswith(golden.SOURCE_NAMING_ERRORS)
                                  and "message" in GOLDEN[n] and " at <source> " in GOLDEN[n]["message"]])
def test_list_errors_name_the_line_of_jaxles_jitted_body(name):
    """Where JAX's message names the source line of its jitted body, jaxle's names the line of its own."""
    message = golden.run_case(NS, name)["message"]
    function = message.split("tracing the function ")[1].split(" ")[0]
    body = next(module for module in (sys.modules[f"jaxle_random.{m}"] for m in ("gamma", "samplers", "distributions"))
                if hasattr(module, function))
    code = getattr(body, function).__wrapped__.__code__
    assert f" at {code.co_filename}:{code.co_firstlineno} for jit." in message


def test_randint_warns_of_a_complex_bound_as_astype_does():
    # JAX 0.10.2 converts randint's bounds with astype: its DeprecationWarning, not lax's ComplexWarning
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        drawn = np.asarray(random.randint(random.key(0), (50,), 0, 10 + 2j))
    assert [w.category for w in caught] == [DeprecationWarning]
    assert "Casting from complex to real dtypes" in str(caught[0].message)
    assert drawn.min() >= 0 and drawn.max() < 10
