"""jnp's grids and index helpers against JAX 0.10.2's records and NumPy."""

import jnp_golden
import make_grids_golden
import numpy as np
import pytest

import jaxle_core
import jaxle_numpy as jnp
from jaxle_core.test_util import check_grads

GOLDEN = jnp_golden.load("grids_golden.json")


@pytest.mark.parametrize("name", sorted(make_grids_golden.CASES))
def test_golden(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_grids_golden.CASES[name])
    jnp_golden.assert_case_matches(actual, GOLDEN[name])


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
def test_meshgrid_matches_numpy(indexing, sparse):
    xs = [np.arange(2.0), np.arange(3), np.arange(4.0) / 2]
    for n in (1, 2, 3):
        ours = jnp.meshgrid(*xs[:n], indexing=indexing, sparse=sparse)
        theirs = np.meshgrid(*xs[:n], indexing=indexing, sparse=sparse)
        for got, want in zip(ours, theirs):
            np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("key", [np.s_[0:3, 0:2], np.s_[0:1:5j, 2:-1:-1], np.s_[1:2:0.25], np.s_[-2:2, 0:1:2j, :2]])
def test_mgrid_ogrid_match_numpy(key):
    np.testing.assert_allclose(np.asarray(jnp.mgrid[key]), np.mgrid[key], rtol=1e-6)
    for got, want in zip(jnp.ogrid[key], np.ogrid[key]):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)


@pytest.mark.parametrize("key", [np.s_[1, 2, 3], np.s_[np.array([1, 2]), 0, -1:2], np.s_["0,2", [1, 2], [3, 4]],
                                 np.s_["1,2,0", [1, 2], [3, 4]], np.s_["r", 1:4], np.s_["c", [1, 2]]])
@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # NumPy's "r"/"c" directives make np.matrix
def test_r_matches_numpy(key):
    np.testing.assert_array_equal(np.asarray(jnp.r_[key]), np.asarray(np.r_[key]))


def test_c_and_indices_and_ix_match_numpy():
    a, b = np.arange(3), np.arange(3.0, 6.0)
    np.testing.assert_array_equal(np.asarray(jnp.c_[a, b, np.ones((3, 2))]), np.c_[a, b, np.ones((3, 2))])
    np.testing.assert_array_equal(np.asarray(jnp.indices((2, 3, 1))), np.indices((2, 3, 1)))
    for got, want in zip(jnp.indices((2, 3), sparse=True), np.indices((2, 3), sparse=True)):
        np.testing.assert_array_equal(np.asarray(got), want)
    for got, want in zip(jnp.ix_(np.array([0, 2]), np.array([1])), np.ix_(np.array([0, 2]), np.array([1]))):
        np.testing.assert_array_equal(np.asarray(got), want)
    assert jnp.s_[1:2, ::3] == np.s_[1:2, ::3] and jnp.index_exp[1] == (1,)


def test_fromfunction_matches_numpy():
    np.testing.assert_array_equal(np.asarray(jnp.fromfunction(lambda i, j: i * 10 + j, (3, 4), dtype=int)),
                                  np.fromfunction(lambda i, j: i * 10 + j, (3, 4), dtype=int))


def test_under_jit_vmap_and_grad():
    f = jaxle_core.jit(lambda x, y: jnp.meshgrid(x, y)[0] * jnp.c_[y, y][:, :1])
    x, y = np.arange(2, dtype=np.float32), np.arange(3, dtype=np.float32)
    np.testing.assert_allclose(np.asarray(f(x, y)), np.meshgrid(x, y)[0] * y[:, None])
    batched = jaxle_core.vmap(lambda v: jnp.r_[v, 0.0])(np.ones((2, 3), np.float32))
    np.testing.assert_array_equal(np.asarray(batched), np.c_[np.ones((2, 3)), np.zeros(2)])
    check_grads(lambda x, y: jnp.meshgrid(x, y, indexing="ij")[1], (x, y), order=2)
    check_grads(lambda x, y: jnp.r_["0,2", x, x * y[0]], (x, y), order=1)
