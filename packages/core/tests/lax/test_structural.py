"""structural lax primitives: reference results, shape rules, staged equations vs JAX 0.10.2 goldens, errors."""

from __future__ import annotations

import importlib.util
import json
import pathlib
import warnings

import ml_dtypes
import numpy as np
import pytest

import jaxle_core as jc
from jaxle_core import lax
from jaxle_core.backend import put_host_value

GOLDEN_DIR = pathlib.Path(__file__).parents[1] / "golden"
_spec = importlib.util.spec_from_file_location("structural_slicing_cases", GOLDEN_DIR / "structural_slicing_cases.py")
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)
GOLDEN = json.loads((GOLDEN_DIR / "structural_slicing_golden.json").read_text())

STRUCTURAL_PREFIXES = ("broadcast_in_dim_permuted", "reduce_precision", "convert", "bitcast", "pad", "clamp", "select")
JAXPR_SLICING = ("slice", "index_in_dim", "dynamic", "gather", "getitem", "scatter")


def _is_structural(name: str) -> bool:
    return not name.startswith(JAXPR_SLICING) or name.startswith("select")


def _decode(entry: dict) -> np.ndarray:
    if entry["dtype"] == "bfloat16":
        return np.array(entry["bits"], np.uint16).view(ml_dtypes.bfloat16).reshape(entry["shape"])
    dtype = np.dtype(entry["dtype"])
    conv = {"nan": np.nan, "inf": np.inf, "-inf": -np.inf, "-0.0": -0.0}
    if np.issubdtype(dtype, np.complexfloating):
        values = [complex(conv.get(r, r), conv.get(i, i)) for r, i in entry["values"]]
    elif np.issubdtype(dtype, np.floating):
        values = [conv.get(v, v) for v in entry["values"]]
    else:
        values = entry["values"]
    return np.array(values, dtype).reshape(entry["shape"])


def assert_same(actual, expected: np.ndarray) -> None:
    actual = np.asarray(actual)
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    if expected.dtype == ml_dtypes.bfloat16 or np.issubdtype(expected.dtype, np.floating):
        a, e = actual.astype(np.float64), expected.astype(np.float64)
        np.testing.assert_array_equal(np.isnan(a), np.isnan(e))
        np.testing.assert_array_equal(np.where(np.isnan(a), 0, a), np.where(np.isnan(e), 0, e))
        np.testing.assert_array_equal(np.signbit(a), np.signbit(e))
    else:
        np.testing.assert_array_equal(actual, expected)


def run_value_case(name: str) -> None:
    build = dict(cases.value_cases())[name]
    fn, args = build(lax)
    assert_same(fn(*args), _decode(GOLDEN["values"][name]))


def run_jaxpr_case(name: str) -> None:
    build = dict(cases.jaxpr_cases())[name]
    fn, args = build(lax)
    closed = jc.make_jaxpr(fn)(*args)
    got = {"eqns": [cases.describe_eqn(e) for e in closed.jaxpr.eqns],
           "outs": [[list(a.shape), a.dtype.name, bool(a.weak_type)] for a in closed.out_avals]}
    assert got == GOLDEN["jaxprs"][name]


VALUE_CASES = [n for n, _ in cases.value_cases() if n.startswith(STRUCTURAL_PREFIXES)]
JAXPR_CASES = [n for n, _ in cases.jaxpr_cases() if _is_structural(n)]


@pytest.mark.parametrize("name", VALUE_CASES)
def test_values_match_jax(name):
    if name.startswith("convert_c64_to_"):  # JAX warns as NumPy does when a conversion drops the imaginary part
        with pytest.warns(np.exceptions.ComplexWarning, match="Casting complex values to real discards the "
                                                               "imaginary part"):
            run_value_case(name)
    else:
        run_value_case(name)


@pytest.mark.parametrize("name", JAXPR_CASES)
def test_staged_equations_match_jax(name):
    run_jaxpr_case(name)


# ---------------------------------------------------------------- reference results vs NumPy

DTYPES = [np.bool_, np.int8, np.int32, np.uint8, np.uint32, np.float16, ml_dtypes.bfloat16, np.float32,
          np.complex64]


