"""The lowered text of programs that draw random numbers, sort, scan cumulatively, scatter at clipped indices,
raise to integer powers, convolve or pool is JAX 0.10.2's, word for word (golden/lowered_programs_golden.json):
threefry2x32 as JAX writes it, sort's comparison, typed keys constrained inside ``main``, clipped indices clamped by
JAX's operations, the functions in JAX's order under JAX's names. Their values are checked by the random, sorting,
cumulative and indexing suites (convolutions', pooling's and singular values' against NumPy here too): the text
changes none of them."""

import json
import pathlib
import sys

import numpy as np
import pytest

import jaxle as jax
import jaxle.numpy as jnp

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))

import make_lowered_programs_golden as gen  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "lowered_programs_golden.json").read_text())


def test_every_case_has_a_golden_record():
    assert GOLDEN.keys() == gen._cases(jax).keys()


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_lowered_text_is_jax(name):
    assert gen.lowered(jax, name) == GOLDEN[name]


def test_counters_are_each_elements_row_major_index():
    # the 64-bit index XLA computes, split into words, is NumPy's row-major one (its high words zero at this size)
    from jaxle_random.threefry import iota_2x32_shape

    hi, lo = jax.jit(lambda: iota_2x32_shape((3, 5, 2)))()
    flat = np.arange(30, dtype=np.uint64).reshape(3, 5, 2)
    np.testing.assert_array_equal(np.asarray(lo), flat.astype(np.uint32))
    np.testing.assert_array_equal(np.asarray(hi), (flat >> np.uint64(32)).astype(np.uint32))


def test_compiled_like_eager_on_both_backends():
    # the same bits from the program the text shows and from the reference (NumPy) implementation of the hash
    from jaxle_core.backend import use_backend

    key = jax.random.key(3)
    draws = jax.jit(lambda k: (jax.random.bits(k, (2, 3)), jax.random.split(k, 3), jax.random.fold_in(k, 9)))
    compiled = draws(key)
    with use_backend("reference"):
        reference = draws(jax.random.key(3))
    for ours, theirs in zip(compiled, reference):
        np.testing.assert_array_equal(np.asarray(jax.random.key_data(ours) if ours.dtype != np.uint32 else ours),
                                      np.asarray(jax.random.key_data(theirs) if theirs.dtype != np.uint32
                                                 else theirs))


def test_sort_orders_as_numpy():
    values = np.array([np.nan, -0.0, 2.0, -np.nan, 0.0, -np.inf, 1.0, np.inf], np.float32)
    np.testing.assert_array_equal(np.asarray(jax.jit(jnp.sort)(values)), np.sort(values))
    np.testing.assert_array_equal(np.asarray(jax.jit(jnp.argsort)(values)),
                                  np.argsort(np.where(values == 0, 0, values), kind="stable"))


def test_clipped_scatters_add_where_numpy_clips():
    m = gen.M
    ours = jax.jit(gen._cases(jax)["scatter_add_clip"][0])(m, np.array([2, 5], np.int32))
    expected = m.copy()
    expected[2] += 2.0  # both indices clipped to the last row
    np.testing.assert_array_equal(np.asarray(ours), expected)
    fun, x, indices = gen._cases(jax)["scatter_clip_uint8_indices"]
    expected = x.copy()
    expected[[1, x.size - 1]] += 1.0
    np.testing.assert_array_equal(np.asarray(jax.jit(fun)(x, indices)), expected)
    fun, x, indices = gen._cases(jax)["scatter_clip_no_index"]
    np.testing.assert_array_equal(np.asarray(jax.jit(fun)(x, indices)), x + 2.0)


def test_integer_powers_as_numpy():
    fun, m = gen._cases(jax)["integer_powers"]
    for ours, y in zip(jax.jit(fun)(m), (0, -1, -2, -5, 5)):
        with np.errstate(divide="ignore"):
            np.testing.assert_allclose(np.asarray(ours), np.float32(m) ** np.float32(y), rtol=1e-6)


def _correlate(x, k):
    """NumPy's cross-correlation of NCW ``x`` with OIW ``k`` over the valid positions."""
    width = x.shape[-1] - k.shape[-1] + 1
    windows = np.stack([x[:, :, j:j + k.shape[-1]] for j in range(width)], axis=2)  # N, C, W', K
    return np.einsum("ncwk,ock->now", windows, k)


def test_convolutions_as_numpy():
    cases = gen._cases(jax)
    fun, x, k = cases["convolution_complex"]
    np.testing.assert_allclose(np.asarray(jax.jit(fun)(x, k)), _correlate(x, k), rtol=1e-5, atol=1e-5)
    fun, x, k = cases["convolution_no_spatial_axes"]
    np.testing.assert_allclose(np.asarray(jax.jit(fun)(x, k)), x @ k.T, rtol=1e-6)
    fun, images, kernel = cases["convolution_nhwc"]
    padded = np.pad(images, ((0, 0), (1, 1), (1, 1), (0, 0)))
    expected = np.stack([np.stack([np.einsum("nhwc,hwco->no", padded[:, i:i + 3, j:j + 3], kernel)
                                   for j in range(6)], axis=1) for i in range(6)], axis=1)
    np.testing.assert_allclose(np.asarray(jax.jit(fun)(images, kernel)), expected, rtol=1e-5, atol=1e-5)


def test_pooling_and_its_gradient_as_numpy():
    fun, images = gen._cases(jax)["pooling"]
    maximum, minimum, total = jax.jit(fun)(images)
    blocks = images.reshape(2, 3, 2, 3, 2, 3)
    np.testing.assert_array_equal(np.asarray(maximum), blocks.max(axis=(2, 4)))
    np.testing.assert_allclose(np.asarray(total), blocks.sum(axis=(2, 4)), rtol=1e-6)
    padded = np.pad(images, ((0, 0), (0, 1), (0, 1), (0, 0)), constant_values=np.inf)  # SAME: the padding after
    expected = np.minimum(np.minimum(padded[:, :-1, :-1], padded[:, 1:, :-1]),
                          np.minimum(padded[:, :-1, 1:], padded[:, 1:, 1:]))
    np.testing.assert_array_equal(np.asarray(minimum), expected)
    fun, images = gen._cases(jax)["pooling_grads"]
    gradient = np.asarray(jax.jit(fun)(images))
    # each element is summed by its sum-pool window once, plus once per max or min window that selects it
    counts = np.ones_like(images)
    for window in np.lib.stride_tricks.sliding_window_view(np.arange(images.size).reshape(images.shape), (2, 2),
                                                           axis=(1, 2))[:, ::2, ::2].reshape(-1, 4):
        counts.flat[window[np.argmax(images.flat[window])]] += 1
    for window in np.lib.stride_tricks.sliding_window_view(
            np.pad(np.arange(images.size).reshape(images.shape), ((0, 0), (0, 1), (0, 1), (0, 0)),
                   constant_values=-1), (2, 2), axis=(1, 2)).reshape(-1, 4):
        inside = window[window >= 0]
        counts.flat[inside[np.argmin(images.flat[inside])]] += 1
    np.testing.assert_array_equal(gradient, counts)


def test_singular_values_and_rank_as_numpy():
    cases = gen._cases(jax)
    for name in ("singular_values_reduced", "singular_values_reduced_wide"):
        fun, m = cases[name]
        np.testing.assert_allclose(np.asarray(jax.jit(fun)(m)), np.linalg.svd(m, compute_uv=False), rtol=1e-5,
                                   atol=1e-5)
    fun, m = cases["matrix_rank"]
    assert int(jax.jit(fun)(m)) == np.linalg.matrix_rank(m) == 2
