"""Cases shared by the structural/slicing golden generators and tests.

Each case is ``(name, build)`` where ``build(lax)`` returns ``(function, args)``; the function uses only the
``lax`` module it is given, so the same table runs on JAX (to write goldens) and on jaxle (to check them).
"""

from __future__ import annotations

import numpy as np

RNG = np.random.default_rng(0)
X = np.arange(20, dtype=np.float32).reshape(4, 5)
I = np.int32(1)


def _gdn(lax, offset, collapsed, start_map, obatch=(), ibatch=()):
    return lax.GatherDimensionNumbers(offset_dims=offset, collapsed_slice_dims=collapsed, start_index_map=start_map,
                                      operand_batching_dims=obatch, start_indices_batching_dims=ibatch)


def _sdn(lax, window, inserted, to_operand, obatch=(), ibatch=()):
    return lax.ScatterDimensionNumbers(update_window_dims=window, inserted_window_dims=inserted,
                                       scatter_dims_to_operand_dims=to_operand, operand_batching_dims=obatch,
                                       scatter_indices_batching_dims=ibatch)


# Gather configurations: (name, operand, indices, dimension numbers args, slice_sizes).
OP3 = np.arange(2 * 4 * 5, dtype=np.float32).reshape(2, 4, 5)
GATHER_CONFIGS = [
    ("rows", X, np.array([[1], [3], [0]], np.int32), ((1,), (0,), (0,)), (1, 5)),
    ("rows_oob", X, np.array([[-1], [3], [9]], np.int32), ((1,), (0,), (0,)), (1, 5)),
    ("points", X, np.array([[1, 2], [3, 4], [0, 0]], np.int32), ((), (0, 1), (0, 1)), (1, 1)),
    ("windows", X, np.array([[1, 2], [3, 4]], np.int32), ((1, 2), (), (0, 1)), (2, 3)),
    ("swapped_map", X, np.array([[4, 0], [2, 3]], np.int32), ((1,), (1,), (1, 0)), (2, 1)),
    ("offset_first", X, np.array([[[1], [2]], [[0], [3]]], np.int32), ((0,), (0,), (0,)), (1, 5)),
    ("batching", OP3, np.array([[[1], [3]], [[2], [0]]], np.int32), ((2,), (1,), (1,), (0,), (0,)), (1, 1, 5)),
    ("batching_mid", OP3, np.array([[[1], [3]], [[4], [0]]], np.int32).transpose(1, 0, 2),
     ((2,), (2,), (2,), (0,), (1,)), (1, 4, 1)),
    ("scalar_batch", X, np.array([2, 1], np.int32), ((0, 1), (), (0, 1)), (2, 2)),
    ("empty", X, np.zeros((0, 1), np.int32), ((1,), (0,), (0,)), (1, 5)),
]

SCATTER_CONFIGS = [
    ("rows", X, np.array([[1], [3], [1]], np.int32), ((1,), (0,), (0,)), (3, 5)),
    ("rows_oob", X, np.array([[-1], [3], [9]], np.int32), ((1,), (0,), (0,)), (3, 5)),
    ("points", X, np.array([[1, 2], [3, 4], [1, 2]], np.int32), ((), (0, 1), (0, 1)), (3,)),
    ("windows", X, np.array([[1, 2], [3, 4]], np.int32), ((1, 2), (), (0, 1)), (2, 2, 3)),
    ("window_first", X, np.array([[0], [3]], np.int32), ((0,), (1,), (1,)), (4, 2)),
    ("batching", OP3, np.array([[[1], [3]], [[2], [1]]], np.int32), ((2,), (1,), (1,), (0,), (0,)), (2, 2, 5)),
]

GATHER_MODES = [None, "clip", "fill", "promise_in_bounds"]
SCATTER_FUNCTIONS = ["scatter", "scatter_add", "scatter_sub", "scatter_mul", "scatter_min", "scatter_max"]


