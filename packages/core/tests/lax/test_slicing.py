"""slicing lax primitives: gather/scatter vs NumPy fancy indexing and JAX 0.10.2 goldens, dynamic slices,
indexing with traced scalars, errors."""

from __future__ import annotations

import importlib.util
import pathlib

import numpy as np
import pytest

import jaxle_core as jc
from jaxle_core import lax

_spec = importlib.util.spec_from_file_location("lax_structural_tests",
                                               pathlib.Path(__file__).parent / "test_structural.py")
_helpers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_helpers)
cases = _helpers.cases

SLICING_VALUE_CASES = [n for n, _ in cases.value_cases() if n.startswith(("gather", "scatter", "dynamic"))]
SLICING_JAXPR_CASES = [n for n, _ in cases.jaxpr_cases() if not _helpers._is_structural(n)]


@pytest.mark.parametrize("name", SLICING_VALUE_CASES)
def test_values_match_jax(name):
    _helpers.run_value_case(name)


@pytest.mark.parametrize("name", SLICING_JAXPR_CASES)
def test_staged_equations_match_jax(name):
    _helpers.run_jaxpr_case(name)


X = np.arange(20, dtype=np.float32).reshape(4, 5)
GDN = lax.GatherDimensionNumbers
SDN = lax.ScatterDimensionNumbers


# ---------------------------------------------------------------- gather / scatter vs NumPy fancy indexing


def test_gather_rows_and_points_match_fancy_indexing():
    rows = np.array([3, 0, 2, 2], np.int32)
    out = lax.gather(X, rows[:, None], GDN((1,), (0,), (0,)), (1, 5))
    np.testing.assert_array_equal(np.asarray(out), X[rows])
    cols = np.array([4, 1, 0, 3], np.int32)
    out = lax.gather(X, np.stack([rows, cols], 1), GDN((), (0, 1), (0, 1)), (1, 1))
    np.testing.assert_array_equal(np.asarray(out), X[rows, cols])
    out = lax.gather(X, cols[:, None], GDN((0,), (1,), (1,)), (4, 1))
    np.testing.assert_array_equal(np.asarray(out), X[:, cols])


def test_gather_batching_dims_match_take_along_axis():
    operand = np.arange(3 * 6, dtype=np.int32).reshape(3, 6)
    idx = np.array([[5, 0], [2, 2], [1, 4]], np.int32)
    dn = GDN(offset_dims=(), collapsed_slice_dims=(1,), start_index_map=(1,), operand_batching_dims=(0,),
             start_indices_batching_dims=(0,))
    out = lax.gather(operand, idx[..., None], dn, (1, 1))
    np.testing.assert_array_equal(np.asarray(out), np.take_along_axis(operand, idx, 1))


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint32, np.float16, np.float32, np.complex64])
def test_gather_modes_out_of_bounds(dtype):
    operand = np.arange(1, 6).astype(dtype)
    idx = np.array([[-1], [2], [7]], np.int32)
    dn = GDN((), (0,), (0,))
    clipped = np.asarray(lax.gather(operand, idx, dn, (1,), mode="clip"))
    np.testing.assert_array_equal(clipped, operand[[0, 2, 4]])
    filled = np.asarray(lax.gather(operand, idx, dn, (1,), mode="fill", fill_value=0))
    np.testing.assert_array_equal(filled, np.array([0, operand[2], 0]).astype(dtype))


def test_scatter_variants_match_ufunc_at():
    idx = np.array([1, 3, 1, 0], np.int32)
    updates = np.arange(4 * 5, dtype=np.float32).reshape(4, 5) - 7
    dn = SDN((1,), (0,), (0,))
    for fn, ufunc in [(lax.scatter_add, np.add), (lax.scatter_sub, np.subtract), (lax.scatter_mul, np.multiply),
                      (lax.scatter_min, np.minimum), (lax.scatter_max, np.maximum)]:
        expected = X.copy()
        ufunc.at(expected, idx, updates)
        np.testing.assert_array_equal(np.asarray(fn(X, idx[:, None], updates, dn)), expected)
    expected = X.copy()
    expected[[1, 3, 0]] = updates[[0, 1, 3]]
    out = lax.scatter(X, np.array([[1], [3], [0]], np.int32), updates[[0, 1, 3]], dn)
    np.testing.assert_array_equal(np.asarray(out), expected)


