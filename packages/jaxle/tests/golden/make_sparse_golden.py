"""Write sparse_golden.json: what ``jax.experimental.sparse`` stages and computes, replayed by test_sparse.py.

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_sparse_golden.py jax

Per case: the ``make_jaxpr`` text (for the cases in ``JAXPR_CASES``, whose programs are the sparse primitives
themselves) and every result, a sparse one as its dense array and its layout (shape, nse, n_batch, n_dense).
"""

import importlib
import pathlib
import sys

import numpy as np
from golden_writer import write_golden

F32 = np.float32
MAT = np.array([[1.0, 0.0, 2.0, 0.0], [0.0, 0.0, 3.0, 0.0], [4.0, 0.0, 0.0, 5.0]], F32)
STACK = np.array([[[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]], [[0.0, 0.0, 4.0], [5.0, 0.0, 6.0]]], F32)
VEC = np.array([1.0, -2.0, 0.5, 3.0], F32)
ROWS = np.array([2.0, -1.0, 0.5], F32)
DENSE = np.arange(12, dtype=F32).reshape(4, 3) / 4
DUPLICATES = (np.array([1.0, 2.0, 3.0, 4.0], F32), np.array([[0, 1], [2, 0], [0, 1], [3, 2]], np.int32))


def sparse_of(m):
    return importlib.import_module(m.__name__ + ".experimental.sparse")


def _bcoo(m, **kw):
    return sparse_of(m).BCOO.fromdense(MAT, **kw)


def _duplicates(m):
    return sparse_of(m).BCOO(DUPLICATES, shape=(4, 3))


