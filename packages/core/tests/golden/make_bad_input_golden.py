"""Write bad_input_golden.json: the exception each bad call raises, as the named module raises it.

    /work/jaxpeer/bin/python packages/core/tests/golden/make_bad_input_golden.py jax

Each case in ``CASES`` takes the module (``jax`` or ``jaxle_core``; both offer ``lax``, ``jit``, ``grad``, ``vmap``,
``make_jaxpr``, ``eval_shape`` ...) and does one wrong thing. The golden holds the exception's type name and the
start of its message's first line: functions are named without their address, the line is cut before JAX's
internal module paths, and where a case's message goes on into such detail ``PREFIX`` says how many characters count.
A case whose call succeeds in JAX records ``{"error": None}`` (JAX accepts it and so must jaxle).

Two messages (``jit-returns-*``) name the line of this file where their function is defined, as JAX's do: moving
those lines needs the JSON regenerated.
"""

import json
import pathlib
import re
import sys

import numpy as np

HERE = pathlib.Path(__file__).parent


def f32(*shape):
    return np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)


def i32(*shape):
    return np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)


X = f32(2, 3)


class _EqRaises:
    """A static argument whose ``__eq__`` fails, as a careless user class might."""

    def __hash__(self):
        return 0

    def __eq__(self, other):
        raise ValueError("no comparison for this static argument")


def _traced(m, fn, *args):
    """Trace ``fn`` on ``args``: JAX reports some bad parameters only while tracing (eagerly it fails lowering)."""
    return m.make_jaxpr(fn)(*args)


def _leak(m):
    leaked = []
    m.jit(lambda x: leaked.append(x) or x)(X)
    return m.lax.add(leaked[0], 1.0)


def _compile_then_call_with_other_tree(m):
    compiled = m.jit(lambda a: a[0]).lower((X, X)).compile()
    return compiled([X, X])


def _conv(m, lhs_shape, rhs_shape, strides, padding="VALID", **kw):
    return m.lax.conv_general_dilated(f32(*lhs_shape), f32(*rhs_shape), strides, padding, **kw)


def _gather(m, operand, indices, offset_dims, collapsed, start_index_map, slice_sizes, **kw):
    dn = m.lax.GatherDimensionNumbers(offset_dims=offset_dims, collapsed_slice_dims=collapsed,
                                      start_index_map=start_index_map)
    return m.lax.gather(operand, indices, dn, slice_sizes, **kw)


def _scatter_add(m, operand, indices, updates, window, inserted, to_operand):
    dn = m.lax.ScatterDimensionNumbers(update_window_dims=window, inserted_window_dims=inserted,
                                       scatter_dims_to_operand_dims=to_operand)
    return m.lax.scatter_add(operand, indices, updates, dn)


_GATHER_ROW = dict(offset_dims=(1,), collapsed=(0,), start_index_map=(0,))

