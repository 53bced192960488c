"""The device Array behaves as JAX 0.10.2's ``jax.Array``; expected reprs and messages were taken from real JAX."""

import collections.abc
import gc
import pickle

import ml_dtypes
import numpy as np
import pytest

import jaxle_xla
from jaxle_core import config, lax
from jaxle_xla import XlaArray, xla_backend
from jaxle_xla.sharding import SingleDeviceSharding

DELETED = r"Array has been deleted with shape=float32\[3\]\."


def put(value, weak_type: bool = False) -> XlaArray:
    """``value`` on the default device; 64-bit values keep their dtype."""
    with config.enable_x64(True):
        return xla_backend.device_put(np.asarray(value), None, weak_type)


# (NumPy value, weak type, JAX's repr)
REPRS = [
    ("np.arange(3, dtype=np.float32)", False, "Array([0., 1., 2.], dtype=float32)"),
    ("np.array([True, False])", False, "Array([ True, False], dtype=bool)"),
    ("np.array([1.5, 2j], np.complex64)", False, "Array([1.5+0.j, 0. +2.j], dtype=complex64)"),
    ("np.array([1, -2], np.int8)", False, "Array([ 1, -2], dtype=int8)"),
    ("np.array([1, 2], np.uint32)", False, "Array([1, 2], dtype=uint32)"),
    ("np.array([1.5, 2], np.float16)", False, "Array([1.5, 2. ], dtype=float16)"),
    ("np.ones((3, 4, 5), ml_dtypes.bfloat16)", False,
     "Array([[[1, 1, 1, 1, 1],\n        [1, 1, 1, 1, 1],\n        [1, 1, 1, 1, 1],\n        [1, 1, 1, 1, 1]],\n\n"
     "       [[1, 1, 1, 1, 1],\n        [1, 1, 1, 1, 1],\n        [1, 1, 1, 1, 1],\n        [1, 1, 1, 1, 1]],\n\n"
     "       [[1, 1, 1, 1, 1],\n        [1, 1, 1, 1, 1],\n        [1, 1, 1, 1, 1],\n        [1, 1, 1, 1, 1]]],"
     " dtype=bfloat16)"),
    ("np.zeros(3, ml_dtypes.float8_e4m3fn)", False, "Array([0, 0, 0], dtype=float8_e4m3fn)"),
    ("np.array([1.5, 3], ml_dtypes.float8_e5m2)", False, "Array([1.5, 3], dtype=float8_e5m2)"),
    ("np.array(True)", False, "Array(True, dtype=bool)"),
    ("np.array(7, np.int32)", False, "Array(7, dtype=int32)"),
    ("np.zeros((0,), np.int32)", False, "Array([], shape=(0,), dtype=int32)"),
    ("np.zeros((0, 3), np.float32)", False, "Array([], shape=(0, 3), dtype=float32)"),
    ("np.zeros((2, 0), np.int32)", False, "Array([], shape=(2, 0), dtype=int32)"),
    ("np.arange(1001, dtype=np.int32)", False, "Array([   0,    1,    2, ...,  998,  999, 1000], dtype=int32)"),
    ("np.arange(2000, dtype=np.float32)", False,
     "Array([0.000e+00, 1.000e+00, 2.000e+00, ..., 1.997e+03, 1.998e+03,\n       1.999e+03], dtype=float32)"),
    ("np.ones((100, 100), np.float32)", False,
     "Array([[1., 1., 1., ..., 1., 1., 1.],\n       [1., 1., 1., ..., 1., 1., 1.],\n"
     "       [1., 1., 1., ..., 1., 1., 1.],\n       ...,\n       [1., 1., 1., ..., 1., 1., 1.],\n"
     "       [1., 1., 1., ..., 1., 1., 1.],\n       [1., 1., 1., ..., 1., 1., 1.]], dtype=float32)"),
    ("np.array([np.nan, np.inf, -np.inf, -0.0, 1e-8], np.float32)", False,
     "Array([    nan,     inf,    -inf, -0.e+00,  1.e-08], dtype=float32)"),
    ("np.linspace(-1, 1, 4, dtype=np.float64)", False,
     "Array([-1.        , -0.33333333,  0.33333333,  1.        ], dtype=float64)"),
    ("np.arange(-4, 4, dtype=np.int64).reshape(2, 2, 2)", False,
     "Array([[[-4, -3],\n        [-2, -1]],\n\n       [[ 0,  1],\n        [ 2,  3]]], dtype=int64)"),
    # A full last line: JAX sets the dtype off by the width of "Array(" instead of one space.
    ("np.linspace(-1, 1, 20, dtype=np.float32)", False,
     "Array([-1.        , -0.8947368 , -0.7894737 , -0.68421054, -0.57894737,\n"
     "       -0.47368422, -0.36842105, -0.2631579 , -0.15789473, -0.05263158,\n"
     "        0.05263158,  0.15789473,  0.2631579 ,  0.36842105,  0.47368422,\n"
     "        0.57894737,  0.68421054,  0.7894737 ,  0.8947368 ,  1.        ],      dtype=float32)"),
    ("np.array(1.0, np.float32)", True, "Array(1., dtype=float32, weak_type=True)"),
    ("np.array(3, np.int32)", True, "Array(3, dtype=int32, weak_type=True)"),
    ("np.zeros((0,), np.float32)", True, "Array([], shape=(0,), dtype=float32, weak_type=True)"),
    ("np.arange(6, dtype=np.int32).reshape(2, 3)", True,
     "Array([[0, 1, 2],\n       [3, 4, 5]], dtype=int32, weak_type=True)"),
    ("np.linspace(-100, 100, 12, dtype=np.float64)", True,
     "Array([-100.        ,  -81.81818182,  -63.63636364,  -45.45454545,\n"
     "        -27.27272727,   -9.09090909,    9.09090909,   27.27272727,\n"
     "         45.45454545,   63.63636364,   81.81818182,  100.        ],      dtype=float64, weak_type=True)"),
    ("np.array([1 + 2j, 3], np.complex128)", True, "Array([1.+2.j, 3.+0.j], dtype=complex128, weak_type=True)"),
]