# name -> build(m) -> (function, arguments); the jaxpr of these is compared too
JAXPR_CASES = {
    "fromdense": lambda m: (lambda x: sparse_of(m).BCOO.fromdense(x, nse=6), [MAT]),
    "fromdense_padded": lambda m: (lambda x: sparse_of(m).BCOO.fromdense(x, nse=7), [MAT]),
    "fromdense_batch": lambda m: (lambda x: sparse_of(m).BCOO.fromdense(x, nse=3, n_batch=1), [STACK]),
    "fromdense_dense": lambda m: (lambda x: sparse_of(m).BCOO.fromdense(x, nse=2, n_dense=1), [STACK]),
    "todense": lambda m: (lambda a: a.todense(), [_bcoo(m)]),
    "todense_batch": lambda m: (lambda a: a.todense(), [sparse_of(m).BCOO.fromdense(STACK, n_batch=1)]),
    "todense_dense": lambda m: (lambda a: a.todense(), [sparse_of(m).BCOO.fromdense(STACK, n_dense=1)]),
    "todense_duplicates": lambda m: (lambda a: a.todense(), [_duplicates(m)]),
    "api_todense": lambda m: (sparse_of(m).todense, [_bcoo(m)]),
    "matvec": lambda m: (lambda a, v: a @ v, [_bcoo(m), VEC]),
    "matmat": lambda m: (lambda a, b: a @ b, [_bcoo(m), DENSE]),
    "vecmat": lambda m: (lambda a, v: m.numpy.asarray(v) @ a, [_bcoo(m), ROWS]),
    "matmat_left": lambda m: (lambda a, b: m.numpy.asarray(b) @ a, [_bcoo(m), DENSE]),
    "matvec_batch": lambda m: (lambda a, v: a @ v, [sparse_of(m).BCOO.fromdense(STACK, n_batch=1),
                                                    ROWS]),
    "matvec_duplicates": lambda m: (lambda a, v: a @ v, [_duplicates(m), ROWS]),
    "dot_general_batch": lambda m: (lambda a, b: sparse_of(m).bcoo_dot_general(
        a, b, dimension_numbers=(((2,), (1,)), ((0,), (0,)))),
        [sparse_of(m).BCOO.fromdense(STACK, n_batch=1), np.ones((2, 3, 2), F32)]),
    "spmatmat": lambda m: (lambda a: a @ a.T, [_bcoo(m)]),
    "transpose": lambda m: (lambda a: a.T, [_bcoo(m)]),
    "sort_indices": lambda m: (lambda a: a.sort_indices(), [_duplicates(m)]),
    "sum_duplicates": lambda m: (lambda a: sparse_of(m).bcoo_sum_duplicates(a, nse=3), [_duplicates(m)]),
    "extract": lambda m: (lambda a, x: sparse_of(m).bcoo_extract(a, x), [_duplicates(m), DENSE]),
    "extract_unique": lambda m: (lambda a, x: sparse_of(m).bcoo_extract(a, x, assume_unique=True),
                                 [_duplicates(m), DENSE]),
    "mul_scalar": lambda m: (lambda a: a * 2.0, [_bcoo(m)]),
    "grad_matvec": lambda m: (m.grad(lambda d, i, v: (sparse_of(m).BCOO((d, i), shape=MAT.shape) @ v).sum(),
                                     argnums=(0, 2)), [_bcoo(m).data, _bcoo(m).indices, VEC]),
    "grad_matmat": lambda m: (m.grad(lambda d, i, b: (sparse_of(m).BCOO((d, i), shape=MAT.shape) @ b).sum(),
                                     argnums=(0, 2)), [_bcoo(m).data, _bcoo(m).indices, DENSE]),
    "grad_fromdense": lambda m: (m.grad(lambda x: sparse_of(m).BCOO.fromdense(x, nse=6).data.sum()), [MAT]),
    "grad_todense": lambda m: (m.grad(lambda d, i: (sparse_of(m).BCOO((d, i), shape=MAT.shape).todense() ** 2)
                                      .sum()), [_bcoo(m).data, _bcoo(m).indices]),
    "vmap_todense": lambda m: (m.vmap(lambda d, i: sparse_of(m).BCOO((d, i), shape=MAT.shape).todense(),
                                      in_axes=(0, None)),
                               [np.stack([_bcoo(m).data, 2 * _bcoo(m).data]), _bcoo(m).indices]),
    "vmap_matvec": lambda m: (m.vmap(lambda d, i, v: sparse_of(m).BCOO((d, i), shape=MAT.shape) @ v,
                                     in_axes=(None, None, 0)),
                              [_bcoo(m).data, _bcoo(m).indices, np.stack([VEC, -VEC, 2 * VEC])]),
    "vmap_fromdense": lambda m: (m.vmap(lambda x: sparse_of(m).BCOO.fromdense(x, nse=3).todense()), [STACK]),
    "bcsr_fromdense": lambda m: (lambda x: sparse_of(m).BCSR.fromdense(x, nse=6), [MAT]),
    "bcsr_todense": lambda m: (lambda a: a.todense(), [sparse_of(m).BCSR.fromdense(MAT)]),
    "bcsr_matvec": lambda m: (lambda a, v: a @ v, [sparse_of(m).BCSR.fromdense(MAT), VEC]),
    "bcsr_matmat": lambda m: (lambda a, b: a @ b, [sparse_of(m).BCSR.fromdense(MAT), DENSE]),
    "bcsr_batch_todense": lambda m: (lambda a: a.todense(), [sparse_of(m).BCSR.fromdense(STACK, n_batch=1)]),
    "coo_fromdense": lambda m: (lambda x: sparse_of(m).COO.fromdense(x, nse=6), [MAT]),
    "coo_todense": lambda m: (lambda a: a.todense(), [sparse_of(m).COO.fromdense(MAT)]),
    "coo_matvec": lambda m: (lambda a, v: a @ v, [sparse_of(m).COO.fromdense(MAT), VEC]),
    "coo_matmat": lambda m: (lambda a, b: a @ b, [sparse_of(m).COO.fromdense(MAT), DENSE]),
    "csr_fromdense": lambda m: (lambda x: sparse_of(m).CSR.fromdense(x, nse=6), [MAT]),
    "csr_todense": lambda m: (lambda a: a.todense(), [sparse_of(m).CSR.fromdense(MAT)]),
    "csr_matvec": lambda m: (lambda a, v: a @ v, [sparse_of(m).CSR.fromdense(MAT), VEC]),
    "csr_matmat": lambda m: (lambda a, b: a @ b, [sparse_of(m).CSR.fromdense(MAT), DENSE]),
}