def value_cases():
    """Cases whose concrete results are recorded."""
    cases = []
    for name, operand, indices, dn, sizes in GATHER_CONFIGS:
        for mode in GATHER_MODES:
            if mode == "promise_in_bounds" and name.endswith("oob"):
                continue
            cases.append((f"gather_{name}_{mode}",
                          lambda lax, o=operand, i=indices, d=dn, s=sizes, m=mode:
                          (lambda a, b: lax.gather(a, b, _gdn(lax, *d), s, mode=m), (o, i))))
    for name, operand, indices, dn, update_shape in SCATTER_CONFIGS:
        updates = (np.arange(int(np.prod(update_shape)), dtype=np.float32).reshape(update_shape) - 3.0)
        for fn in SCATTER_FUNCTIONS:
            for mode in (None, "clip"):
                if fn == "scatter" and name in ("rows", "points"):
                    continue  # duplicate indices: which update wins is unspecified
                cases.append((f"{fn}_{name}_{mode}",
                              lambda lax, o=operand, i=indices, d=dn, u=updates, f=fn, m=mode:
                              (lambda a, b, c: getattr(lax, f)(a, b, c, _sdn(lax, *d), mode=m), (o, i, u))))
    specials = np.array([0.0, -0.0, 1.0009765625 + 2.0 ** -12, 1.0 + 2.0 ** -11, 1.0 + 3 * 2.0 ** -11, 65504.0,
                         65520.0, 70000.0, 6.1e-5, 1e-6, 1e-40, -3.3e38, np.inf, -np.inf, np.nan], np.float32)
    for exponent, mantissa in [(5, 10), (8, 7), (4, 3), (5, 2), (8, 23), (2, 0), (11, 52)]:
        cases.append((f"reduce_precision_f32_{exponent}_{mantissa}",
                      lambda lax, e=exponent, m=mantissa: (lambda a: lax.reduce_precision(a, e, m), (specials,))))
    cases.append(("reduce_precision_f16_4_3", lambda lax: (lambda a: lax.reduce_precision(a, 4, 3),
                                                           (specials.astype(np.float16),))))
    floats = np.array([np.nan, np.inf, -np.inf, 3e9, -3e9, -2.7, 2.7, 300.5, -0.0, 1e-3], np.float32)
    for target in ["int8", "uint8", "int16", "int32", "uint32", "bool", "float16", "bfloat16"]:
        cases.append((f"convert_f32_to_{target}", lambda lax, t=target: (lambda a: lax.convert_element_type(
            a, _dtype(lax, t)), (floats,))))
    ints = np.array([0, 1, -1, 300, -300, 2 ** 31 - 1, -2 ** 31], np.int32)
    for target in ["int8", "uint8", "uint32", "bool", "float16", "float32"]:
        cases.append((f"convert_i32_to_{target}", lambda lax, t=target: (lambda a: lax.convert_element_type(
            a, _dtype(lax, t)), (ints,))))
    complexes = np.array([1.5 + 2j, -2.5 - 1j, 2j, 0], np.complex64)
    for target in ["float32", "int32", "bool"]:
        cases.append((f"convert_c64_to_{target}", lambda lax, t=target: (lambda a: lax.convert_element_type(
            a, _dtype(lax, t)), (complexes,))))
    cases += [
        ("bitcast_f32_i32", lambda lax: (lambda a: lax.bitcast_convert_type(a, np.int32), (specials,))),
        ("bitcast_f32_u8", lambda lax: (lambda a: lax.bitcast_convert_type(a, np.uint8), (X[:2, :2],))),
        ("bitcast_u8_f32", lambda lax: (lambda a: lax.bitcast_convert_type(a, np.float32),
                                        (np.arange(24, dtype=np.uint8).reshape(2, 3, 4),))),
        ("bitcast_i16_f16", lambda lax: (lambda a: lax.bitcast_convert_type(a, np.float16),
                                         (np.array([15360, -1024, 31744], np.int16),))),
        ("dynamic_slice_clamp", lambda lax: (lambda a: lax.dynamic_slice(a, (3, -2), (2, 3)), (X,))),
        ("dynamic_slice_far_negative", lambda lax: (lambda a: lax.dynamic_slice(a, (-20, 9), (2, 3)), (X,))),
        ("dynamic_update_slice_clamp", lambda lax: (lambda a: lax.dynamic_update_slice(
            a, np.full((2, 2), -1, np.float32), (3, 4)), (X,))),
        ("dynamic_update_slice_negative", lambda lax: (lambda a: lax.dynamic_update_slice(
            a, np.full((2, 2), -1, np.float32), (-1, -2)), (X,))),
        ("dynamic_index_in_dim", lambda lax: (lambda a: lax.dynamic_index_in_dim(a, -1, 1, False), (X,))),
        ("dynamic_update_index_in_dim", lambda lax: (lambda a: lax.dynamic_update_index_in_dim(
            a, np.zeros(4, np.float32), -2, 1), (X,))),
        ("pad_mixed", lambda lax: (lambda a: lax.pad(a, np.float32(-1), ((1, -2, 1), (-1, 2, 2))), (X,))),
        ("pad_interior_empty", lambda lax: (lambda a: lax.pad(a, np.float32(7), ((2, 1, 3), (0, 0, 1))),
                                            (np.zeros((0, 1), np.float32),))),
        ("clamp_nan", lambda lax: (lambda a: lax.clamp(np.float32(0), a, np.float32(1)),
                                   (np.array([-1, 0.5, 2, np.nan], np.float32),))),
        # Operand dimensions may go to the output in any order; a size-1 one broadcasts as usual.
        ("broadcast_in_dim_permuted", lambda lax: (lambda a: lax.broadcast_in_dim(a, (5, 3, 4), (2, 0)), (X,))),
        ("broadcast_in_dim_permuted_expand", lambda lax: (lambda a: lax.broadcast_in_dim(a, (3, 2, 4), (2, 0, 1)),
                                                           (np.arange(6, dtype=np.int32).reshape(1, 3, 2),))),
        ("select_n_int", lambda lax: (lambda w: lax.select_n(w, X, -X, X * 2), (np.array([[0, 1, 2, 1, 0]] * 4,
                                                                                         np.int32),))),
    ]
    return cases


