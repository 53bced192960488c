"""jnp indexing, .at[] updates and the index-driven functions on the XLA backend: what they stage (slices, dynamic
slices, gathers, scatters, jitted helpers) compiles and runs on XLA, eagerly and under jit, with NumPy's results."""

import numpy as np
import pytest

import jaxle_core as jc
import jaxle_numpy as jnp
import jaxle_xla  # XLA becomes the default backend
from jaxle_core.errors import NonConcreteBooleanIndexError

M = np.arange(12.0, dtype=np.float32).reshape(3, 4) - 5
I = np.array([2, 0, -1])
MASK = M > 0


def _at(index, kind, values):
    def reference(m):
        out = m.copy()
        getattr(np, kind).at(out, index, values) if kind != "set" else out.__setitem__(index, values)
        return out

    return reference


# name -> (jnp function of M, NumPy reference)
CASES = {
    "basic": (lambda m: m[1:, ::-2][None, ..., 0], lambda m: m[1:, ::-2][None, ..., 0]),
    "integer-arrays": (lambda m: m[I, 1:] + m[:, I].sum(), lambda m: m[I, 1:] + m[:, I].sum()),
    "mixed-advanced": (lambda m: m[np.array([[0], [2]]), np.array([1, 3])], lambda m: m[[[0], [2]], [1, 3]]),
    "mask": (lambda m: m[MASK], lambda m: m[MASK]),
    "out-of-bounds-clamped": (lambda m: m[np.array([5, -7]), 0], lambda m: m[[2, 0], 0]),
    "at-set": (lambda m: m.at[I, 1].set(9.0), _at((I, 1), "set", 9.0)),
    "at-add-repeated": (lambda m: m.at[np.array([1, 1])].add(1.0), _at(np.array([1, 1]), "add", 1.0)),
    "at-multiply": (lambda m: m.at[:, ::2].multiply(2.0), _at((slice(None), slice(None, None, 2)), "multiply", 2.0)),
    "at-min-max": (lambda m: m.at[0].min(-1.0).at[2].max(0.0),
                   lambda m: np.concatenate([np.minimum(m[:1], -1), m[1:2], np.maximum(m[2:], 0)])),
    "at-apply": (lambda m: m.at[1].apply(lambda v: v * v), lambda m: np.concatenate([m[:1], m[1:2] ** 2, m[2:]])),
    "at-get-fill": (lambda m: m.at[np.array([0, 9])].get(mode="fill", fill_value=-1.0),
                    lambda m: np.stack([m[0], np.full(4, -1.0)])),
    "take": (lambda m: jnp.take(m, I, axis=1, mode="clip"), lambda m: np.take(m, I, axis=1, mode="clip")),
    "take_along_axis": (lambda m: jnp.take_along_axis(m, np.argsort(m, 1), 1), lambda m: np.sort(m, 1)),
    "nonzero-sized": (lambda m: jnp.stack(jnp.nonzero(m > 2, size=6, fill_value=-1)),
                      lambda m: np.pad(np.stack(np.nonzero(m > 2)), ((0, 0), (0, 2)), constant_values=-1)),
    "compress-sized": (lambda m: jnp.compress(np.array([True, False, True]), m, axis=0, size=2),
                       lambda m: m[[0, 2]]),
    "choose-select-piecewise": (
        lambda m: jnp.choose(np.array([0, 1, 0, 1]), [m[0], m[1]], mode="clip") + jnp.select([m[2] > 3], [m[2]], 0)
        + jnp.piecewise(m[0], [m[0] < -3], [lambda v: -v, lambda v: v * 2]),
        lambda m: np.choose([0, 1, 0, 1], [m[0], m[1]]) + np.select([m[2] > 3], [m[2]], 0)
        + np.piecewise(m[0], [m[0] < -3], [lambda v: -v, lambda v: v * 2])),
    "put-place-fill_diagonal": (
        lambda m: jnp.put(m, np.array([0, 5]), 0.0, inplace=False) + jnp.place(m, MASK, 1.0, inplace=False)
        + jnp.fill_diagonal(m, 7.0, inplace=False),
        lambda m: np.where(np.isin(np.arange(12).reshape(3, 4), [0, 5]), 0, m) + np.where(MASK, 1, m)
        + np.where(np.eye(3, 4, dtype=bool), 7, m)),
    "bits-and-indices": (
        lambda m: jnp.unpackbits(jnp.packbits(m > 0, axis=1), axis=1, count=4).astype(jnp.float32)
        + jnp.ravel_multi_index(jnp.unravel_index(np.arange(12).reshape(3, 4), (3, 4)), (3, 4), mode="clip"),
        lambda m: (m > 0) + np.arange(12.0).reshape(3, 4)),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("jitted", [False, True])
def test_indexing_on_xla_matches_numpy(name, jitted):
    fun, reference = CASES[name]
    out = (jc.jit(fun) if jitted else fun)(jnp.asarray(M))
    assert type(out) is jaxle_xla.XlaArray
    np.testing.assert_allclose(np.asarray(out, np.float64), np.asarray(reference(M), np.float64), rtol=1e-6)


def test_vmap_and_grad_of_indexing_on_xla():
    rows = jc.vmap(lambda row, i: row.at[i].add(row[i - 1]))(M, np.array([0, 3, 1]))
    expected = M.copy()
    for r, i in enumerate([0, 3, 1]):
        expected[r, i] += M[r, i - 1]
    np.testing.assert_allclose(np.asarray(rows), expected)
    grad = jc.grad(lambda m: (m[I, 1:] ** 2).sum())(M)
    expected = np.zeros_like(M)
    np.add.at(expected, (I[:, None], np.arange(1, 4)), 2 * M[I][:, 1:])
    np.testing.assert_allclose(np.asarray(grad), expected)


def test_traced_mask_is_refused_on_xla():
    with pytest.raises(NonConcreteBooleanIndexError):
        jc.jit(lambda m: m[m > 0])(M)
