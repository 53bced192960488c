"""Write lowered_programs_golden.json: the whole StableHLO text (``jit(f).lower(*args).as_text()``) of programs
that draw random numbers, sort, scan cumulatively or scatter at clipped indices, recorded from the module named on
the command line:

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_lowered_programs_golden.py jax

The cases cover threefry2x32 (its function and loop, the counters of one or several dimensions and of several
keys, seeding, splitting, folding in), the key functions under ``vmap`` (fold_in of batched or unbatched keys
and messages, raw keys, grids of keys), the rejection loops of the gamma family, poisson and binomial (alone and
under ``vmap``), ``multivariate_normal`` (the NaN of a failed Cholesky factorization), JAX's original counters
(``jax_threefry_partitionable`` off; the zero padding an odd count written where the draw begins), typed keys as
arguments and results (constrained inside ``main`` unless committed), the comparison of ``sort`` (floats, integers,
complex numbers, several keys) and what builds on it (argsort, lexsort, unique, median, permutation; of an array's
rows, a gather filling out-of-bounds indices), LAPACK's factorizations and solves (the NaNs of a failed one, the
zero padding of Q's reflectors, the buffers singular values alone take), the cumulative reductions (cumlogsumexp
of real and complex numbers, each reduction reversed, over other axes and dtypes), reductions over no axes,
scatters whose indices are clipped (as JAX clamps them: upper bounds capped at the index type's largest value; an
update of a window, uint8 indices, no index at all, a gather's transpose under ``vmap``), integer powers (the ones
of negative powers broadcast as JAX writes them), convolutions (their window reversal stated, their gradients,
complex ones, one over no spatial axis), pooling and its gradients (the identities broadcast as JAX writes them),
and the order and names of the module's functions. A case whose lowering warns records the warnings' messages too.
"""

import importlib
import pathlib
import sys
import warnings

import ml_dtypes
import numpy as np
from golden_writer import write_golden

HERE = pathlib.Path(__file__).parent
X = np.array([3.0, -0.0, np.nan, 0.0, -np.inf, 1.0, -2.0], np.float32)
M = np.arange(12, dtype=np.float32).reshape(3, 4)[::-1]
NHWC = ("NHWC", "HWIO", "NHWC")
IMAGES = np.sin(np.arange(2 * 6 * 6 * 3, dtype=np.float32)).reshape(2, 6, 6, 3)
KERNEL = np.cos(np.arange(3 * 3 * 3 * 4, dtype=np.float32)).reshape(3, 3, 3, 4)
SIGNAL = np.sin(np.arange(2 * 3 * 5, dtype=np.float32)).reshape(2, 3, 5)  # NCW
FILTER = np.cos(np.arange(4 * 3 * 2, dtype=np.float32)).reshape(4, 3, 2)  # OIW
SPD = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], np.float32)
_JITTED = {"key_unused_kept", "key_donated"}  # cases jitted with options of their own
_ORIGINAL_COUNTERS = {"original_bits", "original_bits_odd", "original_bits_uint8", "original_bits_uint16",
                      "original_uniform", "original_split", "original_fold_in", "original_keys_vmapped",
                      "original_keys_split", "original_uniform_odd", "original_bits_after_fold_in",
                      "original_gamma"}  # lowered with jax_threefry_partitionable off