CASES = {
    # --- shape, axis and size parameters must be integers ---
    "reshape-float-sizes": lambda m: m.lax.reshape(X, (2.9, 3.1)),
    "reshape-str-sizes": lambda m: m.lax.reshape(X, ("2", 3)),
    "reshape-numpy-float-size": lambda m: m.lax.reshape(X, (np.float32(6),)),
    "reshape-bool-size": lambda m: m.lax.reshape(f32(6), (True, 6)),
    "reshape-numpy-int-sizes": lambda m: m.lax.reshape(X, (np.int64(3), np.int8(2))),
    "reshape-negative": lambda m: m.lax.reshape(X, (-1, 6)),
    "reshape-dimensions-not-permutation": lambda m: m.lax.reshape(X, (6,), dimensions=(0, 0)),
    "reshape-dimensions-float": lambda m: m.lax.reshape(X, (6,), dimensions=(1.0, 0)),
    "broadcast-float-size": lambda m: m.lax.broadcast(X, (2.0,)),
    "broadcast-negative-size": lambda m: m.lax.broadcast(X, (-2,)),
    "broadcast-str-size": lambda m: m.lax.broadcast(X, ("2",)),
    "broadcast_in_dim-float-shape": lambda m: _traced(m, lambda x: m.lax.broadcast_in_dim(x, (2, 3.0), (0, 1)), X),
    "broadcast_in_dim-float-dims": lambda m: _traced(m, lambda x: m.lax.broadcast_in_dim(x, (2, 3), (0.0, 1)), X),
    "broadcast_in_dim-rank": lambda m: m.lax.broadcast_in_dim(X, (2, 3), (0,)),
    "broadcast_in_dim-incompatible": lambda m: m.lax.broadcast_in_dim(X, (4, 3), (0, 1)),
    "broadcast_in_dim-out-of-range": lambda m: m.lax.broadcast_in_dim(X, (2, 3), (0, 2)),
    "broadcast_in_dim-negative-shape": lambda m: m.lax.broadcast_in_dim(np.float32(1), (-1, 3), ()),
    "iota-negative": lambda m: m.lax.iota(np.int32, -1),
    "iota-float-size": lambda m: m.lax.iota(np.int32, 2.0),
    "iota-str-size": lambda m: m.lax.iota(np.int32, "3"),
    "iota-bool-dtype": lambda m: m.lax.iota(np.bool_, 3),
    "iota-str-dtype": lambda m: m.lax.iota(np.str_, 3),
    "broadcasted_iota-dimension-range": lambda m: m.lax.broadcasted_iota(np.int32, (2, 3), 2),
    "broadcasted_iota-negative-shape": lambda m: m.lax.broadcasted_iota(np.int32, (2, -3), 0),
    "full-negative": lambda m: m.lax.full((-1,), 1.0),
    "full-float-shape": lambda m: m.lax.full((2.0,), 1.0),
    "full-non-scalar-fill": lambda m: m.lax.full((2,), np.ones(2, np.float32)),
    "full-str-dtype": lambda m: m.lax.full((2,), 1.0, dtype=np.str_),
    "transpose-float": lambda m: m.lax.transpose(X, (1.0, 0)),
    "transpose-bool-permutation": lambda m: m.lax.transpose(X, (True, False)),
    "transpose-not-permutation": lambda m: m.lax.transpose(X, (0, 0)),
    "transpose-wrong-length": lambda m: m.lax.transpose(X, (1, 0, 2)),
    "transpose-str": lambda m: m.lax.transpose(X, ("1", "0")),
    "slice-float-limit": lambda m: _traced(m, lambda x: m.lax.slice(x, (0, 0), (1, 2.5)), X),
    "slice-rank": lambda m: _traced(m, lambda x: m.lax.slice(x, (0,), (1,)), X),
    "slice-limit-out-of-bounds": lambda m: _traced(m, lambda x: m.lax.slice(x, (0, 0), (3, 3)), X),
    "slice-start-after-limit": lambda m: _traced(m, lambda x: m.lax.slice(x, (1, 0), (0, 3)), X),
    "slice-negative-start": lambda m: _traced(m, lambda x: m.lax.slice(x, (-1, 0), (2, 3)), X),
    "slice_in_dim-float": lambda m: m.lax.slice_in_dim(X, 0, 1.0),
    "slice_in_dim-float-stride": lambda m: m.lax.slice_in_dim(X, 0, 1, 1.0),
    "index_in_dim-float": lambda m: m.lax.index_in_dim(X, 1.0),
    "index_in_dim-out-of-range": lambda m: m.lax.index_in_dim(X, 5),
    "pad-float-config": lambda m: m.lax.pad(X, np.float32(0), [(0, 1.0, 0), (0, 0, 0)]),
    "pad-negative-interior": lambda m: m.lax.pad(X, np.float32(0), [(0, 0, -1), (0, 0, 0)]),
    "pad-config-length": lambda m: m.lax.pad(X, np.float32(0), [(0, 0, 0)]),
    "pad-non-scalar-value": lambda m: m.lax.pad(X, np.zeros(2, np.float32), [(0, 0, 0), (0, 0, 0)]),
    "pad-dtype-mismatch": lambda m: m.lax.pad(X, np.int32(0), [(0, 0, 0), (0, 0, 0)]),
    "pad-too-negative": lambda m: m.lax.pad(X, np.float32(0), [(-2, -1, 0), (0, 0, 0)]),
    "pad-str-config": lambda m: m.lax.pad(X, np.float32(0), [("a", 0, 0), (0, 0, 0)]),
    "concatenate-float-dimension": lambda m: m.lax.concatenate([X, X], 0.0),
    "concatenate-dimension-range": lambda m: m.lax.concatenate([X, X], 2),
    "concatenate-shapes": lambda m: _traced(m, lambda x, y: m.lax.concatenate([x, y], 0), X, f32(2, 2)),
    "concatenate-ranks": lambda m: m.lax.concatenate([X, f32(3)], 0),
    "concatenate-dtypes": lambda m: _traced(m, lambda x, y: m.lax.concatenate([x, y], 0), X, i32(2, 3)),
    "concatenate-empty": lambda m: m.lax.concatenate([], 0),
    "concatenate-str-dimension": lambda m: m.lax.concatenate([X, X], "0"),
    "squeeze-float": lambda m: m.lax.squeeze(f32(1, 3), (0.0,)),
    "squeeze-not-one": lambda m: m.lax.squeeze(X, (0,)),
    "squeeze-out-of-range": lambda m: m.lax.squeeze(f32(1, 3), (2,)),
    "squeeze-str": lambda m: m.lax.squeeze(f32(1, 3), ("0",)),
    "expand_dims-float": lambda m: m.lax.expand_dims(X, (0.0,)),
    "expand_dims-out-of-range": lambda m: m.lax.expand_dims(X, (4,)),
    "expand_dims-negative-out-of-range": lambda m: m.lax.expand_dims(X, (-4,)),
    "rev-float": lambda m: m.lax.rev(X, (0.0,)),
    "rev-out-of-range": lambda m: m.lax.rev(X, (2,)),
    "rev-duplicate": lambda m: m.lax.rev(X, (0, 0)),
    "rev-negative": lambda m: m.lax.rev(X, (-1,)),
    "split-float-sizes": lambda m: m.lax.split(X, (1.0, 1), 0),
    "split-sizes-sum": lambda m: m.lax.split(X, (1, 2), 0),
    "split-negative-size": lambda m: m.lax.split(X, (3, -1), 0),
    "split-axis-range": lambda m: m.lax.split(X, (1, 1), 2),
    "split-float-axis": lambda m: m.lax.split(X, (1, 1), 0.0),
    "dynamic_slice-float-size": lambda m: m.lax.dynamic_slice(X, (0, 0), (1.0, 2)),
    "dynamic_slice-size-too-big": lambda m: m.lax.dynamic_slice(X, (0, 0), (3, 2)),
    "dynamic_slice-index-count": lambda m: m.lax.dynamic_slice(X, (0,), (1, 2)),
    "dynamic_slice-negative-size": lambda m: m.lax.dynamic_slice(X, (0, 0), (-1, 2)),
    "dynamic_slice-float-index": lambda m: m.lax.dynamic_slice(X, (np.float32(0), 0), (1, 2)),
    "dynamic_slice_in_dim-float": lambda m: m.lax.dynamic_slice_in_dim(X, 0, 1.0),
    "dynamic_update_slice-shape": lambda m: m.lax.dynamic_update_slice(X, f32(3, 3), (0, 0)),
    "dynamic_update_slice-dtype": lambda m: m.lax.dynamic_update_slice(X, i32(1, 1), (0, 0)),
    "dynamic_update_slice-rank": lambda m: m.lax.dynamic_update_slice(X, f32(3), (0, 0)),
    "reduce_precision-float-bits": lambda m: m.lax.reduce_precision(X, 5.0, 10),
    "reduce_precision-zero-exponent": lambda m: m.lax.reduce_precision(X, 0, 10),
    "reduce_precision-int-operand": lambda m: m.lax.reduce_precision(i32(3), 5, 10),
    "reduce_precision-negative-mantissa": lambda m: m.lax.reduce_precision(X, 5, -1),
    "integer_pow-float-exponent": lambda m: m.lax.integer_pow(X, 1.5),
    "integer_pow-str-exponent": lambda m: m.lax.integer_pow(X, "2"),
    "integer_pow-bool-exponent": lambda m: m.lax.integer_pow(X, True),
    "integer_pow-negative-int-base": lambda m: m.lax.integer_pow(i32(3), -1),
    "integer_pow-bool-base": lambda m: m.lax.integer_pow(np.array([True]), 2),
    # --- dtypes of operands and parameters ---
    "add-dtype-mismatch": lambda m: m.lax.add(X, i32(2, 3)),
    "add-shape-mismatch": lambda m: m.lax.add(X, f32(3, 2)),
    "add-rank-mismatch": lambda m: m.lax.add(X, f32(3)),
    "sin-int": lambda m: m.lax.sin(i32(3)),
    "exp-bool": lambda m: m.lax.exp(np.array([True])),
    "and-float": lambda m: m.lax.bitwise_and(X, X),
    "not-float": lambda m: m.lax.bitwise_not(X),
    "shift_left-float": lambda m: m.lax.shift_left(X, X),
    "rem-bool": lambda m: m.lax.rem(np.array([True]), np.array([True])),
    "atan2-int": lambda m: m.lax.atan2(i32(3), i32(3)),
    "complex-int": lambda m: m.lax.complex(i32(3), i32(3)),
    "real-float": lambda m: m.lax.real(X),
    "conj-str-array": lambda m: m.lax.conj(np.array(["a"])),
    "max-complex-bool-mix": lambda m: m.lax.max(np.array([True]), np.array([1j], np.complex64)),
    "select-pred-float": lambda m: m.lax.select(X, X, X),
    "select-shapes": lambda m: m.lax.select(np.ones((2, 3), bool), X, f32(3, 2)),
    "select_n-index-float": lambda m: m.lax.select_n(X, X, X),
    "select_n-no-cases": lambda m: m.lax.select_n(np.ones((2, 3), bool)),
    "clamp-shapes": lambda m: m.lax.clamp(f32(2), X, np.float32(1)),
    "clamp-dtypes": lambda m: m.lax.clamp(np.int32(0), X, np.float32(1)),
    "convert-to-str": lambda m: m.lax.convert_element_type(X, np.str_),
    "convert-to-object": lambda m: m.lax.convert_element_type(X, object),
    "convert-to-datetime": lambda m: m.lax.convert_element_type(X, np.dtype("datetime64[s]")),
    "convert-to-unknown-name": lambda m: m.lax.convert_element_type(X, "float33"),
    "bitcast-to-str": lambda m: m.lax.bitcast_convert_type(X, np.str_),
    "convert-to-none": lambda m: m.lax.convert_element_type(X, None),
    "bitcast-to-none": lambda m: m.lax.bitcast_convert_type(X, None),
    "iota-none-dtype": lambda m: m.lax.iota(None, 3),
    "argmax-none-index-dtype": lambda m: m.lax.argmax(X, 0, None),
    "bitcast-width-mismatch": lambda m: m.lax.bitcast_convert_type(np.ones((2, 3), np.int8), np.float32),
    "bitcast-to-bool": lambda m: m.lax.bitcast_convert_type(np.ones(3, np.int8), np.bool_),
    # --- reductions, cumulative, sorting ---
    "reduce-non-scalar-init": lambda m: m.lax.reduce(X, np.zeros(2, np.float32), m.lax.add, (0,)),
    "reduce-init-dtype": lambda m: m.lax.reduce(X, np.int32(0), m.lax.mul, (0,)),
    "reduce-tree-mismatch": lambda m: m.lax.reduce((X, X), (np.float32(0),), m.lax.add, (0,)),
    "reduce_sum-axis-range": lambda m: m.lax.reduce_sum(X, (2,)),
    "reduce_sum-duplicate": lambda m: m.lax.reduce_sum(X, (1, 1)),
    "reduce_sum-negative": lambda m: m.lax.reduce_sum(X, (-1,)),
    "reduce_and-float": lambda m: m.lax.reduce_and(X, (0,)),
    "argmax-float-axis": lambda m: m.lax.argmax(X, 0.0, np.int32),
    "argmax-axis-range": lambda m: m.lax.argmax(X, 2, np.int32),
    "argmin-float-index-dtype": lambda m: m.lax.argmin(X, 0, np.float32),
    "argmax-bool-index-dtype": lambda m: m.lax.argmax(X, 0, np.bool_),
    "cumsum-axis-range": lambda m: m.lax.cumsum(X, 2),
    "cumsum-bool": lambda m: m.lax.cumsum(np.array([True, False])),
    "cumsum-negative-axis": lambda m: m.lax.cumsum(X, -1),
    "cummax-complex": lambda m: m.lax.cummax(np.ones(3, np.complex64)),
    "sort-float-dimension": lambda m: m.lax.sort(X, dimension=0.0),
    "sort-dimension-range": lambda m: m.lax.sort(X, dimension=2),
    "sort-num-keys-zero": lambda m: m.lax.sort((X, X), num_keys=0),
    "sort-shapes": lambda m: m.lax.sort((X, f32(3))),
    "sort_key_val-shapes": lambda m: m.lax.sort_key_val(X, f32(3)),
    "top_k-float-k": lambda m: m.lax.top_k(X, 1.0),
    "top_k-k-too-big": lambda m: m.lax.top_k(X, 4),
    "top_k-negative-k": lambda m: m.lax.top_k(X, -1),
    "top_k-scalar": lambda m: m.lax.top_k(np.float32(1), 1),
    "top_k-float-axis": lambda m: m.lax.top_k(X, 1, axis=0.0),
    # --- windows, convolutions, dots, gathers, scatters ---
    "reduce_window-float-window": lambda m: m.lax.reduce_window(X, np.float32(0), m.lax.add, (1.0, 1), (1, 1),
                                                                "VALID"),
    "reduce_window-window-length": lambda m: m.lax.reduce_window(X, np.float32(0), m.lax.add, (1,), (1, 1),
                                                                 "VALID"),
    "reduce_window-bad-padding-name": lambda m: m.lax.reduce_window(X, np.float32(0), m.lax.add, (1, 1), (1, 1),
                                                                    "VALIDX"),
    "reduce_window-float-padding": lambda m: m.lax.reduce_window(X, np.float32(0), m.lax.add, (1, 1), (1, 1),
                                                                 [(0.5, 0), (0, 0)]),
    "conv-float-strides": lambda m: _conv(m, (1, 1, 4, 4), (1, 1, 2, 2), (1.0, 1)),
    "conv-rank-mismatch": lambda m: _conv(m, (1, 1, 4, 4), (1, 1, 2), (1, 1)),
    "conv-feature-mismatch": lambda m: _conv(m, (1, 2, 4, 4), (1, 3, 2, 2), (1, 1)),
    "conv-strides-length": lambda m: _conv(m, (1, 1, 4, 4), (1, 1, 2, 2), (1,)),
    "conv-feature-group-count": lambda m: _conv(m, (1, 2, 4, 4), (2, 1, 2, 2), (1, 1), feature_group_count=3),
    "conv-bad-padding-name": lambda m: _conv(m, (1, 1, 4, 4), (1, 1, 2, 2), (1, 1), padding="FULL"),
    "conv-float-padding": lambda m: _conv(m, (1, 1, 4, 4), (1, 1, 2, 2), (1, 1), padding=[(0.5, 0), (0, 0)]),
    "conv-triple-padding": lambda m: _conv(m, (1, 1, 4, 4), (1, 1, 2, 2), (1, 1), padding=[(0, 1, 2), (0, 0)]),
    "conv-float-feature-group-count": lambda m: _conv(m, (1, 2, 4, 4), (2, 1, 2, 2), (1, 1),
                                                      feature_group_count=2.0),
    "conv-dtypes": lambda m: _traced(m, lambda x, y: m.lax.conv_general_dilated(x, y, (1, 1), "VALID"),
                                     f32(1, 1, 4, 4), i32(1, 1, 2, 2)),
    "dot-shapes": lambda m: m.lax.dot(f32(2, 3), f32(2, 3)),
    "dot-rank-three": lambda m: m.lax.dot(f32(2, 2, 2), f32(2, 2, 2)),
    "dot_general-float-dims": lambda m: m.lax.dot_general(X, X, (((1.0,), (1,)), ((), ()))),
    "dot_general-float-batch-dims": lambda m: m.lax.dot_general(X, X, (((1,), (1,)), ((0.0,), (0,)))),
    "dot_general-contract-size": lambda m: m.lax.dot_general(X, f32(2, 2), (((1,), (1,)), ((), ()))),
    "dot_general-contract-range": lambda m: m.lax.dot_general(X, X, (((2,), (1,)), ((), ()))),
    "dot_general-batch-size": lambda m: m.lax.dot_general(f32(2, 3), f32(3, 3), (((1,), (1,)), ((0,), (0,)))),
    "dot_general-repeated-dims": lambda m: m.lax.dot_general(X, X, (((1, 1), (1, 1)), ((), ()))),
    "dot_general-bool-int-mix": lambda m: m.lax.dot_general(np.ones((2, 2), bool), f32(2, 2),
                                                            (((1,), (0,)), ((), ()))),
    "gather-float-indices": lambda m: _gather(m, X, np.zeros((1, 1), np.float32), slice_sizes=(1, 3), **_GATHER_ROW),
    "gather-slice-sizes-length": lambda m: _gather(m, X, np.zeros((1, 1), np.int32), slice_sizes=(1,), **_GATHER_ROW),
    "gather-float-slice-sizes": lambda m: _gather(m, X, np.zeros((1, 1), np.int32), slice_sizes=(1, 3.0),
                                                  **_GATHER_ROW),
    "gather-slice-size-too-big": lambda m: _gather(m, X, np.zeros((1, 1), np.int32), slice_sizes=(1, 4),
                                                   **_GATHER_ROW),
    "gather-collapsed-not-one": lambda m: _gather(m, X, np.zeros((1, 1), np.int32), slice_sizes=(2, 3),
                                                  **_GATHER_ROW),
    "gather-offset-dims-unsorted": lambda m: _gather(m, f32(2, 3, 4), np.zeros((1, 1), np.int32), (2, 1), (0,), (0,),
                                                     (1, 3, 4)),
    "gather-bad-mode": lambda m: _gather(m, X, np.zeros((1, 1), np.int32), slice_sizes=(1, 3), mode="wrap",
                                         **_GATHER_ROW),
    "scatter-updates-shape": lambda m: _scatter_add(m, X, np.zeros((1, 1), np.int32), f32(1, 4), (1,), (0,), (0,)),
    "scatter-dtypes": lambda m: _scatter_add(m, X, np.zeros((1, 1), np.int32), i32(1, 3), (1,), (0,), (0,)),
    "scatter-float-indices": lambda m: _scatter_add(m, X, np.zeros((1, 1), np.float32), f32(1, 3), (1,), (0,), (0,)),
    # --- control flow ---
    "cond-branch-types": lambda m: m.lax.cond(True, lambda: np.float32(1), lambda: np.int32(1)),
    "cond-branch-shapes": lambda m: m.lax.cond(True, lambda: f32(2), lambda: f32(3)),
    "cond-branch-trees": lambda m: m.lax.cond(True, lambda: (np.float32(1),), lambda: [np.float32(1)]),
    "cond-predicate-vector": lambda m: m.lax.cond(np.array([True, False]), lambda: 1.0, lambda: 2.0),
    "cond-predicate-float": lambda m: m.lax.cond(np.float32(1), lambda: 1.0, lambda: 2.0),
    "cond-not-callable": lambda m: m.lax.cond(True, 1.0, lambda: 2.0),
    "switch-float-index": lambda m: m.lax.switch(np.float32(0), [lambda: 1.0, lambda: 2.0]),
    "switch-no-branches": lambda m: m.lax.switch(0, []),
    "switch-branch-types": lambda m: m.lax.switch(0, [lambda: np.float32(1), lambda: np.int32(1)]),
    "scan-carry-dtype": lambda m: m.lax.scan(lambda c, x: (c + x, x), np.int32(0), f32(3)),
    "scan-carry-shape": lambda m: m.lax.scan(lambda c, x: (f32(2), x), np.float32(0), f32(3)),
    "scan-carry-tree": lambda m: m.lax.scan(lambda c, x: ((c, c), x), np.float32(0), f32(3)),
    "scan-body-not-pair": lambda m: m.lax.scan(lambda c, x: c, np.float32(0), f32(3)),
    "scan-xs-lengths": lambda m: m.lax.scan(lambda c, x: (c, x), np.float32(0), (f32(3), f32(4))),
    "scan-length-mismatch": lambda m: m.lax.scan(lambda c, x: (c, x), np.float32(0), f32(3), length=4),
    "scan-no-length": lambda m: m.lax.scan(lambda c, x: (c, x), np.float32(0), None),
    "while-float-predicate": lambda m: m.lax.while_loop(lambda c: c, lambda c: c - 1.0, np.float32(3)),
    "while-vector-predicate": lambda m: m.lax.while_loop(lambda c: c > 0, lambda c: c - 1.0, f32(2)),
    "while-carry-dtype": lambda m: m.lax.while_loop(lambda c: c < 3, lambda c: c + 1.5, np.int32(0)),
    "while-carry-tree": lambda m: m.lax.while_loop(lambda c: c[0] < 3, lambda c: c[0], (np.int32(0),)),
    "fori_loop-carry-dtype": lambda m: m.lax.fori_loop(0, 3, lambda i, c: c + 0.5, np.int32(0)),
    "fori_loop-float-bounds": lambda m: m.lax.fori_loop(0.0, 3.0, lambda i, c: c + 1, np.int32(0)),
    "fori_loop-bound-dtypes": lambda m: m.lax.fori_loop(np.int16(0), np.int32(3), lambda i, c: c, np.float32(0)),
    # --- autodiff ---
    "grad-non-scalar-output": lambda m: m.grad(lambda x: x)(f32(3)),
    "grad-int-input": lambda m: m.grad(lambda x: x)(np.int32(3)),
    "grad-int-output": lambda m: m.grad(lambda x: m.lax.convert_element_type(x, np.int32))(np.float32(1)),
    "grad-complex-output": lambda m: m.grad(lambda x: m.lax.complex(x, x))(np.float32(1)),
    "grad-complex-input": lambda m: m.grad(lambda x: x)(np.complex64(1)),
    "grad-has_aux-not-pair": lambda m: m.grad(lambda x: x, has_aux=True)(np.float32(1)),
    "grad-has_aux-three": lambda m: m.grad(lambda x: (x, x, x), has_aux=True)(np.float32(1)),
    "grad-argnums-range": lambda m: m.grad(lambda x: x, argnums=1)(np.float32(1)),
    "grad-argnums-empty-args": lambda m: m.grad(lambda: 1.0)(),
    "grad-str-argument": lambda m: m.grad(lambda x: 1.0)("a"),
    "grad-tuple-output": lambda m: m.grad(lambda x: (x, x))(np.float32(1)),
    "value_and_grad-non-scalar": lambda m: m.value_and_grad(lambda x: x)(f32(2)),
    "jvp-tangent-shape": lambda m: m.jvp(lambda x: x, (f32(3),), (f32(2),)),
    "jvp-tangent-dtype": lambda m: m.jvp(lambda x: x, (f32(3),), (np.ones(3, np.float16),)),
    "jvp-primals-not-tuple": lambda m: m.jvp(lambda x: x, f32(3), f32(3)),
    "jvp-tree-mismatch": lambda m: m.jvp(lambda x, y: x, (f32(3), f32(3)), (f32(3),)),
    "vjp-cotangent-shape": lambda m: m.vjp(lambda x: x, f32(3))[1](f32(2)),
    "vjp-cotangent-tree": lambda m: m.vjp(lambda x: x, f32(3))[1]((f32(3), f32(3))),
    "jacrev-int-input": lambda m: m.jacrev(lambda x: x)(i32(3)),
    "jacfwd-int-input": lambda m: m.jacfwd(lambda x: x)(i32(3)),
    # --- vmap ---
    "vmap-in_axes-range": lambda m: m.vmap(lambda x: x, in_axes=2)(X),
    "vmap-in_axes-negative-range": lambda m: m.vmap(lambda x: x, in_axes=-3)(X),
    "vmap-sizes": lambda m: m.vmap(lambda x, y: x + y)(f32(2), f32(3)),
    "vmap-in_axes-length": lambda m: m.vmap(lambda x, y: x, in_axes=(0, 0, 0))(X, X),
    "vmap-out_axes-range": lambda m: m.vmap(lambda x: x, out_axes=3)(X),
    "vmap-all-none": lambda m: m.vmap(lambda x: x, in_axes=None)(X),
    "vmap-scalar-argument": lambda m: m.vmap(lambda x: x)(np.float32(1)),
    "vmap-no-arguments": lambda m: m.vmap(lambda: 1.0)(),
    "vmap-in_axes-list": lambda m: m.vmap(lambda x, y: x, in_axes=[0, 0])(X, X),
    "vmap-axis_size-mismatch": lambda m: m.vmap(lambda x: x, axis_size=3)(X),
    "vmap-not-callable": lambda m: m.vmap(1.0),
    # --- jit ---
    "jit-static_argnums-range": lambda m: m.jit(lambda x: x, static_argnums=3)(X),
    "jit-static_argnames-unknown": lambda m: m.jit(lambda x: x, static_argnames="y")(X),
    "jit-donate_argnums-range": lambda m: m.jit(lambda x: x, donate_argnums=2)(X),
    "jit-returns-str": lambda m: m.jit(lambda x: "a")(X),
    "jit-returns-object": lambda m: m.jit(lambda x: object())(X),
    "jit-compiled-other-tree": _compile_then_call_with_other_tree,
    "jit-static-unhashable": lambda m: m.jit(lambda x, n: x, static_argnums=1)(X, [1]),
    "jit-static-eq-raises": lambda m: m.jit(lambda x, s: x, static_argnums=1)(X, _EqRaises()),
    "jit-not-callable": lambda m: m.jit(1.0),
    "jit-too-many-args": lambda m: m.jit(lambda x: x)(X, X),
    "jit-bool-conversion": lambda m: m.jit(lambda x: 1.0 if x > 0 else 0.0)(np.float32(1)),
    "jit-int-conversion": lambda m: m.jit(lambda x: [1, 2][x])(np.int32(1)),
    "jit-float-conversion": lambda m: m.jit(lambda x: float(x))(np.float32(1)),
    "jit-array-conversion": lambda m: m.jit(lambda x: np.asarray(x))(X),
    "jit-range-of-tracer": lambda m: m.jit(lambda n: m.lax.iota(np.int32, n))(np.int32(3)),
    "jit-leaked-tracer": _leak,
    # --- dtypes that are not abstract values ---
    "jit-str-array": lambda m: m.jit(lambda x: x)(np.array(["a"])),
    "jit-str": lambda m: m.jit(lambda x: x)("a"),
    "jit-object-array": lambda m: m.jit(lambda x: x)(np.array([None, 1], dtype=object)),
    "jit-void-array": lambda m: m.jit(lambda x: x)(np.zeros(2, dtype="V4")),
    "jit-longdouble": lambda m: m.jit(lambda x: x)(np.ones(2, np.longdouble)),
    "jit-none-list": lambda m: m.jit(lambda x: x)([1.0, object()]),
    "make_jaxpr-timedelta-array": lambda m: m.make_jaxpr(lambda x: x)(np.zeros(2, "timedelta64[s]")),
    "make_jaxpr-str-scalar": lambda m: m.make_jaxpr(lambda x: x)(np.str_("a")),
    "eval_shape-object-array": lambda m: m.eval_shape(lambda x: x, np.array([1, 2], dtype=object)),
    "grad-datetime64": lambda m: m.grad(lambda x: 1.0)(np.datetime64("2020-01-01")),
    "vmap-str-array": lambda m: m.vmap(lambda x: x)(np.array(["a", "b"])),
    "vmap-in_axes-str": lambda m: m.vmap(lambda x: x, in_axes="x")(X),
    "vmap-in_axes-float": lambda m: m.vmap(lambda x: x, in_axes=0.0)(X),
    "lax-add-str-array": lambda m: m.lax.add(np.array(["a"]), np.array(["b"])),
    "lax-neg-object": lambda m: m.lax.neg(object()),
    "lax-sin-str": lambda m: m.lax.sin("a"),
    "convert-from-datetime": lambda m: m.lax.convert_element_type(np.zeros(2, "datetime64[s]"), np.float32),
    "dtypes-canonicalize-str": lambda m: m.dtypes.canonicalize_dtype(np.str_),
    # --- more misuse of the transformations and loops ---
    "grad-returns-none": lambda m: m.grad(lambda x: None)(np.float32(1)),
    "grad-argnums-float": lambda m: m.grad(lambda x: x, argnums=0.0)(np.float32(1)),
    "grad-argnums-str": lambda m: m.grad(lambda x: x, argnums="x")(np.float32(1)),
    "grad-bool-input": lambda m: m.grad(lambda x: 1.0)(True),
    "grad-list-output": lambda m: m.grad(lambda x: [x])(np.float32(1)),
    "grad-not-callable": lambda m: m.grad(1.0),
    "jvp-int-primal-float-tangent": lambda m: m.jvp(lambda x: x, (np.int32(1),), (np.float32(1),)),
    "jvp-not-callable": lambda m: m.jvp(1.0, (X,), (X,)),
    "vjp-not-callable": lambda m: m.vjp(1.0, X),
    "value_and_grad-int-output": lambda m: m.value_and_grad(lambda x: m.lax.convert_element_type(x, np.int32))(
        np.float32(1)),
    "jacrev-not-callable": lambda m: m.jacrev(1.0),
    "hessian-int-input": lambda m: m.hessian(lambda x: x)(np.int32(1)),
    "linearize-str-argument": lambda m: m.linearize(lambda x: x, "a"),
    "cond-str-operand": lambda m: m.lax.cond(True, lambda x: x, lambda x: x, "a"),
    "cond-str-predicate": lambda m: m.lax.cond("a", lambda: 1.0, lambda: 2.0),
    "switch-index-vector": lambda m: m.lax.switch(np.array([0, 1]), [lambda: 1.0, lambda: 2.0]),
    "switch-not-callable": lambda m: m.lax.switch(0, [1.0, lambda: 2.0]),
    "scan-not-callable": lambda m: m.lax.scan(1.0, 0.0, f32(3)),
    "while-not-callable": lambda m: m.lax.while_loop(1.0, lambda c: c, 0),
    "while-predicate-tuple": lambda m: m.lax.while_loop(lambda c: (c < 3,), lambda c: c + 1, 0),
    "fori_loop-not-callable": lambda m: m.lax.fori_loop(0, 3, 1.0, 0),
    "map-not-callable": lambda m: m.lax.map(1.0, f32(3)),
    "associative_scan-lengths": lambda m: m.lax.associative_scan(m.lax.add, (f32(3), f32(4))),
    "vmap-in_axes-dict": lambda m: m.vmap(lambda x: x, in_axes={"x": 0})(X),
    "vmap-out_axes-none-batched": lambda m: m.vmap(lambda x: x, out_axes=None)(X),
    "vmap-out_axes-float": lambda m: m.vmap(lambda x: x, out_axes=1.0)(X),
    "jit-static_argnums-float": lambda m: m.jit(lambda x: x, static_argnums=0.0)(X),
    "jit-static_argnums-name": lambda m: m.jit(lambda x: x, static_argnums="x"),
    "jit-static_argnums-below-args": lambda m: m.jit(lambda *a: a[0], static_argnums=-3)(X, X),
    "jit-static_argnums-beyond-args": lambda m: m.jit(lambda *a: a[0], static_argnums=(0, 2))(1, X),
    "jit-static_argnums-missing-arg": lambda m: m.jit(lambda x, n: x, static_argnums=1)(X),
    "jit-donate_argnums-names": lambda m: m.jit(lambda x: x, donate_argnums=("x",)),
    "vmap-axis_name-list": lambda m: m.vmap(lambda x: x, axis_name=["i"])(X),
    "vmap-axis_name-dict": lambda m: m.vmap(lambda x: x, axis_name={"i": 0})(X),
    "cumsum-integral-float-axis": lambda m: m.lax.cumsum(X, axis=1.0),
    "broadcasted_iota-integral-float-dimension": lambda m: m.lax.broadcasted_iota(np.int32, (2, 3), 1.0),
    "dynamic_index_in_dim-integral-float-axis": lambda m: m.lax.dynamic_index_in_dim(X, 1, axis=1.0),
    "jit-str-keyword-argument": lambda m: m.jit(lambda x: x)(x="a"),
    "jit-none-argument": lambda m: m.jit(lambda x: x)(None),
    "eval_shape-not-callable": lambda m: m.eval_shape(1.0),
    "make_jaxpr-not-callable": lambda m: m.make_jaxpr(1.0)(),
    "make_jaxpr-static_argnums-range": lambda m: m.make_jaxpr(lambda x: x, static_argnums=2)(X),
    "ShapeDtypeStruct-none-dtype": lambda m: m.ShapeDtypeStruct((2,), None),
    # --- tracers and indexing ---
    "tracer-truth-value-of-vector": lambda m: m.jit(lambda x: x if x else x)(X),
    "tracer-len-of-scalar": lambda m: m.jit(lambda x: len(x))(np.float32(1)),
    "tracer-iterate-scalar": lambda m: m.jit(lambda x: list(x))(np.float32(1)),
    "tracer-setitem": lambda m: m.jit(lambda x: x.__setitem__(0, 1))(X),
    "index-float": lambda m: m.jit(lambda x: x[1.0])(X),
    "index-str": lambda m: m.jit(lambda x: x["a"])(X),
    "index-too-many": lambda m: m.jit(lambda x: x[0, 0, 0])(X),
    "index-two-ellipses": lambda m: m.jit(lambda x: x[..., ...])(X),
    "method-reshape-float": lambda m: m.jit(lambda x: x.reshape(2.0, 3))(X),
    "method-astype-str": lambda m: m.jit(lambda x: x.astype(np.str_))(X),
    "method-transpose-not-permutation": lambda m: m.jit(lambda x: x.transpose(0, 0))(X),
    # --- more lax parameters and operands ---
    "tile-float-reps": lambda m: m.lax.tile(X, (2.0, 1)),
    "tile-reps-length": lambda m: m.lax.tile(X, (1,)),
    "full_like-float-shape": lambda m: m.lax.full_like(X, 1.0, shape=(2.5,)),
    "expand_dims-duplicate": lambda m: m.lax.expand_dims(X, (0, 0)),
    "population_count-float": lambda m: m.lax.population_count(X),
    "clz-float": lambda m: m.lax.clz(X),
    "nextafter-int": lambda m: m.lax.nextafter(i32(3), i32(3)),
    "erf-int": lambda m: m.lax.erf(i32(3)),
    "lgamma-int": lambda m: m.lax.lgamma(i32(3)),
    "igamma-int": lambda m: m.lax.igamma(i32(3), i32(3)),
    "cbrt-complex": lambda m: m.lax.cbrt(np.ones(3, np.complex64)),
    "round-int": lambda m: m.lax.round(i32(3)),
    "round-bad-method": lambda m: m.lax.round(X, 7),
    "is_finite-int": lambda m: m.lax.is_finite(i32(3)),
    "imag-float": lambda m: m.lax.imag(X),
    "pow-int-base": lambda m: m.lax.pow(i32(3), f32(3)),
    "div-bool": lambda m: m.lax.div(np.array([True]), np.array([True])),
    "neg-bool": lambda m: m.lax.neg(np.array([True])),
    "sqrt-int": lambda m: m.lax.sqrt(i32(3)),
    "shift_right_logical-dtypes": lambda m: m.lax.shift_right_logical(i32(3), np.ones(3, np.int8)),
    "shift_left-dtypes": lambda m: m.lax.shift_left(i32(3), np.ones(3, np.int8)),
    "reduce_precision-float-mantissa": lambda m: m.lax.reduce_precision(X, 5, 2.5),
    "dynamic_update_slice-float-index": lambda m: m.lax.dynamic_update_slice(X, f32(1, 1), (np.float32(0), 0)),
    "dynamic_update_slice-index-count": lambda m: m.lax.dynamic_update_slice(X, f32(1, 1), (0,)),
    "dynamic_slice-mixed-index-dtypes": lambda m: m.lax.dynamic_slice(X, (np.int32(0), np.int64(0)), (1, 1)),
    "sort-no-operands": lambda m: m.lax.sort(()),
    "cumsum-reverse-str": lambda m: m.lax.cumsum(X, 0, reverse="yes"),
    "reduce_max-complex": lambda m: m.lax.reduce_max(np.ones(3, np.complex64), (0,)),
    "reduce_window-zero-dilation": lambda m: m.lax.reduce_window(X, np.float32(0), m.lax.add, (1, 1), (1, 1), "VALID",
                                                                 window_dilation=(0, 1)),
    "reduce_window-zero-stride": lambda m: m.lax.reduce_window(X, np.float32(0), m.lax.add, (1, 1), (0, 1), "VALID"),
    "reduce_window-zero-window": lambda m: m.lax.reduce_window(X, np.float32(0), m.lax.add, (0, 1), (1, 1), "VALID"),
    "reduce_window-window-too-big": lambda m: m.lax.reduce_window(X, np.float32(0), m.lax.add, (3, 1), (1, 1),
                                                                  "VALID"),
    "conv-rank-two": lambda m: m.lax.conv_general_dilated(f32(2, 3), f32(2, 3), (), "VALID"),
    "dot-preferred-str": lambda m: m.lax.dot(X, f32(3, 2), preferred_element_type=np.str_),
    "dot-bad-precision": lambda m: m.lax.dot(X, f32(3, 2), precision="ultra"),
    "batch_matmul-ranks": lambda m: m.lax.batch_matmul(f32(2, 3, 4), f32(3, 4)),
    "select-predicate-shape": lambda m: m.lax.select(np.ones(3, bool), X, X),
    "clamp-str": lambda m: m.lax.clamp(0.0, X, "a"),
    "iota-negative-float-dtype": lambda m: m.lax.iota(np.float32, -2),
    "broadcast_in_dim-too-many-dims": lambda m: m.lax.broadcast_in_dim(X, (2, 3, 4), (0, 1, 2)),
    "broadcast_in_dim-negative-dims": lambda m: m.lax.broadcast_in_dim(X, (2, 3, 4), (-1,)),
    "broadcast_in_dim-shape-rank": lambda m: m.lax.broadcast_in_dim(X, (3,), (0, 5)),
    "broadcast_in_dim-duplicate-dims": lambda m: m.lax.broadcast_in_dim(f32(3, 3), (2, 3), (1, 1)),
    "broadcast_in_dim-duplicate-dims-incompatible": lambda m: m.lax.broadcast_in_dim(X, (3, 3, 3), (2, 2)),
    "broadcast_in_dim-permuted": lambda m: m.lax.broadcast_in_dim(X, (3, 4, 2), (2, 0)),
    "transpose-negative": lambda m: m.lax.transpose(X, (-1, 0)),
    "rev-str": lambda m: m.lax.rev(X, ("0",)),
    "pad-int-config": lambda m: m.lax.pad(X, np.float32(0), 1),
    "squeeze-scalar": lambda m: m.lax.squeeze(np.float32(1), (0,)),
    "gather-int-mode": lambda m: _gather(m, X, np.zeros((1, 1), np.int32), slice_sizes=(1, 3), mode=3, **_GATHER_ROW),
}