def _dtype(lax, name):
    import ml_dtypes

    return ml_dtypes.bfloat16 if name == "bfloat16" else np.dtype(name)


def jaxpr_cases():
    """Cases whose staged equations (primitive, params, output avals) are recorded."""
    f32 = np.float32
    gdn = ((1,), (0,), (0,))
    sdn = ((1,), (0,), (0,))
    idx = np.array([[1], [2]], np.int32)
    cases = [
        ("select_n", lambda lax: (lambda p, a, c: lax.select_n(p, a, c), (X > 3, X, X))),
        ("select_n_one_case", lambda lax: (lambda p, a: lax.select_n(p, a), (X > 3, X))),
        ("select", lambda lax: (lambda p, a, c: lax.select(p, a, c), (True, X, X))),
        ("select_python", lambda lax: (lambda a: lax.select(True, a, 2.0), (f32(1),))),
        ("clamp", lambda lax: (lambda a: lax.clamp(0.0, a, 1.0), (X,))),
        ("convert", lambda lax: (lambda a: lax.convert_element_type(a, np.int32), (X,))),
        ("convert_same", lambda lax: (lambda a: lax.convert_element_type(a, np.float32), (X,))),
        ("convert_weak", lambda lax: (lambda a: lax.convert_element_type(a * 2, np.float32), (1.0,))),
        ("convert_f64_x32", lambda lax: (lambda a: lax.convert_element_type(a, np.float64), (np.int32(1),))),
        ("bitcast_same", lambda lax: (lambda a: lax.bitcast_convert_type(a, np.float32), (X,))),
        ("bitcast_narrow", lambda lax: (lambda a: lax.bitcast_convert_type(a, np.int8), (X,))),
        ("bitcast_wide", lambda lax: (lambda a: lax.bitcast_convert_type(a, np.float32),
                                      (np.zeros((3, 2), np.uint16),))),
        ("reduce_precision", lambda lax: (lambda a: lax.reduce_precision(a, 5, 10), (X,))),
        ("reduce_precision_weak", lambda lax: (lambda a: lax.reduce_precision(a * 1.0, 5, 10), (1.0,))),
        ("iota", lambda lax: (lambda: lax.iota(np.int32, 4), ())),
        ("iota_float", lambda lax: (lambda: lax.iota(np.float32, 0), ())),
        ("broadcasted_iota", lambda lax: (lambda: lax.broadcasted_iota(np.int32, (2, 3), 1), ())),
        ("broadcast_in_dim", lambda lax: (lambda a: lax.broadcast_in_dim(a, (3, 4, 5), (1, 2)), (X,))),
        ("broadcast_in_dim_same", lambda lax: (lambda a: lax.broadcast_in_dim(a, (4, 5), (0, 1)), (X,))),
        ("broadcast_in_dim_permuted", lambda lax: (lambda a: lax.broadcast_in_dim(a, (5, 3, 4), (2, 0)), (X,))),
        ("broadcast_in_dim_python", lambda lax: (lambda: lax.broadcast_in_dim(1.0, (2, 3), ()), ())),
        ("broadcast", lambda lax: (lambda a: lax.broadcast(a, (2,)), (X,))),
        ("broadcast_empty", lambda lax: (lambda a: lax.broadcast(a, ()), (X,))),
        ("broadcast_to_rank", lambda lax: (lambda a: lax.broadcast_to_rank(a, 4), (X,))),
        ("broadcast_to_rank_same", lambda lax: (lambda a: lax.broadcast_to_rank(a, 2), (X,))),
        # operations that change nothing, given a NumPy value: JAX binds them (an array results)
        ("reshape_numpy_same", lambda lax: (lambda: lax.reshape(X, (4, 5)), ())),
        ("transpose_numpy_identity", lambda lax: (lambda: lax.transpose(X, (0, 1)), ())),
        ("squeeze_numpy_no_axes", lambda lax: (lambda: lax.squeeze(X, ()), ())),
        ("concatenate_numpy_one", lambda lax: (lambda: lax.concatenate([X], 0), ())),
        ("collapse_numpy_one_dimension", lambda lax: (lambda: lax.collapse(X, 0, 1), ())),
        ("broadcast_to_rank_numpy_same", lambda lax: (lambda: lax.broadcast_to_rank(X, 2), ())),
        ("reshape", lambda lax: (lambda a: lax.reshape(a, (5, 4)), (X,))),
        ("reshape_dims", lambda lax: (lambda a: lax.reshape(a, (5, 4), (1, 0)), (X,))),
        ("reshape_same", lambda lax: (lambda a: lax.reshape(a, (4, 5), (0, 1)), (X,))),
        ("squeeze", lambda lax: (lambda a: lax.squeeze(a, (0, -1)), (np.zeros((1, 3, 1), f32),))),
        ("squeeze_none", lambda lax: (lambda a: lax.squeeze(a, ()), (X,))),
        ("expand_dims", lambda lax: (lambda a: lax.expand_dims(a, (0, -1)), (X,))),
        ("expand_dims_none", lambda lax: (lambda a: lax.expand_dims(a, ()), (X,))),
        ("transpose", lambda lax: (lambda a: lax.transpose(a, (1, 0)), (X,))),
        ("transpose_identity", lambda lax: (lambda a: lax.transpose(a, (0, 1)), (X,))),
        ("rev", lambda lax: (lambda a: lax.rev(a, (1,)), (X,))),
        ("rev_none", lambda lax: (lambda a: lax.rev(a, ()), (X,))),
        ("pad", lambda lax: (lambda a: lax.pad(a, 0.0, ((1, 2, 0), (-1, 1, 2))), (X,))),
        ("pad_weak", lambda lax: (lambda a: lax.pad(a * 1.0, 2.0, ()), (1.0,))),
        ("concatenate", lambda lax: (lambda a, b: lax.concatenate([a, b, a], 1), (X, X))),
        ("concatenate_one", lambda lax: (lambda a: lax.concatenate([a], 0), (X,))),
        ("split", lambda lax: (lambda a: lax.split(a, (1, 0, 4), 1), (X,))),
        ("split_negative_axis", lambda lax: (lambda a: lax.split(a, [np.int32(3), 1], axis=-2), (X,))),
        ("split_one", lambda lax: (lambda a: lax.split(a, (4,)), (X,))),
        ("split_none", lambda lax: (lambda a: lax.split(a, ()), (np.zeros((0, 2), f32),))),
        ("split_weak", lambda lax: (lambda a: lax.split(lax.broadcast(a * 2.0, (3,)), np.array([2, 1])), (1.0,))),
        ("slice", lambda lax: (lambda a: lax.slice(a, (0, 1), (2, 5), (1, 2)), (X,))),
        ("slice_in_dim", lambda lax: (lambda a: lax.slice_in_dim(a, -3, None, axis=1), (X,))),
        ("index_in_dim", lambda lax: (lambda a: lax.index_in_dim(a, -1, 1, False), (X,))),
        ("dynamic_slice", lambda lax: (lambda a, i, j: lax.dynamic_slice(a, (i, j), (2, 3)), (X, I, I))),
        ("dynamic_slice_static", lambda lax: (lambda a: lax.dynamic_slice(a, (1, -2), (2, 2)), (X,))),
        ("dynamic_slice_nonneg", lambda lax: (lambda a, i: lax.dynamic_slice(a, (i, i), (2, 3),
                                                                             allow_negative_indices=False), (X, I))),
        ("dynamic_slice_array", lambda lax: (lambda a, i: lax.dynamic_slice(a, i, (2, 3)),
                                             (X, np.array([1, 2], np.int32)))),
        ("dynamic_slice_in_dim", lambda lax: (lambda a, i: lax.dynamic_slice_in_dim(a, i, 2, 1), (X, I))),
        ("dynamic_index_in_dim", lambda lax: (lambda a, i: lax.dynamic_index_in_dim(a, i, 1, False), (X, I))),
        ("dynamic_update_slice", lambda lax: (lambda a, u, i: lax.dynamic_update_slice(a, u, (i, 0)),
                                              (X, np.ones((2, 3), f32), I))),
        ("dynamic_update_slice_in_dim", lambda lax: (lambda a, u, i: lax.dynamic_update_slice_in_dim(a, u, i, 1),
                                                     (X, np.ones((4, 3), f32), I))),
        ("dynamic_update_index_in_dim", lambda lax: (lambda a, u, i: lax.dynamic_update_index_in_dim(a, u, i, 0),
                                                     (X, np.ones(5, f32), I))),
        ("gather_default", lambda lax: (lambda a, i: lax.gather(a, i, _gdn(lax, *gdn), (1, 5)), (X, idx))),
        ("gather_clip", lambda lax: (lambda a, i: lax.gather(a, i, _gdn(lax, *gdn), (1, 5), mode="clip"),
                                     (X, idx))),
        ("gather_fill", lambda lax: (lambda a, i: lax.gather(a, i, _gdn(lax, *gdn), (1, 5), mode="fill"),
                                     (X, idx))),
        ("gather_fill_int", lambda lax: (lambda a, i: lax.gather(a, i, _gdn(lax, *gdn), (1, 5), mode="fill"),
                                         (X.astype(np.int32), idx))),
        ("gather_fill_value", lambda lax: (lambda a, i: lax.gather(
            a, i, _gdn(lax, *gdn), (1, 5), mode=lax.GatherScatterMode.FILL_OR_DROP, fill_value=3), (X, idx))),
        ("gather_flags", lambda lax: (lambda a, i: lax.gather(a, i, _gdn(lax, *gdn), (1, 5), unique_indices=True,
                                                              indices_are_sorted=True), (X, idx))),
        ("getitem_scalar", lambda lax: (lambda a, i: a[i], (X, I))),
        ("getitem_slice", lambda lax: (lambda a, i: a[i, 1:3], (X, I))),
        ("getitem_second", lambda lax: (lambda a, i: a[..., i], (X, I))),
        ("getitem_none_rev", lambda lax: (lambda a, i: a[None, i, ::-1], (X, I))),
        ("getitem_two", lambda lax: (lambda a, i, j: a[i, j], (X, I, I))),
        ("getitem_uint8", lambda lax: (lambda a, i: a[i], (X, np.uint8(1)))),
    ]
    for fn in SCATTER_FUNCTIONS:
        cases.append((fn, lambda lax, f=fn: (lambda a, i, u: getattr(lax, f)(a, i, u, _sdn(lax, *sdn)),
                                             (X, idx, np.ones((2, 5), f32)))))
    cases.append(("scatter_add_int_clip", lambda lax: (lambda a, i, u: lax.scatter_add(
        a, i, u, _sdn(lax, *sdn), mode="clip", unique_indices=True), (X.astype(np.int32), idx,
                                                                      np.ones((2, 5), np.int32)))))
    return cases