def _cases(m):
    jnp, random = m.numpy, m.random
    key, raw = random.key(0), random.PRNGKey(0)
    committed = m.device_put(key, m.devices()[0])
    # scatters of one element at an index, and of the whole operand at no index
    one_element = m.lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                                scatter_dims_to_operand_dims=(0,))
    whole = m.lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(),
                                          scatter_dims_to_operand_dims=())
    return {
        "normal": (lambda k: random.normal(k, (3,)), key),
        "uniform_raw_key_2d": (lambda k: random.uniform(k, (2, 3)), raw),
        "bits_3d": (lambda k: random.bits(k, (2, 3, 4)), key),
        "bits_scalar": (lambda k: random.bits(k), key),
        "bits_uint8": (lambda k: random.bits(k, (5,), np.uint8), key),
        "split_raw_key": (lambda k: random.split(k), raw),
        "split_2d": (lambda k: random.split(k, (2, 3)), key),
        "fold_in": (lambda k, d: random.fold_in(k, d), key, 7),
        "randint": (lambda k: random.randint(k, (4,), 0, 10), key),
        "bernoulli": (lambda k: random.bernoulli(k, 0.3, (4,)), key),
        "seeded_inside": (lambda s: random.normal(random.PRNGKey(s), (2,)), 1),
        "typed_key_made_inside": (lambda s: random.key(s), 1),
        "two_draws_share_a_hash": (lambda k: random.normal(k, (3,)) + random.uniform(random.split(k)[0], (3,)), key),
        "keys_vmapped": (m.vmap(lambda k: random.normal(k, (3,))), random.split(key, 2)),
        "keys_vmapped_one_draw_each": (m.vmap(lambda k: random.bits(k)), random.split(key, 2)),
        "keys_split": (m.vmap(random.split), random.split(key, 2)),
        "key_grid_split": (m.vmap(m.vmap(random.split)), random.split(key, (2, 3))),
        "key_grid_bits": (m.vmap(m.vmap(lambda k: random.bits(k, (3,)))), random.split(key, (2, 3))),
        "keys_seeded": (m.vmap(random.key), np.arange(2)),
        "permutation": (lambda k: random.permutation(k, 5), key),
        "permutation_of_rows": (lambda k: random.permutation(k, M), key),
        "multivariate_normal": (lambda k: random.multivariate_normal(k, jnp.zeros(2), jnp.eye(2), (3,)), key),
        "categorical": (lambda k: random.categorical(k, jnp.zeros(4)), key),
        "key_identity": (lambda k: k, key),
        "committed_key": (lambda k: random.split(k), committed),
        "key_results_among_others": (lambda k: (random.split(k)[0], 2.0, random.fold_in(k, 1)), key),
        "key_unused_kept": (m.jit(lambda k, x: x, keep_unused=True), key, 1.0),
        "key_donated": (m.jit(lambda k: random.split(k), donate_argnums=0), key),
        "sort": (jnp.sort, X),
        "sort_axis_0": (lambda a: jnp.sort(a, axis=0), M),
        "sort_int32": (jnp.sort, np.arange(5, dtype=np.int32)[::-1]),
        "sort_bool": (jnp.sort, X > 0),
        "sort_float16": (jnp.sort, X.astype(np.float16)),
        "sort_bfloat16": (jnp.sort, X.astype(ml_dtypes.bfloat16)),
        "sort_complex64": (jnp.sort, X.astype(np.complex64)),
        "sort_unstable": (lambda a: m.lax.sort(a, is_stable=False), X),
        "sort_two_keys": (lambda a, b: m.lax.sort((a, b), num_keys=2), X, X[::-1].copy()),
        "argsort": (jnp.argsort, X),
        "top_k": (lambda a: m.lax.top_k(a, 3), X),
        "lexsort": (lambda a, b: jnp.lexsort((a, b)), X, X[::-1].copy()),
        "unique": (lambda a: jnp.unique(a, size=4), X),
        "median": (jnp.median, X),
        "cumsum": (lambda a: jnp.cumsum(a, axis=1), M),
        "cumsum_int32_twice": (lambda a: (jnp.cumsum(a), jnp.cumsum(a[1:])), np.arange(6, dtype=np.int32)),
        "cumprod_reverse": (lambda a: m.lax.cumprod(a, axis=0, reverse=True), M),
        "cummax_cummin": (lambda a: (m.lax.cummax(a, axis=1), m.lax.cummin(a, axis=1)), M),
        "keys_fold_in_one_message": (m.vmap(lambda k: random.fold_in(k, 3)), random.split(key, 3)),
        "keys_fold_in_messages": (m.vmap(random.fold_in), random.split(key, 3), np.arange(3, dtype=np.int32)),
        "key_fold_in_messages": (m.vmap(random.fold_in, in_axes=(None, 0)), key, np.arange(3, dtype=np.int32)),
        "raw_keys_fold_in": (m.vmap(lambda k: random.fold_in(k, 3)), random.split(raw, 3)),
        "keys_fold_in_nested": (m.vmap(m.vmap(random.fold_in, in_axes=(None, 0)), in_axes=(0, None)),
                                random.split(key, 2), np.arange(3, dtype=np.int32)),
        "gamma": (lambda k: random.gamma(k, 2.0, (3,)), key),
        "keys_gamma": (m.vmap(lambda k, a: random.gamma(k, a)), random.split(key, 3), np.ones(3, np.float32)),
        "keys_beta": (m.vmap(lambda k: random.beta(k, 2.0, 3.0)), random.split(key, 3)),
        "keys_dirichlet": (m.vmap(lambda k: random.dirichlet(k, jnp.ones(3))), random.split(key, 2)),
        "poisson": (lambda k: random.poisson(k, 3.0, (3,)), key),
        "keys_poisson": (m.vmap(lambda k, lam: random.poisson(k, lam)), random.split(key, 3),
                         np.array([1.0, 20.0, 3.0], np.float32)),
        "binomial": (lambda k: random.binomial(k, 10.0, 0.3, (3,)), key),
        "keys_binomial": (m.vmap(lambda k: random.binomial(k, 10.0, 0.3)), random.split(key, 3)),
        "original_bits": (lambda k: random.bits(k, (2, 3)), key),
        "original_bits_odd": (lambda k: random.bits(k, (5,)), key),
        "original_bits_uint8": (lambda k: random.bits(k, (5,), np.uint8), key),
        "original_bits_uint16": (lambda k: random.bits(k, (3,), np.uint16), key),
        "original_uniform": (lambda k: random.uniform(k, (2, 2)), raw),
        "original_split": (lambda k: random.split(k, 3), raw),
        "original_fold_in": (lambda k: random.fold_in(k, 5), key),
        "original_keys_vmapped": (m.vmap(lambda k: random.bits(k, (3,))), random.split(key, 2)),
        "original_keys_split": (m.vmap(lambda k: random.split(k)), random.split(key, 2)),
        "original_uniform_odd": (lambda k: random.uniform(k, (5,)), key),
        "original_bits_after_fold_in": (lambda k: random.bits(random.fold_in(k, 2), (3,)), key),
        "original_gamma": (lambda k: random.gamma(k, 2.0, (3,)), key),
        "linear_algebra": (_linear_algebra(m.lax.linalg), SPD, SPD[:, :2]),
        "cumlogsumexp": (lambda a: m.lax.cumlogsumexp(a, axis=1), M),
        "cumlogsumexp_reverse_float16": (lambda a: m.lax.cumlogsumexp(a, axis=0, reverse=True), M.astype(np.float16)),
        "cumlogsumexp_complex64": (lambda a: m.lax.cumlogsumexp(a, axis=0), M.astype(np.complex64)),
        "cumsum_reverse_int8": (lambda a: m.lax.cumsum(a, axis=0, reverse=True), M.astype(np.int8)),
        "cumprod_reverse_bfloat16": (lambda a: m.lax.cumprod(a, axis=1, reverse=True), M.astype(ml_dtypes.bfloat16)),
        "cummax_reverse_uint16": (lambda a: m.lax.cummax(a, axis=1, reverse=True), M.astype(np.uint16)),
        "cummin_reverse_3d": (lambda a: m.lax.cummin(a, axis=1, reverse=True), np.arange(24.0).reshape(2, 3, 4)),
        "any_over_no_axes": (lambda a: jnp.any(a > 1, axis=()), M),
        "sum_over_no_axes": (lambda a: jnp.sum(a, axis=()), M),
        "scatter_add_clip": (lambda a, i: a.at[i].add(1.0, mode="clip"), M, np.array([2, 5], np.int32)),
        "scatter_set_clip_window": (lambda a, i: a.at[i, 1:3].set(0.0, mode="clip"), M, np.array([0, 7], np.int32)),
        "scatter_clip_uint8_indices": (lambda a, i: m.lax.scatter_add(a, i, np.ones(2, np.float32), one_element,
                                                                      mode="clip"), X, np.array([[1], [9]], np.uint8)),
        "scatter_clip_no_index": (lambda a, i: m.lax.scatter_add(a, i, np.ones((2, 7), np.float32), whole,
                                                                 mode="clip"), X, np.zeros((2, 0), np.int32)),
        "gather_transposed_vmapped": (m.vmap(m.grad(lambda a, i: a[i]), in_axes=(None, 0)), X,
                                      np.array([1, 4, 6], np.int32)),
        "integer_powers": (lambda a: [m.lax.integer_pow(a, y) for y in (0, -1, -2, -5, 5)], M),
        "integer_powers_scalar": (lambda a: [m.lax.integer_pow(a, y) for y in (0, -1, -3)], np.float32(2.0)),
        "integer_power_complex": (lambda a: m.lax.integer_pow(a, -1), M.astype(np.complex64)),
        "singular_values_reduced": (lambda a: m.lax.linalg.svd(a, full_matrices=False, compute_uv=False), M),
        "singular_values_reduced_wide": (lambda a: m.lax.linalg.svd(a, full_matrices=False, compute_uv=False),
                                         M.T.copy()),
        "matrix_rank": (jnp.linalg.matrix_rank, M),
        "convolution_nhwc": (lambda x, k: m.lax.conv_general_dilated(x, k, (1, 1), "SAME", dimension_numbers=NHWC),
                             IMAGES, KERNEL),
        "convolution_grads": (m.grad(lambda x, k: m.lax.conv_general_dilated(
            x, k, (2, 1), "SAME", dimension_numbers=NHWC).sum(), argnums=(0, 1)), IMAGES, KERNEL),
        "convolution_complex": (lambda x, k: m.lax.conv_general_dilated(x, k, (1,), "VALID"),
                                SIGNAL.astype(np.complex64), FILTER.astype(np.complex64)),
        "convolution_no_spatial_axes": (lambda x, k: m.lax.conv_general_dilated(x, k, (), []), SIGNAL[:, :, 0],
                                        FILTER[:, :, 0]),
        "pooling": (lambda x: _pools(m.lax, x), IMAGES),
        "pooling_int32": (lambda x: _pools(m.lax, x), IMAGES.astype(np.int32)),
        "pooling_grads": (m.grad(lambda x: sum(p.sum() for p in _pools(m.lax, x))), IMAGES),
    }


