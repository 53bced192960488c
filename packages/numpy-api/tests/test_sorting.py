"""jnp's sorting functions: JAX 0.10.2 goldens (jaxprs, values, weak types, errors), NumPy over dtypes and edge
values, jit/vmap, x64, gradients."""

import jnp_golden
import ml_dtypes
import numpy as np
import pytest
from make_jnp_sorting_golden import CASES

import jaxle_core as jc
import jaxle_numpy as jnp
from jaxle_core.test_util import check_grads

GOLDEN = jnp_golden.load("jnp_sorting_golden.json")
DTYPES = ["bool", "int8", "int32", "uint8", "uint32", "float16", "bfloat16", "float32", "complex64"]
EDGES = np.array([np.nan, 1.0, -np.inf, -0.0, 0.0, np.inf, -np.nan, 1.0, -2.5], np.float32)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_jax(name):
    jnp_golden.assert_case_matches(jnp_golden.run_case(jnp_golden.jaxle_namespace(), CASES[name]), GOLDEN[name])


def _data(shape, dtype, seed=0):
    return jnp_golden.rand(shape, dtype, seed)


def _reference(x):
    """NumPy sorts bfloat16 through float32 (it has no ordering of its own for ml_dtypes)."""
    return x.astype(np.float32) if x.dtype == ml_dtypes.bfloat16 else x


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axis", [0, -1, None])
def test_sort_and_argsort_match_numpy(dtype, axis):
    x = _data((4, 5), dtype, 3)
    np.testing.assert_array_equal(np.asarray(jnp.sort(x, axis=axis)).astype(_reference(x).dtype),
                                  np.sort(_reference(x), axis=axis, kind="stable"))
    np.testing.assert_array_equal(np.asarray(jnp.argsort(x, axis=axis)),
                                  np.argsort(_reference(x), axis=axis, kind="stable"))


def test_nans_sort_last_and_signed_zeros_keep_their_order():
    np.testing.assert_array_equal(np.asarray(jnp.argsort(EDGES)), np.argsort(EDGES, kind="stable"))
    got = np.asarray(jnp.sort(EDGES))
    np.testing.assert_array_equal(got, np.sort(EDGES))
    np.testing.assert_array_equal(np.signbit(got[2:4]), [True, False])  # -0.0 then 0.0, as given
    # complex numbers order by real part, then imaginary part, NaNs last in each (so 0+nanj comes before 1-1j,
    # where NumPy puts every NaN last)
    values = np.array([1 + 1j, np.nan, 1 - 1j, complex(0, np.nan), -1j, complex(0, -np.inf)], np.complex64)
    np.testing.assert_array_equal(np.asarray(jnp.sort(values)), values[np.lexsort([values.imag, values.real])])


@pytest.mark.parametrize("dtype", ["int32", "float32", "uint8"])
def test_descending_is_a_stable_reversed_order(dtype):
    x = _data((3, 7), dtype, 4)
    np.testing.assert_array_equal(np.asarray(jnp.sort(x, descending=True)), np.sort(x)[:, ::-1])
    # ties keep their original order: NumPy's stable argsort of the negated keys
    expected = np.argsort(-x.astype(np.int64) if dtype != "float32" else -x, axis=-1, kind="stable")
    np.testing.assert_array_equal(np.asarray(jnp.argsort(x, descending=True)), expected)


def test_empty_and_single_element_inputs():
    for shape in [(0,), (3, 0), (0, 2), (1,)]:
        x = np.ones(shape, np.float32)
        assert jnp.sort(x).shape == shape and jnp.argsort(x).shape == shape
        assert jnp.argsort(x).dtype == np.int32
    np.testing.assert_array_equal(np.asarray(jnp.searchsorted(np.zeros(0, np.float32), np.ones(3))), [0, 0, 0])
    assert jnp.sort_complex(np.zeros((0,), np.int32)).dtype == np.complex64


def test_lexsort_matches_numpy():
    keys = [_data((3, 6), "int32", s) % 2 for s in range(3)]
    for axis in (0, 1, -1):
        np.testing.assert_array_equal(np.asarray(jnp.lexsort(keys, axis=axis)), np.lexsort(keys, axis=axis))
    stacked = np.stack(keys)
    np.testing.assert_array_equal(np.asarray(jnp.lexsort(stacked)), np.lexsort(stacked))
    floats = [EDGES, EDGES[::-1].copy()]
    np.testing.assert_array_equal(np.asarray(jnp.lexsort(floats)), np.lexsort(floats))


@pytest.mark.parametrize("dtype", ["int8", "int32", "uint8", "float16", "float32"])
@pytest.mark.parametrize("kth", [0, 2, -1])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_partition_and_argpartition_split_at_kth(dtype, kth, axis):
    x = _data((4, 5, 3), dtype, 9)
    part = np.asarray(jnp.partition(x, kth, axis=axis))
    indices = np.asarray(jnp.argpartition(x, kth, axis=axis))
    expected = np.sort(x, axis=axis)
    k = kth % x.shape[axis]
    for result in (part, np.take_along_axis(x, indices, axis=axis)):
        np.testing.assert_array_equal(np.take(result, [k], axis=axis), np.take(expected, [k], axis=axis))
        np.testing.assert_array_equal(np.sort(result, axis=axis), expected)
        before = np.take(result, range(k), axis=axis)
        after = np.take(result, range(k + 1, x.shape[axis]), axis=axis)
        pivot = np.take(result, [k], axis=axis)
        assert np.all(before <= pivot) and np.all(after >= pivot)
    assert indices.dtype == np.int32
    # the indices are a permutation along the axis
    positions = np.arange(x.shape[axis]).reshape([-1 if d == axis % 3 else 1 for d in range(3)])
    np.testing.assert_array_equal(np.sort(indices, axis=axis), np.broadcast_to(positions, x.shape))


