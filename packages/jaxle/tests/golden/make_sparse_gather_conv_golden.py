"""Write sparse_gather_conv_golden.json: what ``bcoo_gather`` and ``bcoo_conv_general_dilated`` of
``jax.experimental.sparse`` compute (dense array and layout of each result) or raise, replayed by
test_sparse_gather_conv.py.

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_sparse_gather_conv_golden.py jax
"""

import importlib
import pathlib
import sys

import numpy as np
from golden_writer import write_golden
from make_sparse_golden import STACK, _bcoo, _record, sparse_of

F32 = np.float32
SIGNAL = np.array([[[1.0, 0, 0, 2, 0, 3, 0, 0]]], F32)
FILTER = np.array([[[1.0, 2, 3]]], F32)
ROWS = np.array([[2], [0]], np.int32)


def _gather(m, operand, indices, offset_dims, collapsed, index_map, slice_sizes, **kw):
    dims = m.lax.GatherDimensionNumbers(offset_dims=offset_dims, collapsed_slice_dims=collapsed,
                                        start_index_map=index_map)
    return lambda: sparse_of(m).bcoo_gather(operand, indices, dims, slice_sizes, **kw)


def _conv(m, lhs, rhs, **kw):
    kw.setdefault("window_strides", (1,))
    kw.setdefault("padding", "VALID")
    return lambda: sparse_of(m).bcoo_conv_general_dilated(lhs, rhs, **kw)


def _signal(m, **kw):
    return sparse_of(m).BCOO.fromdense(SIGNAL, **kw)


# name -> build(m) -> a function of no arguments; its result, or the error it raises, is recorded
CASES = {
    "gather_rows": lambda m: _gather(m, _bcoo(m), ROWS, (1,), (0,), (0,), (1, 4)),
    "gather_rows_out_of_range": lambda m: _gather(m, _bcoo(m), np.array([[5], [-1]], np.int32), (1,), (0,), (0,),
                                                  (1, 4)),
    "gather_columns": lambda m: _gather(m, _bcoo(m), np.array([[3], [0]], np.int32), (0,), (1,), (1,), (3, 1)),
    "gather_points": lambda m: _gather(m, _bcoo(m), np.array([[2, 3], [0, 0], [1, 1]], np.int32), (), (0, 1),
                                       (0, 1), (1, 1)),
    "gather_windows": lambda m: _gather(m, _bcoo(m), np.array([[[1, 0]], [[0, 2]]], np.int32), (2, 3), (), (0, 1),
                                        (2, 2)),
    "gather_batched_operand": lambda m: _gather(m, sparse_of(m).BCOO.fromdense(STACK, n_batch=1), ROWS, (0, 2), (1,),
                                                (1,), (2, 1, 3)),
    "gather_promise": lambda m: _gather(m, _bcoo(m), ROWS, (1,), (0,), (0,), (1, 4), mode="promise_in_bounds"),
    "gather_jit": lambda m: lambda: m.jit(lambda a, i: sparse_of(m).bcoo_gather(
        a, i, m.lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,)),
        (1, 4)))(_bcoo(m), ROWS),
    "gather_clip": lambda m: _gather(m, _bcoo(m), ROWS, (1,), (0,), (0,), (1, 4), mode="clip"),
    "gather_bad_collapse": lambda m: _gather(m, _bcoo(m), np.array([[2, 3]], np.int32), (), (0, 1), (0, 1), (1, 2)),
    "sparsify_take": lambda m: lambda: sparse_of(m).sparsify(lambda a: a[m.numpy.array([2, 0])])(_bcoo(m)),
    "sparsify_take_slice": lambda m: lambda: sparse_of(m).sparsify(lambda a, i: a[i, 1:])(
        _bcoo(m), m.numpy.array([2, 0])),
    "conv_valid": lambda m: _conv(m, _signal(m), FILTER),
    "conv_same": lambda m: _conv(m, _signal(m), FILTER, padding="SAME"),
    "conv_same_lower": lambda m: _conv(m, _signal(m), np.ones((1, 1, 4), F32), padding="SAME_LOWER"),
    "conv_explicit_padding": lambda m: _conv(m, _signal(m), FILTER, padding=[(2, 1)]),
    "conv_dense_signal": lambda m: _conv(m, SIGNAL, FILTER),
    "conv_sparse_filter": lambda m: _conv(m, _signal(m), sparse_of(m).BCOO.fromdense(FILTER)),
    "conv_dense_layout": lambda m: _conv(m, _signal(m, n_dense=1), FILTER),
    "conv_int": lambda m: _conv(m, sparse_of(m).BCOO.fromdense(SIGNAL.astype(np.int32)), FILTER.astype(np.int32)),
    "conv_strides": lambda m: _conv(m, _signal(m), FILTER, window_strides=(2,)),
    "conv_lhs_dilation": lambda m: _conv(m, _signal(m), FILTER, padding=[(0, 0)], lhs_dilation=(2,)),
    "conv_rhs_dilation": lambda m: _conv(m, _signal(m), FILTER, rhs_dilation=(2,)),
    "conv_groups": lambda m: _conv(m, sparse_of(m).BCOO.fromdense(np.ones((1, 2, 5), F32)), np.ones((2, 1, 3), F32),
                                   feature_group_count=2),
    "conv_batch": lambda m: _conv(m, sparse_of(m).BCOO.fromdense(np.eye(2, 5, dtype=F32)[:, None]), FILTER),
    "conv_features": lambda m: _conv(m, _signal(m), np.ones((2, 1, 3), F32)),
    "sparsify_conv": lambda m: lambda: sparse_of(m).sparsify(
        lambda a: m.lax.conv_general_dilated(a, FILTER, (1,), "SAME"))(_signal(m)),
}


def run_case(m, name: str) -> dict:
    """The result (dense array and layout) or the error of one case with module ``m`` as ``jax``."""
    try:
        out = CASES[name](m)()
    except Exception as e:  # noqa: BLE001 - the error is the result recorded
        return {"error": [type(e).__name__, str(e)]}
    return _record(m, out)


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    golden = {name: run_case(module, name) for name in CASES}
    out = pathlib.Path(__file__).parent / "sparse_gather_conv_golden.json"
    write_golden(golden, out)
