"""jnp indexing and ``.at[]`` updates with ``jax.ds`` dynamic slices: JAX's goldens, and windows at every start
under jit and vmap against NumPy."""

import jnp_golden
import make_ds_indexing_golden
import numpy as np
import pytest

import jaxle_core
import jaxle_numpy as jnp
from jaxle_core.lax.refs import ds
from jaxle_core.test_util import check_grads

GOLDEN = jnp_golden.load("ds_indexing_golden.json")
X = np.arange(10.0, dtype=np.float32)


@pytest.mark.parametrize("name", sorted(make_ds_indexing_golden.CASES))
def test_golden(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_ds_indexing_golden.CASES[name])
    jnp_golden.assert_case_matches(actual, GOLDEN[name])


def _window(start: int, size: int) -> np.ndarray:
    """NumPy's reference for ``x[ds(start, size)]``: a negative start counts from the end, then it is clamped."""
    start = start + X.size if start < 0 else start
    start = min(max(start, 0), X.size - size)
    return X[start:start + size]


def test_windows_at_every_start_under_jit_and_vmap():
    starts = np.arange(-4, 11, dtype=np.int32)
    expected = np.stack([_window(int(s), 3) for s in starts])
    x = jnp.asarray(X)
    jitted = jaxle_core.jit(lambda i: x[ds(i, 3)])
    np.testing.assert_array_equal(np.stack([np.asarray(jitted(s)) for s in starts]), expected)
    np.testing.assert_array_equal(np.asarray(jaxle_core.vmap(lambda i: x[ds(i, 3)])(starts)), expected)


def test_strided_updates_against_numpy():
    reference = X.copy()
    reference[1:7:2] += 5.0
    got = jaxle_core.jit(lambda x, i: x.at[ds(i, 3, 2)].add(5.0))(jnp.asarray(X), np.int32(1))
    np.testing.assert_array_equal(np.asarray(got), reference)


def test_gradients():
    def windows_product(x):
        x = jnp.asarray(x)  # (finite differences call it with NumPy arrays)
        return x[ds(2, 3, 2)] * x[ds(1, 3)]

    check_grads(windows_product, (X,), order=2, modes=("fwd", "rev"))
