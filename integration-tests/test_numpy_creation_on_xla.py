"""jnp's array creation on the XLA backend: what array/asarray, the filled arrays, ranges, matrices, grids and
windows stage compiles and runs on XLA, eagerly and under jit, with NumPy's results."""

import ml_dtypes
import numpy as np
import pytest

import jaxle_core as jc
import jaxle_numpy as jnp
import jaxle_xla  # XLA becomes the default backend

V = np.arange(1.0, 4.0, dtype=np.float32)
M = np.arange(12.0, dtype=np.float32).reshape(3, 4)

# name -> (jnp function, NumPy reference, arguments)
CASES = {
    "array-of-tracers": (lambda v: jnp.array([[v[0], 2.0], [3.0, v[1]]]), lambda v: np.array([[v[0], 2], [3, v[1]]]),
                         (V,)),
    "asarray-dtype": (lambda v: jnp.asarray(v, jnp.int8), lambda v: v.astype(np.int8), (V,)),
    "array-ndmin-copy": (lambda v: jnp.array(v, ndmin=3), lambda v: v[None, None], (V,)),
    "full-like": (lambda v: jnp.full_like(v, 7) + jnp.zeros(3) + jnp.ones_like(v), lambda v: np.full(3, 8.0), (V,)),
    "full-vector-fill": (lambda v: jnp.full((2, 3), v), lambda v: np.broadcast_to(v, (2, 3)), (V,)),
    "arange": (lambda v: jnp.arange(1.0, 4.0, 0.5) + v[0], lambda v: np.arange(1.0, 4.0, 0.5) + v[0], (V,)),
    "arange-int4": (lambda v: jnp.arange(5, dtype=jnp.int4).astype(jnp.int32), lambda v: np.arange(5), (V,)),
    "linspace": (lambda v: jnp.linspace(v[0], v[2], 5), lambda v: np.linspace(v[0], v[2], 5), (V,)),
    "logspace-axis": (lambda v: jnp.logspace(v[:2], v[1:], 3, axis=1), lambda v: np.logspace(v[:2], v[1:], 3, axis=1),
                      (V,)),
    "geomspace": (lambda v: jnp.geomspace(v[0], 8 * v[0], 4), lambda v: np.geomspace(v[0], 8 * v[0], 4), (V,)),
    "eye-tri": (lambda v: jnp.eye(3, 4, k=1) + jnp.tri(3, 4, -1), lambda v: np.eye(3, 4, 1) + np.tri(3, 4, -1), (V,)),
    "tril-triu": (lambda m: jnp.tril(m, 1) - jnp.triu(m, 2), lambda m: np.tril(m, 1) - np.triu(m, 2), (M,)),
    "diag": (lambda v, m: jnp.diag(v, -1).sum() + jnp.diag(m, 1), lambda v, m: np.diag(v, -1).sum() + np.diag(m, 1),
             (V, M)),
    "diagflat": (lambda v: jnp.diagflat(v, 1), lambda v: np.diagflat(v, 1), (V,)),
    "vander": (lambda v: jnp.vander(v, 4), lambda v: np.vander(v, 4), (V,)),
    "tril_indices": (lambda m: jnp.asarray(m)[jnp.tril_indices(3, 1, 4)], lambda m: m[np.tril_indices(3, 1, 4)], (M,)),
    "meshgrid": (lambda v: jnp.meshgrid(v, v[:2])[1], lambda v: np.meshgrid(v, v[:2])[1], (V,)),
    "mgrid": (lambda v: jnp.mgrid[0:2, 0:1:3j] * v[0], lambda v: np.mgrid[0:2, 0:1:3j] * v[0], (V,)),
    "r_c_": (lambda v: jnp.c_[jnp.r_[v, 0.0], jnp.r_[1.0, v]], lambda v: np.c_[np.r_[v, 0], np.r_[1, v]], (V,)),
    "indices": (lambda v: jnp.indices((2, 3)) * v[0], lambda v: np.indices((2, 3)) * v[0], (V,)),
    "windows": (lambda v: jnp.hanning(5) + jnp.blackman(5) + jnp.kaiser(5, v[1]),
                lambda v: np.hanning(5) + np.blackman(5) + np.kaiser(5, v[1]), (V,)),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("jitted", [False, True])
def test_creation_on_xla_matches_numpy(name, jitted):
    fun, reference, args = CASES[name]
    out = (jc.jit(fun) if jitted else fun)(*args)
    assert type(out) is jaxle_xla.XlaArray
    np.testing.assert_allclose(np.asarray(out, np.float64), np.asarray(reference(*args), np.float64), rtol=2e-5,
                               atol=2e-5)


def test_host_values_become_xla_arrays():
    for value in (1.5, [1, 2], np.ones(2, ml_dtypes.bfloat16), np.arange(3.0)):
        assert type(jnp.asarray(value)) is jaxle_xla.XlaArray
    assert jnp.float32(2).dtype == np.float32 and jnp.array(2.0).weak_type