def _pools(lax, x):
    """Max, min and sum pooling of an NHWC batch over 2x2 windows (strided, and overlapping with padding)."""
    window, strides = (1, 2, 2, 1), (1, 2, 2, 1)
    low = np.array(-np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min, x.dtype)
    high = np.array(np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).max, x.dtype)
    return (lax.reduce_window(x, low, lax.max, window, strides, "VALID"),
            lax.reduce_window(x, high, lax.min, window, (1, 1, 1, 1), "SAME"),
            lax.reduce_window(x, np.array(0, x.dtype), lax.add, window, strides, "VALID"))


def _linear_algebra(linalg):
    return lambda a, b: (linalg.cholesky(a), linalg.eigh(a), linalg.svd(b), linalg.qr(a),
                         linalg.qr(b, full_matrices=False), linalg.schur(a), linalg.hessenberg(a),
                         linalg.tridiagonal(a), linalg.triangular_solve(a, b, left_side=True, lower=True))


def lowered(m, name):
    """Case ``name``'s lowered text with ``m`` as jax, and the messages of the warnings lowering it gave."""
    fun, *args = _cases(m)[name]
    jitted = fun if name in _JITTED else m.jit(fun)
    with warnings.catch_warnings(record=True) as caught, m.threefry_partitionable(name not in _ORIGINAL_COUNTERS):
        warnings.simplefilter("always")
        text = jitted.lower(*args).as_text()
    return {"text": text, "warnings": [str(w.message) for w in caught]}


def record(m):
    return {name: lowered(m, name) for name in _cases(m)}


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    write_golden(record(module), HERE / "lowered_programs_golden.json")