def describe_value(value) -> object:
    """A JSON-safe description of one equation param."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return "nan" if value != value else value
    if isinstance(value, np.dtype):
        return value.name
    if hasattr(value, "_fields"):
        return {field: describe_value(getattr(value, field)) for field in value._fields}
    if isinstance(value, (tuple, list)):
        return [describe_value(v) for v in value]
    if hasattr(value, "eqns"):  # a (closed) jaxpr: its equations
        return {"jaxpr": [describe_eqn(e) for e in value.eqns]}
    if type(value).__name__ == "GatherScatterMode":
        return str(value)
    return type(value).__name__


def describe_eqn(eqn) -> dict:
    params = dict(eqn.params)
    if eqn.primitive.name in ("jit", "pjit"):
        params = {"name": params["name"], "jaxpr": params["jaxpr"]}
    return {"primitive": eqn.primitive.name, "param_names": list(params),
            "params": {k: describe_value(v) for k, v in params.items()},
            "outs": [[list(v.aval.shape), v.aval.dtype.name, bool(v.aval.weak_type)] for v in eqn.outvars]}


def describe_array(x) -> dict:
    x = np.asarray(x)
    if x.dtype.name == "bfloat16":
        return {"dtype": "bfloat16", "shape": list(x.shape), "bits": x.view(np.uint16).ravel().tolist()}
    flat = x.ravel()
    if np.issubdtype(x.dtype, np.complexfloating):
        values = [[_float(v.real), _float(v.imag)] for v in flat]
    elif np.issubdtype(x.dtype, np.floating):
        values = [_float(v) for v in flat]
    else:
        values = flat.tolist()
    return {"dtype": x.dtype.name, "shape": list(x.shape), "values": values}


def _float(v) -> object:
    v = float(v)
    if v != v:
        return "nan"
    if v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    return v if v != 0 or np.copysign(1, v) > 0 else "-0.0"