def _sample(dtype, shape=(3, 4)):
    values = np.arange(-5, -5 + int(np.prod(shape))).reshape(shape)
    return (values % 2 == 0) if dtype == np.bool_ else values.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_shape_ops_match_numpy(dtype):
    x = _sample(dtype)
    np.testing.assert_array_equal(np.asarray(lax.transpose(x, (1, 0))), x.T)
    np.testing.assert_array_equal(np.asarray(lax.rev(x, (0, 1))), x[::-1, ::-1])
    np.testing.assert_array_equal(np.asarray(lax.reshape(x, (2, 6))), x.reshape(2, 6))
    np.testing.assert_array_equal(np.asarray(lax.reshape(x, (12,), (1, 0))), x.T.ravel())
    np.testing.assert_array_equal(np.asarray(lax.broadcast(x, (2,))), np.broadcast_to(x, (2, 3, 4)))
    np.testing.assert_array_equal(np.asarray(lax.expand_dims(x, (1,))), x[:, None])
    np.testing.assert_array_equal(np.asarray(lax.concatenate([x, x[:1]], 0)), np.concatenate([x, x[:1]]))
    assert np.asarray(lax.concatenate([x, x], 1)).dtype == x.dtype
    pad_value = np.zeros((), x.dtype)
    np.testing.assert_array_equal(np.asarray(lax.pad(x, pad_value, ((1, 2, 0), (0, 0, 0)))),
                                  np.pad(x, ((1, 2), (0, 0))))
    np.testing.assert_array_equal(np.asarray(lax.select_n(x.astype(bool), x, x[::-1])),
                                  np.where(x.astype(bool), x[::-1], x))


def test_pad_interior_and_negative_match_reference():
    x = np.arange(1, 5, dtype=np.int32)
    out = np.asarray(lax.pad(x, np.int32(0), ((-1, 2, 1),)))
    np.testing.assert_array_equal(out, [0, 2, 0, 3, 0, 4, 0, 0])
    assert np.asarray(lax.pad(np.zeros((2, 0), np.int32), np.int32(9), ((0, 0, 0), (1, 1, 5)))).tolist() == [
        [9, 9], [9, 9]]


def test_broadcast_in_dim_with_permuted_dimensions():
    # Operand dims 0, 1, 2 go to output dims 2, 0, 3: out[a, b, c, d] = x[c, a, 0].
    x = np.arange(6, dtype=np.float32).reshape(2, 3, 1)
    expected = np.broadcast_to(x.transpose(1, 0, 2)[:, None], (3, 4, 2, 5))
    np.testing.assert_array_equal(np.asarray(lax.broadcast_in_dim(x, (3, 4, 2, 5), (2, 0, 3))), expected)
    # The transpose sums over the new and widened dimensions, then restores the operand's order.
    weights = np.random.default_rng(0).standard_normal((3, 4, 2, 5)).astype(np.float32)
    grad = jc.grad(lambda v: lax.reduce_sum(lax.mul(lax.broadcast_in_dim(v, (3, 4, 2, 5), (2, 0, 3)), weights),
                                            (0, 1, 2, 3)))(x)
    np.testing.assert_allclose(np.asarray(grad), weights.sum((1, 3)).T[:, :, None], rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint16, np.float16, ml_dtypes.bfloat16, np.float32,
                                   np.complex64, ml_dtypes.int4, ml_dtypes.uint4, ml_dtypes.uint2])
def test_iota_matches_arange(dtype):  # the narrow integers are integers to the dtype checks, as in JAX
    np.testing.assert_array_equal(np.asarray(lax.iota(dtype, 5)), np.arange(5).astype(dtype))
    out = np.asarray(lax.broadcasted_iota(dtype, (2, 3), 0))
    np.testing.assert_array_equal(out, np.array([[0, 0, 0], [1, 1, 1]]).astype(dtype))
    assert out.dtype == np.dtype(dtype)
    assert np.asarray(lax.iota(np.int32, 0)).shape == (0,)


def test_clamp_and_select_reference():
    x = np.array([-3, 0, 5, 9], np.int32)
    np.testing.assert_array_equal(np.asarray(lax.clamp(np.int32(0), x, np.int32(5))), [0, 0, 5, 5])
    lo, hi = np.array([1, 1, 1, 1], np.int32), np.array([2, 2, 9, 9], np.int32)
    np.testing.assert_array_equal(np.asarray(lax.clamp(lo, x, hi)), np.clip(x, lo, hi))
    np.testing.assert_array_equal(np.asarray(lax.select(np.array([True, False, True, False]), x, -x)),
                                  [-3, 0, 5, -9])
    np.testing.assert_array_equal(np.asarray(lax.select_n(np.int32(2), x, x + 1, x + 2)), x + 2)
    assert np.asarray(lax.select_n(True, np.float32(1), np.float32(2))) == 2