# name -> build(m) -> (function, arguments): results only (their programs are composites of lax operations)
VALUE_CASES = {
    "mul_dense": lambda m: (lambda a, x: a * x, [_bcoo(m), np.arange(12, dtype=F32).reshape(3, 4)]),
    "mul_sparse": lambda m: (lambda a: a * a, [_bcoo(m)]),
    "add_sparse": lambda m: (lambda a: a + a.T.T, [_bcoo(m)]),
    "add_dense": lambda m: (lambda a, x: a + x, [_bcoo(m), np.ones((3, 4), F32)]),
    "neg": lambda m: (lambda a: -a, [_bcoo(m)]),
    "div_scalar": lambda m: (lambda a: a / 4.0, [_bcoo(m)]),
    "sum_all": lambda m: (lambda a: a.sum(), [_bcoo(m)]),
    "sum_rows": lambda m: (lambda a: a.sum(0), [_bcoo(m)]),
    "sum_cols": lambda m: (lambda a: a.sum(1), [_bcoo(m)]),
    "sum_batch": lambda m: (lambda a: a.sum(0), [sparse_of(m).BCOO.fromdense(STACK, n_batch=1)]),
    "sum_dense": lambda m: (lambda a: a.sum(2), [sparse_of(m).BCOO.fromdense(STACK, n_dense=1)]),
    "reshape": lambda m: (lambda a: a.reshape(2, 6), [_bcoo(m)]),
    "reshape_flat": lambda m: (lambda a: a.reshape(12), [_bcoo(m)]),
    "index_row": lambda m: (lambda a: a[1], [_bcoo(m)]),
    "index_column": lambda m: (lambda a: a[:, 2], [_bcoo(m)]),
    "index_slice": lambda m: (lambda a: a[1:, ::2], [_bcoo(m)]),
    "index_batch": lambda m: (lambda a: a[1], [sparse_of(m).BCOO.fromdense(STACK, n_batch=1)]),
    "index_traced": lambda m: (m.jit(lambda a, i: a[i]), [_bcoo(m), np.int32(2)]),
    "index_new_axis": lambda m: (lambda a: a[None], [_bcoo(m)]),
    "update_layout_batch": lambda m: (lambda a: a.update_layout(n_batch=0),
                                      [sparse_of(m).BCOO.fromdense(STACK, n_batch=1)]),
    "update_layout_dense": lambda m: (lambda a: a.update_layout(n_dense=0),
                                      [sparse_of(m).BCOO.fromdense(STACK, n_dense=1)]),
    "sum_duplicates_method": lambda m: (lambda a: a.sum_duplicates(), [_duplicates(m)]),
    "spmatmat_batch": lambda m: (lambda a, b: sparse_of(m).bcoo_dot_general(
        a, b, dimension_numbers=(((2,), (1,)), ((0,), (0,)))),
        [sparse_of(m).BCOO.fromdense(STACK, n_batch=1),
         sparse_of(m).BCOO.fromdense(np.ones((2, 3, 2), F32), n_batch=1)]),
    "rev": lambda m: (lambda a: sparse_of(m).bcoo_rev(a, (0, 1)), [_bcoo(m)]),
    "concatenate": lambda m: (lambda a: sparse_of(m).bcoo_concatenate([a, a], dimension=1), [_bcoo(m)]),
    "broadcast_in_dim": lambda m: (lambda a: sparse_of(m).bcoo_broadcast_in_dim(
        a, shape=(2, 3, 4), broadcast_dimensions=(1, 2)), [_bcoo(m)]),
    "squeeze": lambda m: (lambda a: sparse_of(m).bcoo_squeeze(a[None], dimensions=(0,)), [_bcoo(m)]),
    "dynamic_slice": lambda m: (m.jit(lambda a, i: sparse_of(m).bcoo_dynamic_slice(a, (i, 1), (2, 2))),
                                [_bcoo(m), np.int32(1)]),
    "sampled": lambda m: (lambda x, y, a: sparse_of(m).bcoo_dot_general_sampled(
        x, y, a.indices, dimension_numbers=(((1,), (0,)), ((), ()))), [DENSE.T, DENSE, _bcoo(m)]),
    "multiply_dense": lambda m: (lambda a, x: sparse_of(m).bcoo_multiply_dense(a, x), [_bcoo(m), VEC]),
    "sparse_grad": lambda m: (sparse_of(m).grad(lambda a, v: (a @ v).sum()), [_bcoo(m), VEC]),
    "sparse_value_and_grad": lambda m: (sparse_of(m).value_and_grad(lambda a, v: ((a @ v) ** 2).sum(),
                                                                    argnums=(0, 1)), [_bcoo(m), VEC]),
    "sparse_jacfwd": lambda m: (sparse_of(m).jacfwd(lambda a, v: a @ v), [_bcoo(m), VEC]),
    "sparse_jacrev": lambda m: (sparse_of(m).jacrev(lambda a, v: a @ v), [_bcoo(m), VEC]),
    "jit_matvec": lambda m: (m.jit(lambda a, v: a @ v), [_bcoo(m), VEC]),
    "jit_returns_sparse": lambda m: (m.jit(lambda a: a * 3.0), [_bcoo(m)]),
    "vmap_batched_bcoo": lambda m: (m.vmap(lambda a: a.todense().sum(0)),
                                    [sparse_of(m).BCOO.fromdense(STACK, n_batch=1)]),
    "eye": lambda m: (lambda: sparse_of(m).eye(3, 4, k=1), []),
    "eye_csr": lambda m: (lambda: sparse_of(m).eye(3, sparse_format="csr").todense(), []),
    "empty": lambda m: (lambda: sparse_of(m).empty((2, 3), dtype=F32), []),
    "csc": lambda m: (lambda x, v: (sparse_of(m).CSC.fromdense(x) @ v, sparse_of(m).CSC.fromdense(x).todense()),
                      [MAT, VEC]),
    "csr_transpose_matvec": lambda m: (lambda a, v: a.T @ v, [sparse_of(m).CSR.fromdense(MAT), ROWS]),
    "coo_grad": lambda m: (m.grad(lambda d, a, v: (sparse_of(m).COO((d, a.row, a.col), shape=MAT.shape) @ v).sum()),
                           [sparse_of(m).COO.fromdense(MAT).data, sparse_of(m).COO.fromdense(MAT), VEC]),
    "bcsr_grad": lambda m: (m.grad(lambda d, a, v: (sparse_of(m).BCSR((d, a.indices, a.indptr), shape=MAT.shape)
                                                    @ v).sum()),
                            [sparse_of(m).BCSR.fromdense(MAT).data, sparse_of(m).BCSR.fromdense(MAT), VEC]),
    "bcsr_from_bcoo": lambda m: (lambda a: sparse_of(m).BCSR.from_bcoo(a).todense(), [_bcoo(m)]),
    "bcsr_to_bcoo": lambda m: (lambda a: a.to_bcoo(), [sparse_of(m).BCSR.fromdense(MAT)]),
}