@pytest.mark.parametrize("method", ["scan", "scan_unrolled", "sort", "compare_all"])
@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("dtype", ["int32", "uint8", "float32", "bfloat16", "bool"])
def test_searchsorted_matches_numpy(method, side, dtype):
    a = np.sort(_reference(_data((9,), dtype, 1))).astype(_data((1,), dtype).dtype)
    v = _data((2, 5), dtype, 2)
    got = jnp.searchsorted(a, v, side=side, method=method)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(np.asarray(got), np.searchsorted(_reference(a), _reference(v), side=side))


@pytest.mark.parametrize("method", ["scan", "scan_unrolled", "sort", "compare_all"])
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_edges_follow_sort_order(method, side):
    a = np.sort(EDGES)
    got = np.asarray(jnp.searchsorted(a, EDGES, side=side, method=method))
    np.testing.assert_array_equal(got, np.searchsorted(a, EDGES, side=side))
    c = np.sort(np.array([1 + 1j, 1 - 1j, 2j, -1, complex(np.nan, 0)], np.complex64))
    q = np.array([1 + 0j, 1 + 1j, 3, -2j, complex(np.nan, 0)], np.complex64)
    np.testing.assert_array_equal(np.asarray(jnp.searchsorted(c, q, side=side, method=method)),
                                  np.searchsorted(c, q, side=side))


def test_searchsorted_sorter_and_weak_scalar_query():
    a = np.array([5.0, 1.0, 3.0, 2.0], np.float32)
    sorter = np.argsort(a)
    np.testing.assert_array_equal(np.asarray(jnp.searchsorted(a, np.array([0.0, 2.5, 9.0]), sorter=sorter)),
                                  np.searchsorted(a, [0.0, 2.5, 9.0], sorter=sorter))
    assert int(jnp.searchsorted(np.arange(5, dtype=np.int32), 2.5)) == 3


def test_sort_complex_matches_numpy():
    for dtype in ["int32", "float32", "complex64", "bool"]:
        x = _data((2, 5), dtype, 6)
        got = jnp.sort_complex(x)
        np.testing.assert_array_equal(np.asarray(got), np.sort_complex(x))
        assert got.dtype == np.complex64


def test_under_jit_and_vmap():
    x = _data((3, 6), "float32", 1)
    np.testing.assert_array_equal(np.asarray(jc.jit(jnp.sort)(x)), np.sort(x))
    np.testing.assert_array_equal(np.asarray(jc.vmap(jnp.argsort)(x)), np.argsort(x, kind="stable"))
    np.testing.assert_array_equal(np.asarray(jc.vmap(lambda r: jnp.partition(r, 2))(x))[:, 2], np.sort(x)[:, 2])
    a = np.sort(x[0])
    for method in ["scan", "sort", "compare_all"]:
        got = jc.vmap(lambda q, m=method: jnp.searchsorted(a, q, method=m))(x)
        np.testing.assert_array_equal(np.asarray(got), np.searchsorted(a, x))
        got = jc.vmap(lambda s, m=method: jnp.searchsorted(s, x[1], method=m))(np.sort(x, axis=1))
        np.testing.assert_array_equal(np.asarray(got), [np.searchsorted(r, x[1]) for r in np.sort(x, axis=1)])


def test_x64_index_dtypes():
    x = _data((2, 4), "float64", 1)
    with jc.config.enable_x64(True):
        assert jnp.argsort(x).dtype == np.int64
        assert jnp.lexsort(x).dtype == np.int64
        assert jnp.argpartition(x, 1).dtype == np.int32
        assert jnp.searchsorted(x[0], x[1]).dtype == np.int32
        assert jnp.sort(x).dtype == np.float64
        assert jnp.sort_complex(x).dtype == np.complex128
        np.testing.assert_array_equal(np.asarray(jnp.argsort(x)), np.argsort(x, kind="stable"))
    with pytest.warns(UserWarning, match="requested in argsort is not available"):
        assert jnp.argsort(x, dtype=np.int64).dtype == np.int32


def test_gradients():
    x = np.array([[0.3, -1.2, 2.0], [1.5, 0.1, -0.7]], np.float32)
    check_grads(jnp.sort, (x,), order=2, modes=("fwd", "rev"))
    check_grads(lambda a: jnp.sort(a, axis=0, descending=True), (x,), order=1)
    check_grads(lambda a: jnp.partition(a, 1), (x,), order=1)
    check_grads(jnp.sort_complex, (x,), order=1)
    # ties: the gradient follows the permutation the stable sort chose
    g = jc.grad(lambda a: jnp.sort(a)[0] * 2.0 + jnp.sort(a)[1])(np.array([1.0, 1.0, 3.0], np.float32))
    np.testing.assert_array_equal(np.asarray(g), [2.0, 1.0, 0.0])