def test_bitcast_roundtrip_matches_view():
    x = np.array([[1.5, -0.0], [np.inf, 3.25]], np.float32)
    narrow = np.asarray(lax.bitcast_convert_type(x, np.uint8))
    np.testing.assert_array_equal(narrow, x.view(np.uint8).reshape(2, 2, 4))
    np.testing.assert_array_equal(np.asarray(lax.bitcast_convert_type(narrow, np.float32)), x)
    scalar = np.asarray(lax.bitcast_convert_type(np.float32(1.0), np.uint16))
    np.testing.assert_array_equal(scalar, np.array([0, 16256], np.uint16))


def test_convert_python_scalar_is_folded_on_host():
    closed = jc.make_jaxpr(lambda: lax.convert_element_type(2.7, np.int32))()
    assert closed.jaxpr.eqns == []
    assert np.asarray(lax.convert_element_type(2.7, np.int32)) == 2


def test_weak_types():
    assert lax.select_n(True, 1.0, 2.0).weak_type
    assert not lax.select_n(True, 1.0, np.float32(2.0)).weak_type
    assert lax.clamp(0.0, 1.0, 2.0).weak_type
    assert not lax.iota(int, 3).weak_type
    assert not lax.bitcast_convert_type(1.0, np.int32).weak_type
    assert lax.reduce_precision(1.0, 5, 10).weak_type
    assert not lax.convert_element_type(1.0, np.float32).weak_type


# ---------------------------------------------------------------- errors

@pytest.mark.parametrize("dtype", DTYPES)
def test_split_matches_numpy(dtype):
    x = _sample(dtype, (6, 4))
    for sizes, axis in [((1, 3, 0, 2), 0), ((4,), 1), ((2, 2), -1), ((0, 6), 0)]:
        got = lax.split(x, sizes, axis)
        expected = np.split(x, np.cumsum(sizes)[:-1], axis=axis)
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert_same(g, e)
    assert lax.split(np.zeros((0, 3), dtype), ()) == []


def test_split_error_messages_like_jax():
    with pytest.raises(ValueError, match=r"Sum of sizes 3 must be equal to dimension 1 of the operand shape \[4, 5\]"):
        lax.split(X, (1, 2), 1)
    with pytest.raises(ValueError, match=r"Sizes passed to split must be nonnegative, got \[-1, 6\]"):
        lax.split(X, (-1, 6), 1)
    with pytest.raises(ValueError, match="axis 2 is out of bounds for array of dimension 2"):
        lax.split(X, (5,), 2)