def test_scatter_modes_out_of_bounds():
    operand = np.zeros(5, np.int32)
    idx = np.array([[-1], [2], [9]], np.int32)
    updates = np.array([1, 2, 4], np.int32)
    dn = SDN((), (0,), (0,))
    np.testing.assert_array_equal(np.asarray(lax.scatter_add(operand, idx, updates, dn)), [0, 0, 2, 0, 0])
    np.testing.assert_array_equal(np.asarray(lax.scatter_add(operand, idx, updates, dn, mode="clip")),
                                  [1, 0, 2, 0, 4])


def test_scatter_add_int_wraps_and_bool_max():
    out = lax.scatter_add(np.array([127], np.int8), np.array([[0], [0]], np.int32), np.array([1, 1], np.int8),
                          SDN((), (0,), (0,)))
    assert np.asarray(out).tolist() == [-127]
    out = lax.scatter_max(np.array([False, False]), np.array([[1]], np.int32), np.array([True]),
                          SDN((), (0,), (0,)))
    assert np.asarray(out).tolist() == [False, True]


def test_gather_scatter_param_types():
    assert lax.GatherScatterMode.from_any(None) is lax.GatherScatterMode.FILL_OR_DROP
    assert lax.GatherScatterMode.from_any("clip") is lax.GatherScatterMode.CLIP
    assert str(lax.GatherScatterMode.PROMISE_IN_BOUNDS) == "GatherScatterMode.PROMISE_IN_BOUNDS"
    with pytest.raises(ValueError):
        lax.GatherScatterMode.from_any("wrap")
    assert GDN((1,), (0,), (0,)) == GDN((1,), (0,), (0,), (), ())


# ---------------------------------------------------------------- dynamic slices


def test_dynamic_slice_clamps_like_xla():
    x = np.arange(5)
    assert np.asarray(lax.dynamic_slice(x, (3,), (3,))).tolist() == [2, 3, 4]
    assert np.asarray(lax.dynamic_slice(x, (-2,), (2,))).tolist() == [3, 4]
    assert np.asarray(lax.dynamic_slice(x, (-20,), (2,))).tolist() == [0, 1]
    assert np.asarray(lax.dynamic_update_slice(x, np.array([9, 9]), (4,))).tolist() == [0, 1, 2, 9, 9]
    assert np.asarray(lax.dynamic_slice_in_dim(X, 3, 2, axis=1)).tolist() == X[:, 3:5].tolist()
    out = lax.dynamic_update_slice_in_dim(X, np.zeros((4, 1), np.float32), -1, axis=1)
    assert np.asarray(out)[:, 4].tolist() == [0, 0, 0, 0]


def test_dynamic_slice_under_jit_matches_numpy():
    fn = jc.jit(lambda a, i, j: lax.dynamic_slice(a, (i, j), (2, 2)))
    for i in range(-4, 4):
        for j in range(-5, 5):
            start_i, start_j = min(max(i % 4 if i < 0 else i, 0), 2), min(max(j % 5 if j < 0 else j, 0), 3)
            np.testing.assert_array_equal(np.asarray(fn(X, np.int32(i), np.int32(j))),
                                          X[start_i:start_i + 2, start_j:start_j + 2])


def test_getitem_with_traced_scalars_matches_numpy():
    fn = jc.jit(lambda a, i, j: (a[i], a[i, 1:3], a[:, j], a[None, i, ::-1], a[i, j], a[..., j, None]))
    for i, j in [(0, 0), (3, 4), (-1, -5), (2, -2)]:
        outs = fn(X, np.int32(i), np.int32(j))
        expected = (X[i], X[i, 1:3], X[:, j], X[None, i, ::-1], X[i, j], X[..., j, None])
        for got, want in zip(outs, expected):
            np.testing.assert_array_equal(np.asarray(got), want)
    strided = jc.jit(lambda a, i: a[i, ::2])(X, np.int32(1))
    np.testing.assert_array_equal(np.asarray(strided), X[1, ::2])