def _record(m, value):
    sparse = sparse_of(m)
    if isinstance(value, sparse.JAXSparse):
        layout = {"shape": list(value.shape), "nse": int(value.nse),
                  "n_batch": int(getattr(value, "n_batch", 0)), "n_dense": int(getattr(value, "n_dense", 0))}
        return {"dense": np.asarray(value.todense()).tolist(), "layout": layout}
    return {"dense": np.asarray(value).tolist()}


def record_outputs(m, out, fun=None, args=()) -> dict:
    """Every result in ``out`` (dense and sparse leaves) and, given ``fun`` and its ``args``, its jaxpr."""
    leaves = m.tree_util.tree_leaves(out, is_leaf=lambda x: isinstance(x, sparse_of(m).JAXSparse))
    record = {"out": [_record(m, leaf) for leaf in leaves]}
    if fun is not None:
        record["jaxpr"] = str(m.make_jaxpr(fun)(*args))
    return record


def assert_outputs_match(got: dict, expected: dict, same_layout: bool = True) -> None:
    """``got``'s results equal ``expected``'s (recorded by ``record_outputs``): dense arrays, shapes of sparse ones
    and, with ``same_layout``, their whole layout."""
    assert len(got["out"]) == len(expected["out"])
    for mine, theirs in zip(got["out"], expected["out"]):
        np.testing.assert_allclose(np.asarray(mine["dense"], float), np.asarray(theirs["dense"], float), rtol=1e-6,
                                   atol=1e-6)
        assert ("layout" in mine) == ("layout" in theirs)
        if "layout" in theirs:
            assert mine["layout"]["shape"] == theirs["layout"]["shape"]
            assert not same_layout or mine["layout"] == theirs["layout"]


def run_case(m, name: str) -> dict:
    """The jaxpr (for a case of JAXPR_CASES) and the results of one case with module ``m`` as ``jax``."""
    build = JAXPR_CASES.get(name) or VALUE_CASES[name]
    fun, args = build(m)
    return record_outputs(m, fun(*args), *((fun, args) if name in JAXPR_CASES else ()))


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    golden = {name: run_case(module, name) for name in (*JAXPR_CASES, *VALUE_CASES)}
    out = pathlib.Path(__file__).parent / "sparse_golden.json"
    write_golden(golden, out)