@pytest.mark.parametrize("expression, weak_type, expected", REPRS, ids=[f"{e}-{w}" for e, w, _ in REPRS])
def test_repr_is_jaxs(expression, weak_type, expected):
    value = eval(expression, {"np": np, "ml_dtypes": ml_dtypes})
    x = put(value, weak_type)
    assert repr(x) == expected
    assert str(x) == str(value)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.int32, np.float16, ml_dtypes.bfloat16,
                                   np.float32, np.complex64, ml_dtypes.float8_e4m3fn, np.float64, np.int64])
def test_shape_and_dtype_attributes(dtype):
    x = put(np.zeros((2, 3), dtype))
    assert type(x) is XlaArray
    assert (x.shape, x.dtype, x.ndim, x.size) == ((2, 3), np.dtype(dtype), 2, 6)
    assert x.itemsize == np.dtype(dtype).itemsize
    assert x.nbytes == 6 * np.dtype(dtype).itemsize
    assert x.weak_type is False
    assert len(x) == 2


def test_weak_type_of_python_scalars():
    assert jaxle_xla.device_put(2.0).weak_type is True
    assert jaxle_xla.device_put(np.float32(2.0)).weak_type is False
    two = jaxle_xla.device_put(np.int8(2))
    assert (two * 3).dtype == np.int8  # a Python scalar does not widen the array
    assert repr(jaxle_xla.device_put(1) + 1) == "Array(2, dtype=int32, weak_type=True)"


def test_operators_dispatch_through_lax_to_xla_arrays():
    x = put(np.arange(3, dtype=np.float32))
    y = -x * 2.0 + x - 1.0
    assert type(y) is XlaArray
    np.testing.assert_array_equal(np.asarray(y), -np.arange(3, dtype=np.float32) - 1)
    np.testing.assert_allclose(np.asarray(lax.exp(lax.sin(x))), np.exp(np.sin(np.arange(3.0))), rtol=1e-6)


@pytest.mark.parametrize("index, clamped", [(10, 1), (-10, 0), ((1, 7), (1, 2)), ((5, slice(None)), (1, slice(None)))])
def test_out_of_range_integer_index_is_clamped(index, clamped):
    """As JAX 0.10.2 does for an Array (eagerly and under jit): the index is clamped into range, no IndexError."""
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(np.asarray(put(x)[index]), x[clamped])