# Cases whose message names an object: only this many leading characters are compared. Where JAX's message is
# an incidental Python one (a float reaching an operator or a slice), only the exception type is.
PREFIX = {
    "argmax-float-axis": 0,
    "concatenate-float-dimension": 0,
    "concatenate-str-dimension": 0,
    "pad-str-config": 0,
    "conv-float-strides": 0,
    "integer_pow-float-exponent": 0,
    "integer_pow-str-exponent": 0,
    "grad-has_aux-three": len("expected function with aux output to return a two-element tuple, but got type "),
    "grad-tuple-output": len("Gradient only defined for scalar-output functions. Output was ("),
    "grad-list-output": len("Gradient only defined for scalar-output functions. Output was ["),
    # float0's repr differs between NumPy versions
    "jvp-int-primal-float-tangent": len("primal and tangent arguments to jax.jvp do not match; dtypes must be equal, "
                                        "or in case of int/bool primal dtype the tangent dtype must be float0.Got "
                                        "primal dtype int32 and so expected tangent dtype "),
    "jit-range-of-tracer": len("Shapes must be 1D sequences of concrete values of integer type, got ("),
    "jit-leaked-tracer": len("Encountered an unexpected tracer."),
    "jit-static-unhashable": len("Non-hashable static arguments are not supported."),
    "vjp-cotangent-shape": len("unexpected JAX type (e.g. shape/dtype) for argument to VJP function: got float32[2], "
                               "but expected float32[3]"),
}