def test_getitem_rejects_array_indices():
    with pytest.raises(TypeError, match="advanced indexing"):
        jc.jit(lambda a, i: a[i])(X, np.array([1, 2], np.int32))
    with pytest.raises(IndexError):
        jc.jit(lambda a, i: a[i, 0, 0])(X, np.int32(1))


# ---------------------------------------------------------------- errors

ERRORS = [
    (TypeError, lambda: lax.dynamic_slice(X, (np.int16(0), 0), (1, 1))),
    (TypeError, lambda: lax.dynamic_slice(X, (0.0, 0), (1, 1))),
    (ValueError, lambda: lax.dynamic_slice(X, (0,), (1, 1))),
    (TypeError, lambda: lax.dynamic_slice(X, (0, 0), (5, 1))),
    (TypeError, lambda: lax.dynamic_update_slice(X, np.ones((5, 5), np.float32), (0, 0))),
    (TypeError, lambda: lax.dynamic_update_slice(X, np.ones(5, np.float32), (0, 0))),
    (TypeError, lambda: lax.dynamic_update_slice(X, np.ones((2, 2), np.int32), (0, 0))),
    (ValueError, lambda: lax.dynamic_update_slice(X, np.ones((1, 1), np.float32), (0,))),
    (TypeError, lambda: lax.slice(X, (0, 0), (5, 1))),
    (TypeError, lambda: lax.slice(X, (2, 0), (1, 1))),
    (IndexError, lambda: lax.index_in_dim(X, 7)),
    (ValueError, lambda: lax.gather(X, np.array([[1.0]], np.float32), GDN((1,), (0,), (0,)), (1, 5))),
    (TypeError, lambda: lax.gather(X, np.array([[1]], np.int32), GDN((1,), (0,), (0,)), (2, 5))),
    (TypeError, lambda: lax.gather(X, np.array([[1, 1]], np.int32), GDN((1,), (0,), (0,)), (1, 5))),
    (TypeError, lambda: lax.gather(X, np.array([[1]], np.int32), GDN((1,), (0,), (0,)), (1, 6))),
    (TypeError, lambda: lax.scatter_add(X, np.array([[1]], np.int32), np.ones((1, 5), np.int32),
                                        SDN((1,), (0,), (0,)))),
    (TypeError, lambda: lax.scatter_add(X, np.array([[1]], np.int32), np.ones((2, 5), np.float32),
                                        SDN((1,), (0,), (0,)))),
    (TypeError, lambda: lax.scatter_add(X > 0, np.array([[1]], np.int32), np.ones((1, 5), bool),
                                        SDN((1,), (0,), (0,)))),
]


@pytest.mark.parametrize("error, fn", ERRORS)
def test_errors_like_jax(error, fn):
    with pytest.raises(error):
        fn()


# Values from JAX 0.10.2 with jax_enable_x64: unsigned 64-bit indices past 2**63 are huge, not negative, so they
# clamp to the top of the range (clip, promise_in_bounds, dynamic slices) or are out of bounds (scatter fill).
_OPS = np.arange(12).reshape(3, 4)
_ROW_DN = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
_ROW_SDN = lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,),
                                       scatter_dims_to_operand_dims=(0,))
_HUGE = np.array([[2**64 - 3], [1], [2**63]], np.uint64)


def test_dynamic_slices_read_uint64_indices_as_unsigned():
    with jc.config.enable_x64(True):
        a = np.arange(10)
        np.testing.assert_array_equal(np.asarray(lax.dynamic_slice(a, (np.uint64(2**64 - 3),), (2,))), [8, 9])
        np.testing.assert_array_equal(np.asarray(lax.dynamic_slice(a, (np.uint64(2**63),), (2,))), [8, 9])
        got = lax.dynamic_update_slice(a, np.array([100, 101]), (np.uint64(2**63),))
        np.testing.assert_array_equal(np.asarray(got), [0, 1, 2, 3, 4, 5, 6, 7, 100, 101])
        got = lax.dynamic_slice(_OPS, (np.uint64(2**64 - 1), np.uint64(1)), (2, 2))
        np.testing.assert_array_equal(np.asarray(got), [[5, 6], [9, 10]])