def test_scalar_conversions():
    assert float(put(np.float32(1.5))) == 1.5
    assert int(put(np.float32(-2.7))) == -2
    assert int(put(np.array(2.5, ml_dtypes.bfloat16))) == 2
    assert bool(put(np.int32(3))) is True and bool(put(np.array([0]))) is False
    assert complex(put(np.complex64(1 + 2j))) == 1 + 2j
    assert complex(put(np.int32(3))) == 3 + 0j
    assert [10, 20, 30][put(np.uint8(2))] == 30
    assert put(np.float32(2.5)).item() == 2.5 and put(np.array(2.5, ml_dtypes.float8_e4m3fn)).item() == 2.5
    assert put(np.arange(6, dtype=np.int32).reshape(2, 3)).item(1, 2) == 5
    assert put(np.array([[1, 2], [3, 4]], np.int8)).tolist() == [[1, 2], [3, 4]]
    assert put(np.array([2.5], ml_dtypes.bfloat16)).tolist() == [2.5]
    assert f"{put(np.float32(0.25)):.3f}" == "0.250"
    assert f"{put(np.arange(3, dtype=np.float32))}" == "[0. 1. 2.]"


@pytest.mark.parametrize("convert", [float, int, complex])
def test_scalar_conversion_of_non_scalars_is_a_type_error(convert):
    with pytest.raises(TypeError, match=r"Only scalar arrays can be converted to Python scalars; got arr.ndim=1"):
        convert(put(np.array([1.5], np.float32)))


def test_conversion_errors_match_jax():
    with pytest.raises(TypeError, match="Only integer scalar arrays can be converted to a scalar index."):
        [1, 2][put(np.float32(1))]
    with pytest.raises(TypeError, match="Only integer scalar arrays can be converted to a scalar index."):
        [1, 2][put(np.array(True))]
    with pytest.raises(TypeError, match="Only integer scalar arrays can be converted to a scalar index."):
        [1, 2][put(np.array([1], np.int32))]
    with pytest.raises(ValueError, match="more than one element is ambiguous"):
        bool(put(np.arange(3)))
    with pytest.raises(ValueError, match="The truth value of an empty array is ambiguous"):
        bool(put(np.zeros(0, np.float32)))
    with pytest.raises(TypeError, match="not 'complex'"):
        float(put(np.complex64(1j)))
    with pytest.raises(ValueError, match="can only convert an array of size 1 to a Python scalar"):
        put(np.arange(3)).item()
    with pytest.raises(TypeError, match="unsupported format string"):
        f"{put(np.arange(3)):>10}"


def test_len_and_iteration():
    x = put(np.arange(6, dtype=np.float32).reshape(3, 2))
    rows = list(x)
    assert len(x) == 3 and len(rows) == 3
    assert all(type(r) is XlaArray and r.shape == (2,) for r in rows)
    np.testing.assert_array_equal(np.asarray(rows[2]), [4.0, 5.0])
    assert [float(v) for v in reversed(put(np.arange(3, dtype=np.float32)))] == [2.0, 1.0, 0.0]
    scalar = put(np.float32(1))
    with pytest.raises(TypeError, match="len\\(\\) of unsized object"):
        len(scalar)
    with pytest.raises(TypeError, match="iteration over a 0-d array"):
        iter(scalar)


def test_numpy_conversion_shares_the_buffer_and_is_read_only():
    x = put(np.arange(4, dtype=np.float32))
    a, b = np.asarray(x), np.asarray(x)
    assert np.shares_memory(a, b)
    assert not a.flags.writeable
    c = np.array(x)  # np.array copies by default
    assert c.flags.writeable and not np.shares_memory(a, c)
    assert x.__array__(copy=True).flags.writeable
    np.testing.assert_array_equal(np.asarray(x, dtype=np.float64), np.arange(4.0))
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        x.__array__(dtype=np.float64, copy=False)


def test_hashing_is_a_type_error():
    x = put(np.arange(3))
    with pytest.raises(TypeError, match="unhashable type"):
        hash(x)
    assert not isinstance(x, collections.abc.Hashable)


def test_item_assignment_points_at_at():
    with pytest.raises(TypeError, match=r"JAX arrays are immutable .* x = x\.at\[idx\]\.set\(y\)"):
        put(np.arange(3))[0] = 1