# Text beyond which a message names things by the implementation's own module paths.
_VOLATILE = re.compile(r"<class 'jax|jax\._src|jaxle_core\.|jaxlib")
# A function's repr carries its address: keep only its name.
_FUNCTION_REPR = re.compile(r"<function (\S+) at 0x[0-9a-fA-F]+>")
# Source locations name the checkout: keep only the file's name.
_DIRECTORY = re.compile(r"/\S*/(?=[^/\s]+\.py)")


def comparable(message: str) -> str:
    """The first line of ``message``, function addresses and directories dropped, cut before internal module paths."""
    line = _DIRECTORY.sub("", _FUNCTION_REPR.sub(r"<function \1>", message.split("\n")[0]))
    cut = _VOLATILE.search(line)
    return line if cut is None else line[:cut.start()]


def record_case(module, case, prefix=None) -> dict:
    """{'error': type name, 'message': comparable start of the first line}, or {'error': None}."""
    try:
        case(module)
    except Exception as error:  # noqa: BLE001 - the exception is what we record
        return {"error": type(error).__name__, "message": comparable(str(error))[:prefix]}
    return {"error": None}


def load_golden() -> dict:
    return json.loads((HERE / "bad_input_golden.json").read_text())


def assert_matches(actual: dict, expected: dict) -> None:
    """The same exception type as the golden, and a message starting with the golden's."""
    assert actual["error"] == expected["error"], actual
    if expected["error"] is not None:
        assert actual["message"].startswith(expected["message"]), actual["message"]


def main() -> None:
    import importlib

    module = importlib.import_module(sys.argv[1])
    golden = {name: record_case(module, case, PREFIX.get(name)) for name, case in CASES.items()}
    (HERE / "bad_input_golden.json").write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