def test_dynamic_slices_stage_no_wrapping_of_unsigned_indices():
    # JAX's jaxprs for traced unsigned start indices have no `lt`/`add`/`select_n`: they cannot be negative
    a = np.arange(3, dtype=np.float32)
    text = str(jc.make_jaxpr(lambda x, i: lax.dynamic_slice(x, (i,), (1,)))(a, np.uint32(1)))
    assert text.splitlines()[1].strip() == "c:f32[1] = dynamic_slice[slice_sizes=(1,)] a b"
    text = str(jc.make_jaxpr(lambda x, i: lax.dynamic_update_slice(x, x[:1], (i,)))(a, np.uint32(1)))
    assert "select_n" not in text and "dynamic_update_slice a c b" in text
    np.testing.assert_array_equal(np.asarray(lax.dynamic_slice(a, (np.uint32(2),), (2,))), [1, 2])


@pytest.mark.parametrize("mode", ["clip", "promise_in_bounds"])
def test_gather_clamps_uint64_indices_as_unsigned(mode):
    with jc.config.enable_x64(True):
        got = lax.gather(_OPS, _HUGE, _ROW_DN, (1, 4), mode=mode)
    np.testing.assert_array_equal(np.asarray(got), _OPS[[2, 1, 2]])


def test_gather_fill_masks_indices_wrapped_to_int32():
    # JAX converts indices to int32 (wrapping) before testing bounds when the operand's dims fit in int32.
    with jc.config.enable_x64(True):
        got = lax.gather(_OPS, _HUGE, _ROW_DN, (1, 4), mode="fill", fill_value=-7)
        np.testing.assert_array_equal(np.asarray(got), [[-7] * 4, _OPS[1], _OPS[0]])
        wrapped = np.array([[2**32 + 1], [-2**32 + 2], [2**31]], np.int64)
        got = lax.gather(_OPS, wrapped, _ROW_DN, (1, 4), mode="fill", fill_value=-7)
        np.testing.assert_array_equal(np.asarray(got), [_OPS[1], _OPS[2], [-7] * 4])


def test_scatter_reads_uint64_indices_as_unsigned():
    with jc.config.enable_x64(True):
        got = lax.scatter(_OPS, _HUGE, -np.ones((3, 4), _OPS.dtype), _ROW_SDN, mode="clip")
        np.testing.assert_array_equal(np.asarray(got), [_OPS[0], [-1] * 4, [-1] * 4])
        got = lax.scatter_add(_OPS, _HUGE, np.ones((3, 4), _OPS.dtype), _ROW_SDN, mode="fill")
        np.testing.assert_array_equal(np.asarray(got), [_OPS[0], _OPS[1] + 1, _OPS[2]])


def test_dynamic_slice_of_a_weakly_typed_index_makes_it_strong_before_wrapping():
    """A scan counter starting at Python 0 is weakly typed: JAX compares it with zero as it is and converts it
    before adding the dimension's size (JAX 0.10.2's text)."""
    def f(a):
        def step(carry, _):
            i, total = carry
            value = lax.squeeze(lax.dynamic_slice(a, (i,), (1,)), (0,))
            return (i + 1, total + value), None
        return lax.scan(step, (0, np.float32(0)), None, length=3)[0][1]

    text = str(jc.make_jaxpr(f)(np.float32([1, 2, 3])))
    assert """\
          f:bool[] = lt d 0:i32[]
          g:i32[] = convert_element_type[new_dtype=int32 weak_type=False] d
          h:i32[] = add g 3:i32[]
          i:i32[] = select_n f d h
          j:f32[1] = dynamic_slice[slice_sizes=(1,)] c i""" in text
    assert float(f(np.float32([1, 2, 3]))) == 6.0