def test_readiness_and_host_copies():
    x = put(np.arange(3, dtype=np.float32)) * 2.0
    assert x.block_until_ready() is x
    assert x.is_ready()
    y = x + 1.0
    assert y.copy_to_host_async() is None
    np.testing.assert_array_equal(np.asarray(y), [1.0, 3.0, 5.0])
    assert x.on_device_size_in_bytes() == 12


def test_device_and_sharding():
    x = put(np.arange(3))
    device = jaxle_xla.devices()[0]
    assert x.device == device and x.devices() == {device}
    sharding = x.sharding
    assert repr(sharding) == f"SingleDeviceSharding(device={device!r}, memory_kind=device)"
    assert sharding.memory_kind == "device"
    assert sharding.device_set == {device} and sharding.is_fully_replicated and sharding.num_devices == 1
    assert sharding == jaxle_xla.device_put(np.ones(2), device).sharding


def test_shardings_made_for_one_device_are_equal_and_hash_alike():
    device = jaxle_xla.devices()[0]
    made = SingleDeviceSharding(device)
    assert made == put(np.arange(3)).sharding and hash(made) == hash(put(np.arange(3)).sharding)
    assert len({made, SingleDeviceSharding(device), put(np.ones(2)).sharding}) == 1
    assert made != object() and made.memory_kind == "device"


@pytest.mark.parametrize("value, weak_type", [
    (np.arange(3, dtype=np.float32), False), (np.array(1.0, np.float32), True),
    (np.array([1.5, -2], ml_dtypes.bfloat16), False), (np.array([[1, 2]], np.uint8), False),
    (np.array([1 + 1j], np.complex128), False), (np.array([True]), False), (np.array(-3, np.int64), True),
])
def test_pickle_round_trip_keeps_dtype_and_weak_type(value, weak_type):
    x = put(value, weak_type)
    with config.enable_x64(True):
        y = pickle.loads(pickle.dumps(x))
    assert type(y) is XlaArray
    assert (y.dtype, y.shape, y.weak_type) == (value.dtype, value.shape, weak_type)
    np.testing.assert_array_equal(np.asarray(y), value)


@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.uint64, np.bool_, np.complex64, np.float16])
def test_dlpack_export(dtype):
    value = np.arange(6).reshape(2, 3).astype(dtype)
    x = put(value)
    assert x.__dlpack_device__() == (1, 0)
    out = np.from_dlpack(x)
    assert out.dtype == value.dtype
    np.testing.assert_array_equal(out, value)


def test_every_use_of_a_deleted_array_raises():
    x = put(np.arange(3, dtype=np.float32))
    x.delete()
    assert x.is_deleted()
    uses = [repr, str, np.asarray, bool, lambda a: a + 1, lambda a: lax.sin(a), lambda a: a.is_ready(),
            lambda a: a.device, lambda a: a.devices(), lambda a: a.item(),
            lambda a: a.tolist(), lambda a: a.copy_to_host_async(), lambda a: pickle.dumps(a),
            lambda a: a.__dlpack__(), lambda a: jaxle_xla.device_put(a, jaxle_xla.devices()[0]),
            lambda a: jaxle_xla.device_get(a), lambda a: a.on_device_size_in_bytes()]
    for use in uses:
        with pytest.raises(RuntimeError, match=DELETED):
            use(x)
    # Waiting is jaxlib's own call, as in JAX, with its error
    with pytest.raises(jaxle_xla.JaxRuntimeError,
                       match=r"^INVALID_ARGUMENT: BlockHostUntilReady\(\) called on deleted or donated buffer$"):
        x.block_until_ready()
    # What JAX still answers from the abstract value:
    assert x.shape == (3,) and len(x) == 3 and x.sharding.num_devices == 1
    x.delete()  # deleting twice is allowed


def test_deleting_after_a_read_still_deletes():
    x = put(np.arange(3, dtype=np.float32))
    np.asarray(x)
    x.delete()
    with pytest.raises(RuntimeError, match=DELETED):
        np.asarray(x)


def test_host_views_outlive_the_deleted_array():
    x = put(np.arange(3, dtype=np.float32)) * 1.0
    host, shared = np.asarray(x), np.from_dlpack(x)
    x.delete()
    del x
    gc.collect()
    np.testing.assert_array_equal(host, [0, 1, 2])
    np.testing.assert_array_equal(shared, [0, 1, 2])
