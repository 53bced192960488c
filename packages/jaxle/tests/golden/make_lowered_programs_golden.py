"""Write lowered_programs_golden.json: the whole StableHLO text (``jit(f).lower(*args).as_text()``) of programs
that draw random numbers, sort, or scan cumulatively, recorded from the module named on the command line:

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_lowered_programs_golden.py jax

The cases cover threefry2x32 (its function and loop, the counters of one or several dimensions and of several
keys, seeding, splitting, folding in), typed keys as arguments and results (constrained inside ``main`` unless
committed), the comparison of ``sort`` (floats, integers, complex numbers, several keys) and what builds on it
(argsort, lexsort, unique, median, permutation), the cumulative reductions, reductions over no axes, and the
order and names of the module's functions. A case whose lowering warns records the warnings' messages too.
"""

import importlib
import json
import pathlib
import sys
import warnings

import ml_dtypes
import numpy as np

HERE = pathlib.Path(__file__).parent
X = np.array([3.0, -0.0, np.nan, 0.0, -np.inf, 1.0, -2.0], np.float32)
M = np.arange(12, dtype=np.float32).reshape(3, 4)[::-1]
_JITTED = {"key_unused_kept", "key_donated"}  # cases jitted with options of their own


def _cases(m):
    jnp, random = m.numpy, m.random
    key, raw = random.key(0), random.PRNGKey(0)
    committed = m.device_put(key, m.devices()[0])
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
        "keys_seeded": (m.vmap(random.key), np.arange(2)),
        "permutation": (lambda k: random.permutation(k, 5), key),
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
        "any_over_no_axes": (lambda a: jnp.any(a > 1, axis=()), M),
        "sum_over_no_axes": (lambda a: jnp.sum(a, axis=()), M),
    }


def lowered(m, name):
    """Case ``name``'s lowered text with ``m`` as jax, and the messages of the warnings lowering it gave."""
    fun, *args = _cases(m)[name]
    jitted = fun if name in _JITTED else m.jit(fun)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        text = jitted.lower(*args).as_text()
    return {"text": text, "warnings": [str(w.message) for w in caught]}


def record(m):
    return {name: lowered(m, name) for name in _cases(m)}


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    (HERE / "lowered_programs_golden.json").write_text(json.dumps(record(module), indent=1, sort_keys=True) + "\n")
