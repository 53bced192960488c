"""jax.experimental.sparse against JAX 0.10.2 (golden/sparse_golden.json from golden/make_sparse_golden.py: the
jaxprs of the sparse primitives, every result and the layout of sparse results) and against SciPy's sparse
matrices and NumPy dense references."""

import json
import pathlib
import sys

import numpy as np
import pytest
import scipy.sparse

import jaxle
import jaxle.numpy as jnp
from jaxle.experimental import sparse

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))

import make_sparse_golden as golden  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "sparse_golden.json").read_text())

# Cases whose sparse result stores its entries differently from JAX's (same dense array): JAX sizes these results
# by rules of its own, jaxle keeps the operands' entries.
OTHER_LAYOUT = {
    "index_row", "index_column", "index_slice", "index_traced", "index_batch", "squeeze", "dynamic_slice",
    "spmatmat_batch", "update_layout_batch", "update_layout_dense", "sum_batch", "concatenate", "sparse_jacfwd",
    "sparse_jacrev",
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_sparse_golden(name):
    got, expected = golden.run_case(jaxle, name), GOLDEN[name]
    if "jaxpr" in expected:
        assert got["jaxpr"] == expected["jaxpr"]
    golden.assert_outputs_match(got, expected, same_layout=name not in OTHER_LAYOUT)


def _random_matrix(rng, shape, density=0.4):
    dense = rng.standard_normal(shape).astype(np.float32)
    return dense * (rng.random(shape) < density)


@pytest.mark.parametrize("fmt", ["BCOO", "BCSR", "COO", "CSR", "CSC"])
def test_products_match_scipy(fmt):
    rng = np.random.default_rng(0)
    dense = _random_matrix(rng, (5, 7))
    reference = scipy.sparse.csr_matrix(dense)
    mat = getattr(sparse, fmt).fromdense(dense)
    v, b = rng.standard_normal(7).astype(np.float32), rng.standard_normal((7, 3)).astype(np.float32)
    np.testing.assert_allclose(mat @ v, reference @ v, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(mat @ b, reference @ b, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(mat.todense(), reference.toarray())
    assert mat.nse == reference.nnz


def test_from_scipy_sparse_keeps_duplicates():
    coo = scipy.sparse.coo_matrix((np.array([1.0, 2.0, 3.0], np.float32), (np.array([0, 0, 2]), np.array([1, 1, 0]))),
                                  shape=(3, 2))
    mat = sparse.BCOO.from_scipy_sparse(coo)
    assert mat.nse == 3 and not mat.unique_indices
    np.testing.assert_array_equal(mat.todense(), coo.toarray())
    np.testing.assert_array_equal(mat.sum_duplicates().todense(), coo.toarray())
    assert mat.sum_duplicates().nse == 2
    np.testing.assert_array_equal(sparse.BCSR.from_scipy_sparse(coo).todense(), coo.toarray())


@pytest.mark.parametrize("layout,other", [((0, 0), (2, 1)), ((1, 1), (0, 2)), ((2, 0), (1, 0))])
def test_layouts_hold_the_same_array(layout, other):
    dense = _random_matrix(np.random.default_rng(1), (2, 3, 4, 2))
    mat = sparse.BCOO.fromdense(dense, n_batch=layout[0], n_dense=layout[1])
    assert (mat.n_batch, mat.n_dense, mat.n_sparse) == (*layout, 4 - sum(layout))
    np.testing.assert_array_equal(mat.todense(), dense)
    moved = jaxle.jit(lambda m: m.update_layout(n_batch=other[0], n_dense=other[1], on_inefficient=None))(mat)
    assert (moved.n_batch, moved.n_dense) == other
    np.testing.assert_array_equal(moved.todense(), dense)


def test_dot_general_every_layout_matches_numpy():
    rng = np.random.default_rng(2)
    dense = _random_matrix(rng, (2, 3, 4))
    rhs = rng.standard_normal((2, 4, 5)).astype(np.float32)
    expected = np.einsum("bij,bjk->bik", dense, rhs)
    dims = (((2,), (1,)), ((0,), (0,)))
    rhs_t = np.swapaxes(rhs, 1, 2)

    @jaxle.jit
    def products(mat):
        # dense x sparse is the same product with the operands swapped
        return (sparse.bcoo_dot_general(mat, rhs, dimension_numbers=dims),
                sparse.bcoo_dot_general(rhs_t, mat, dimension_numbers=(((2,), (2,)), ((0,), (0,)))))

    for n_batch, n_dense in [(0, 0), (1, 1), (2, 0), (0, 2)]:
        out, swapped = products(sparse.BCOO.fromdense(dense, n_batch=n_batch, n_dense=n_dense))
        np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(swapped, np.swapaxes(expected, 1, 2), rtol=1e-5, atol=1e-5)


def test_sparse_sparse_product_matches_numpy():
    rng = np.random.default_rng(3)
    a, b = _random_matrix(rng, (4, 5)), _random_matrix(rng, (5, 3))
    out = sparse.BCOO.fromdense(a) @ sparse.BCOO.fromdense(b)
    assert isinstance(out, sparse.BCOO) and out.unique_indices
    np.testing.assert_allclose(out.todense(), a @ b, rtol=1e-5, atol=1e-6)


def test_grad_of_sparse_product_matches_finite_differences():
    rng = np.random.default_rng(4)
    mat = sparse.BCOO.fromdense(_random_matrix(rng, (3, 4)))
    v = rng.standard_normal(4).astype(np.float32)

    def loss(data, v):
        return jnp.sum(jnp.tanh(sparse.BCOO((data, mat.indices), shape=mat.shape) @ v))

    from jaxle.test_util import check_grads

    check_grads(loss, (mat.data, v), order=2, modes=["fwd", "rev"], atol=1e-2, rtol=1e-2)
    g_data, g_v = jaxle.jit(jaxle.grad(loss, argnums=(0, 1)))(mat.data, v)
    dense_g = jaxle.grad(lambda m, v: jnp.sum(jnp.tanh(m @ v)), argnums=(0, 1))(mat.todense(), v)
    np.testing.assert_allclose(g_v, dense_g[1], rtol=1e-5)
    np.testing.assert_allclose(g_data, sparse.bcoo_extract(mat, dense_g[0]).data, rtol=1e-5)


def test_vmap_over_batched_bcoo_and_inside():
    stack = np.array(golden.STACK)
    mat = sparse.BCOO.fromdense(stack, n_batch=1)
    v = np.array([1.0, 2.0, -1.0], np.float32)
    np.testing.assert_allclose(jaxle.vmap(lambda m: m @ v)(mat), stack @ v)
    out = jaxle.vmap(lambda m: m * 2.0)(mat)
    assert isinstance(out, sparse.BCOO) and out.shape == (2, 2, 3)
    np.testing.assert_allclose(out.todense(), 2 * stack)
    with pytest.raises(ValueError, match="Cannot map in_axis=0 for BCOO array with n_batch=0"):
        jaxle.vmap(lambda m: m.todense())(sparse.BCOO.fromdense(stack[0]))


def test_errors_match_jax():
    mat = sparse.BCOO.fromdense(np.eye(3, dtype=np.float32))
    with pytest.raises(jaxle.errors.ConcretizationTypeError, match="nse argument of bcoo_fromdense"):
        jaxle.jit(sparse.BCOO.fromdense)(np.eye(3, dtype=np.float32))
    with pytest.raises(sparse.SparseEfficiencyError, match="increasing n_batch from 0 to 1"):
        mat.update_layout(n_batch=1)
    with pytest.warns(sparse.SparseEfficiencyWarning):
        mat.update_layout(n_dense=1, on_inefficient="warn")
    with pytest.raises(NotImplementedError, match="Addition between a sparse array X and a dense array Y"):
        mat + 1.0
    with pytest.raises(ValueError, match="nse must be specified"):
        jaxle.jit(lambda m: sparse.bcoo_sum_duplicates(m))(mat)
    with pytest.raises(TypeError, match="First argument to bcoo_extract should be a BCOO array"):
        sparse.bcoo_extract(np.eye(3), np.eye(3))
    with pytest.raises(NotImplementedError, match="COO'>.__rmatmul__"):
        np.ones(3, np.float32) @ sparse.COO.fromdense(np.eye(3, dtype=np.float32))
    with pytest.raises(TypeError, match="dot_general requires contracting dimensions to have the same shape"):
        mat @ np.ones(4, np.float32)


def test_pytree_structure_and_repr():
    mat = sparse.BCOO.fromdense(np.array(golden.MAT))
    leaves, tree = jaxle.tree_util.tree_flatten(mat)
    assert len(leaves) == 2 and str(tree) == ("PyTreeDef(CustomNode(BCOO[{'shape': (3, 4), 'indices_sorted': True, "
                                              "'unique_indices': True}], [*, *]))")
    assert repr(mat) == "BCOO(float32[3, 4], nse=5)"
    assert repr(sparse.BCOO.fromdense(np.array(golden.STACK), n_batch=1)) == "BCOO(float32[2, 2, 3], nse=3, n_batch=1)"
    assert (mat.ndim, mat.size, len(mat), mat.dtype) == (2, 12, 3, np.float32)


def test_spsolve_matches_scipy_and_its_gradient_numpy():
    from jaxle.experimental.sparse import linalg

    rng = np.random.default_rng(5)
    dense = _random_matrix(rng, (5, 5)) + 4 * np.eye(5, dtype=np.float32)
    b = rng.standard_normal(5).astype(np.float32)
    csr = sparse.CSR.fromdense(dense)
    x = jaxle.jit(linalg.spsolve)(csr.data, csr.indices, csr.indptr, b)
    np.testing.assert_allclose(x, np.linalg.solve(dense, b), rtol=1e-5)
    jaxpr = str(jaxle.make_jaxpr(linalg.spsolve)(csr.data, csr.indices, csr.indptr, b))
    assert "spsolve[reorder=1 tol=1e-06] a b c d" in jaxpr
    g_data, g_b = jaxle.grad(lambda d, b: jnp.sum(linalg.spsolve(d, csr.indices, csr.indptr, b) ** 2),
                             argnums=(0, 1))(csr.data, b)
    dense_g = jaxle.grad(lambda m, b: jnp.sum(jnp.linalg.solve(m, b) ** 2), argnums=(0, 1))(dense, b)
    np.testing.assert_allclose(g_b, dense_g[1], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(g_data, np.asarray(dense_g[0])[dense != 0], rtol=1e-4, atol=1e-5)
    with pytest.raises(NotImplementedError, match="Batching rule for 'spsolve' not implemented"):
        jaxle.vmap(lambda b: linalg.spsolve(csr.data, csr.indices, csr.indptr, b))(np.stack([b, b]))