X = np.ones((4, 5), np.float32)
ERRORS = [
    (TypeError, lambda: lax.select_n(np.ones(5, np.float32), X[0], X[0])),
    (TypeError, lambda: lax.select_n(np.ones(2, bool), X[0], X[0])),
    (TypeError, lambda: lax.select_n(True, X[0], X[0].astype(np.int32))),
    (TypeError, lambda: lax.select_n(True, X[0], X[0, :2])),
    (TypeError, lambda: lax.select_n(True, 1.0, 2)),
    (ValueError, lambda: lax.select_n(True)),
    (TypeError, lambda: lax.clamp(np.zeros(2, np.float32), X, 1.0)),
    (TypeError, lambda: lax.clamp(np.int32(0), X, np.float32(1))),
    (TypeError, lambda: lax.pad(X, np.int32(0), ((0, 0, 0), (0, 0, 0)))),
    (ValueError, lambda: lax.pad(X, np.float32(0), ((0, 0, 0),))),
    (ValueError, lambda: lax.pad(X, np.float32(0), ((0, 0, -1), (0, 0, 0)))),
    (ValueError, lambda: lax.pad(X, np.float32(0), ((-5, 0, 0), (0, 0, 0)))),
    (ValueError, lambda: lax.pad(X, np.zeros(2, np.float32), ((0, 0, 0), (0, 0, 0)))),
    (TypeError, lambda: lax.concatenate([X, X.astype(np.int32)], 0)),
    (TypeError, lambda: lax.concatenate([X, X[:, :2]], 0)),
    (TypeError, lambda: lax.concatenate([X, X[0]], 0)),
    (TypeError, lambda: lax.concatenate([X, X], 2)),
    (TypeError, lambda: lax.concatenate([X, X], -1)),
    (ValueError, lambda: lax.concatenate([], 0)),
    (ValueError, lambda: lax.split(X, (1, 2))),
    (ValueError, lambda: lax.split(X, (5, -1), 1)),
    (ValueError, lambda: lax.split(X, (4,), 2)),
    (ValueError, lambda: lax.split(X, (4,), -3)),
    (ValueError, lambda: lax.split(np.float32(1), (), 0)),
    (ValueError, lambda: lax.bitcast_convert_type(np.ones(3, np.uint8), np.float32)),
    (TypeError, lambda: lax.bitcast_convert_type(np.ones(3, bool), np.uint8)),
    (TypeError, lambda: lax.bitcast_convert_type(np.ones(3, np.complex64), np.float32)),
    (TypeError, lambda: lax.reduce_precision(np.int32(1), 5, 10)),
    (ValueError, lambda: lax.reduce_precision(np.float32(1), 0, 10)),
    (TypeError, lambda: lax.iota(bool, 3)),
    (TypeError, lambda: lax.iota(np.int32, -1)),
    (ValueError, lambda: lax.broadcasted_iota(np.int32, (2, 3), 2)),
    (TypeError, lambda: lax.rev(X, (2,))),
    (TypeError, lambda: lax.rev(X, (-1,))),
    (TypeError, lambda: lax.rev(X, (0, 0))),
    (TypeError, lambda: lax.transpose(X, (0, 0))),
    (ValueError, lambda: lax.squeeze(X, (0,))),
    (ValueError, lambda: lax.squeeze(X, (3,))),
    (ValueError, lambda: lax.expand_dims(X, (5,))),
    (ValueError, lambda: lax.expand_dims(X, (0, 0))),
    (TypeError, lambda: lax.reshape(X, (3, 3))),
    (TypeError, lambda: lax.broadcast_in_dim(X, (4, 3), (0, 1))),
]


@pytest.mark.parametrize("error, fn", ERRORS)
def test_errors_like_jax(error, fn):
    with pytest.raises(error):
        fn()


def test_expand_dims_negative_and_broadcast_to_rank():
    assert lax.expand_dims(X, (-1,)).shape == (4, 5, 1)
    assert lax.broadcast_to_rank(X[0], 3).shape == (1, 1, 5)


@pytest.mark.parametrize("unchanged", [
    lambda x: lax.broadcast_to_rank(x, 1), lambda x: lax.reshape(x, (4, 5)), lambda x: lax.transpose(x, (0, 1)),
    lambda x: lax.squeeze(x, ()), lambda x: lax.concatenate([x], 0)])
def test_operations_that_change_nothing_return_arrays(unchanged):
    # as JAX's: an array comes back as it is, a NumPy value as an array of its values
    array = put_host_value(X)
    assert unchanged(array) is array
    out = unchanged(X)
    assert isinstance(out, jc.Array) and out.dtype == X.dtype
    np.testing.assert_array_equal(np.asarray(out), X)


def test_reshape_of_a_0d_array_is_staged_as_jax():
    # JAX skips a reshape to the operand's own shape unless the operand is 0-d (jnp.quantile's weights path shows it).
    assert str(jc.make_jaxpr(lambda x: lax.reshape(x, ()))(np.float32(1))) == (
        "{ lambda ; a:f32[]. let\n    b:f32[] = reshape[dimensions=None new_sizes=() sharding=None] a\n  in (b,) }")
    assert str(jc.make_jaxpr(lambda x: lax.reshape(x, (2,)))(np.ones(2, np.float32))) == (
        "{ lambda ; a:f32[2]. let  in (a,) }")


def test_python_complex_converted_on_the_host_as_jax():
    # JAX converts a Python complex with int()/float()/bool(): Python's TypeError for real dtypes, its truth value
    # for booleans; a NumPy complex is cast (imaginary part dropped)
    with pytest.raises(TypeError, match=r"int\(\) argument must be a string, a bytes-like object or a real number, "
                                        r"not 'complex'"):
        lax.full((2,), 1j, "int8")
    with pytest.warns(np.exceptions.ComplexWarning), pytest.raises(
            TypeError, match=r"float\(\) argument must be a string or a real number, not 'complex'"):
        lax.convert_element_type(1j, np.float32)  # JAX warns before Python refuses
    np.testing.assert_array_equal(np.asarray(lax.full((2,), 1j, "bool")), [True, True])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_array_equal(np.asarray(lax.full((2,), np.complex64(2 + 1j), "int8")), [2, 2])
