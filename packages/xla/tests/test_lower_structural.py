"""XLA lowerings of the structural primitives agree with core's NumPy reference."""

import ml_dtypes
import numpy as np
import pytest
from conftest import FLOAT_EDGES, check_against_reference, random_values

import jaxle_core as jc
from jaxle_core import lax
from jaxle_core.config import enable_x64

BOOL_INT_UINT = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOATS = [np.float16, ml_dtypes.bfloat16, np.float32, np.float64]
COMPLEX = [np.complex64, np.complex128]
FLOAT8 = [ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2]
ALL_TYPES = BOOL_INT_UINT + FLOATS + COMPLEX
DTYPE_IDS = lambda d: np.dtype(d).name  # noqa: E731

# Values around every integer range and float format limit (no subnormals: XLA on CPU flushes them to zero).
CONVERSION_EDGES = np.concatenate([FLOAT_EDGES, [
    -0.7, 0.7, 126.9, 127.5, 128.0, -128.6, -129.0, 255.5, 256.0, 32767.9, -32769.0, 65535.0, 65536.0, 1e10,
    -1e10, 2.0**31, -2.0**31, -2.0**31 - 2048, 2.0**32, 2.0**63, -2.0**63, 2.0**64, 1e300, -1e300, 3.4e38,
    448.0, 464.0, 57344.0, 61440.0, 1.0 + 2.0**-9]])


def _conversion_inputs(dtype) -> np.ndarray:
    dtype = np.dtype(dtype)
    rng = np.random.default_rng(0)
    if dtype == np.bool_:
        return np.array([True, False, True])
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        extremes = np.array([0, 1, info.min, info.max, info.max - 1, info.min + 1], dtype)
        return np.concatenate([extremes, random_values(rng, (20,), dtype)])
    with np.errstate(over="ignore", invalid="ignore"):
        if dtype.kind == "c":
            return (CONVERSION_EDGES + 1j * CONVERSION_EDGES[::-1]).astype(dtype)
        return CONVERSION_EDGES.astype(dtype)


@pytest.mark.parametrize("source", ALL_TYPES + FLOAT8, ids=DTYPE_IDS)
def test_convert_element_type_to_every_dtype(source):
    # Saturating float-to-int with NaN -> 0, x != 0 for bool, the real part of complex values, rounding to
    # the narrow floats; one compiled function per source dtype converts to every target.
    with enable_x64():
        x = _conversion_inputs(source)
        targets = [t for t in ALL_TYPES + FLOAT8 if np.dtype(t) != np.dtype(source)]
        check_against_reference(lambda v: [lax.convert_element_type(v, t) for t in targets], x, eager=False)


def test_convert_element_type_eagerly_and_of_weak_scalars():
    check_against_reference(lambda v: lax.convert_element_type(v, np.int32), np.array([-2.7, np.nan, 3e9], np.float32))
    check_against_reference(lambda v: (lax.convert_element_type(v * 2, np.float32), lax.convert_element_type(v, bool)),
                            np.array(1.5, np.float32))
    check_against_reference(lambda v: lax.convert_element_type(v, np.complex64), np.zeros((0, 3), np.int8))


@pytest.mark.parametrize("source,target", [
    (np.float32, np.uint8), (np.float32, np.int32), (np.int32, np.float32), (np.uint8, np.float32),
    (np.float64, np.uint32), (np.uint32, np.float64), (np.float64, np.int8), (np.int16, np.int8),
    (np.int8, np.uint8), (np.uint16, ml_dtypes.bfloat16), (np.float16, np.int16), (ml_dtypes.bfloat16, np.uint8),
    (np.complex64, np.complex64), (np.bool_, np.bool_)], ids=str)
def test_bitcast_convert_type(source, target):
    # A narrower target adds a trailing dimension, a wider one consumes it.
    rng = np.random.default_rng(1)
    ratio = max(np.dtype(target).itemsize // np.dtype(source).itemsize, 1)
    with enable_x64():
        x = random_values(rng, (2, 3) + ((ratio,) if ratio > 1 else ()), source)
        if np.dtype(source).kind in "fc":
            x.reshape(-1)[:4] = np.array([np.inf, -0.0, -np.inf, 1.0]).astype(source)
        check_against_reference(lambda v: lax.bitcast_convert_type(v, target), x)
        # From or to a scalar: the rank changes by one.
        check_against_reference(lambda v: lax.bitcast_convert_type(v, target), x[0, 0])


@pytest.mark.parametrize("dtype", FLOATS, ids=DTYPE_IDS)
def test_reduce_precision(dtype):
    # Rounding to nearest even at the kept mantissa width, overflow to inf, flush below the normal range.
    rng = np.random.default_rng(2)
    with enable_x64():
        info = ml_dtypes.finfo(dtype)
        x = np.concatenate([FLOAT_EDGES, random_values(rng, (40,), np.float64) * 1e3,
                            [1.0 + 2.0**-11, 1.0 + 3 * 2.0**-11, 65520.0, 70000.0, 6.2e-5, 1e-5, 2.0**-20,
                             float(info.max), float(info.tiny), -float(info.tiny) * 4]])
        with np.errstate(over="ignore"):
            x = x.astype(dtype)
        x = x[(x == 0) | (np.abs(x.astype(np.float64)) >= float(info.tiny))]  # no subnormal inputs
        formats = [(5, 10), (8, 7), (4, 3), (5, 2), (1, 0), (2, 1), (int(info.nexp), int(info.nmant)), (11, 52)]
        check_against_reference(lambda v: [lax.reduce_precision(v, e, m) for e, m in formats], x)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint32, np.float32, ml_dtypes.bfloat16, np.complex64],
                         ids=DTYPE_IDS)
def test_select_n_with_bool_predicates(dtype):
    rng = np.random.default_rng(3)
    a, b = random_values(rng, (3, 4), dtype), random_values(rng, (3, 4), dtype)
    pred = rng.random((3, 4)) < 0.5
    check_against_reference(lambda p, x, y: (lax.select_n(p, x, y), lax.select_n(p, x), lax.select(p, x, y)),
                            pred, a, b)
    check_against_reference(lambda p, x, y: lax.select_n(p, x, y), np.array(True), a, b)  # scalar predicate


@pytest.mark.parametrize("which_dtype", [np.int32, np.uint8, np.int8, np.int64], ids=DTYPE_IDS)
def test_select_n_with_integer_predicates(which_dtype):
    # More than two cases; out-of-range predicates pick the first or last case, as XLA's bisection does.
    rng = np.random.default_rng(4)
    with enable_x64():
        cases = [random_values(rng, (6, 5), np.float32) for _ in range(5)]
        low = -3 if np.dtype(which_dtype).kind == "i" else 0
        which = rng.integers(low, 8, (6, 5)).astype(which_dtype)
        check_against_reference(
            lambda w, *c: (lax.select_n(w, *c), lax.select_n(w, *c[:3]), lax.select_n(w, *c[:4]),
                           lax.select_n(w, c[0], c[1]), lax.select_n(w, c[2])), which, *cases)
        scalars = [np.array(w, which_dtype) for w in (low, 0, 2, 4, 9)]
        check_against_reference(lambda *a: [lax.select_n(w, *a[5:]) for w in a[:5]], *scalars, *cases, eager=False)


def test_select_n_of_empty_arrays():
    check_against_reference(lambda w, x, y, z: lax.select_n(w, x, y, z), np.zeros((0, 2), np.int32),
                            *(np.zeros((0, 2), np.float32),) * 3)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int64, np.float16, np.float32, np.float64,
                                   ml_dtypes.bfloat16], ids=DTYPE_IDS)
def test_clamp_with_scalar_and_array_bounds(dtype):
    rng = np.random.default_rng(5)
    with enable_x64():
        x = random_values(rng, (4, 5), dtype)
        lo, hi = random_values(rng, (4, 5), dtype), random_values(rng, (4, 5), dtype)  # lo > hi in places
        if np.dtype(dtype).kind == "f":
            x.reshape(-1)[:4] = np.array([np.nan, np.inf, -np.inf, -0.0]).astype(dtype)
            lo.reshape(-1)[5] = np.nan
        s_lo, s_hi = np.sort(random_values(rng, (2,), dtype))
        check_against_reference(lambda a, b, c, d, e: (lax.clamp(a, b, c), lax.clamp(d, b, e), lax.clamp(d, b, c),
                                                        lax.clamp(a, b, e), lax.clamp(d, a, d)),
                                lo, x, hi, np.array(s_lo, dtype), np.array(s_hi, dtype))


def test_clamp_of_python_scalar_bounds_and_empty_arrays():
    check_against_reference(lambda v: lax.clamp(-1.0, v, 2.0), np.linspace(-3, 3, 9, dtype=np.float32))
    check_against_reference(lambda v: lax.clamp(np.int32(0), v, np.int32(3)), np.zeros((2, 0), np.int32))


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.int64, np.uint64, np.float16, ml_dtypes.bfloat16,
                                   np.float32, np.float64, np.complex64, np.complex128], ids=DTYPE_IDS)
def test_iota(dtype):
    # bfloat16 and int8 counts past their exact or representable range round or wrap the same way.
    with enable_x64():
        check_against_reference(lambda: (lax.iota(dtype, 300), lax.broadcasted_iota(dtype, (2, 3, 4), 0),
                                         lax.broadcasted_iota(dtype, (2, 3, 4), 2),
                                         lax.broadcasted_iota(dtype, (5, 0), 0), lax.iota(dtype, 0)))


def test_iota_with_a_sharding_param():
    check_against_reference(lambda: lax.broadcasted_iota(np.int32, (3, 2), 1, out_sharding=None))


@pytest.mark.parametrize("dtype", [np.bool_, np.uint32, np.float32, np.complex128], ids=DTYPE_IDS)
def test_broadcast_in_dim(dtype):
    rng = np.random.default_rng(6)
    with enable_x64():
        x = random_values(rng, (3, 1), dtype)
        check_against_reference(
            lambda v, s: (lax.broadcast_in_dim(v, (2, 3, 4), (1, 2)), lax.broadcast_in_dim(v, (3, 2, 1), (0, 2)),
                          lax.broadcast_in_dim(v, (3, 0), (0, 1)), lax.broadcast_in_dim(s, (2, 2), ()),
                          lax.broadcast_in_dim(s, (), ()), lax.broadcast(v, (2,)), lax.expand_dims(v, (0, 3)),
                          lax.broadcast_in_dim(v, (4, 3), (1, 0)), lax.broadcast_in_dim(v, (1, 2, 3), (2, 0))),
            x, x[0, 0])


@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.float64, ml_dtypes.bfloat16, np.complex64],
                         ids=DTYPE_IDS)
def test_reshape_squeeze_transpose_rev(dtype):
    rng = np.random.default_rng(7)
    with enable_x64():
        x = random_values(rng, (2, 3, 4), dtype)
        one = random_values(rng, (1, 3, 1), dtype)
        check_against_reference(
            lambda v, w: (lax.reshape(v, (6, 4)), lax.reshape(v, (4, 3, 2), (2, 1, 0)),
                          lax.reshape(v, (24,), (1, 0, 2)), lax.reshape(w, (3,)), lax.squeeze(w, (0, 2)),
                          lax.squeeze(w, (-1,)), lax.transpose(v, (2, 0, 1)), lax.transpose(v, (1, 0, 2)),
                          lax.rev(v, (0, 2)), lax.rev(v, (1,)), lax.rev(v, ())), x, one)


def test_reshape_and_friends_of_scalars_and_empty_arrays():
    check_against_reference(lambda s, e: (lax.reshape(s, (1, 1)), lax.squeeze(lax.reshape(s, (1,)), (0,)),
                                          lax.reshape(e, (0, 5)), lax.reshape(e, (2, 0, 3), (1, 0)),
                                          lax.transpose(e, (1, 0)), lax.rev(e, (0, 1))),
                            np.array(2.5, np.float32), np.zeros((3, 0), np.float32))


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint64, np.float32, np.float16, np.complex128],
                         ids=DTYPE_IDS)
def test_pad_with_negative_and_interior_padding(dtype):
    rng = np.random.default_rng(8)
    with enable_x64():
        x = random_values(rng, (4, 5), dtype)
        fill = random_values(rng, (), dtype)
        configs = [[(1, 2, 0), (0, 0, 0)], [(-1, 2, 1), (2, -3, 2)], [(-2, -2, 0), (0, 0, 3)],
                   [(0, 0, 1), (-4, 1, 0)], [(-3, -4, 1), (1, 1, 0)], [(-7, 0, 2), (-9, -4, 2)], [(0, 0, 0)] * 2]
        check_against_reference(lambda v, f: [lax.pad(v, f, c) for c in configs], x, fill)


def test_pad_of_empty_operands_and_scalars():
    check_against_reference(lambda v, s, f: (lax.pad(v, f, [(1, 1, 2), (2, 0, 1)]), lax.pad(s, f, [])),
                            np.zeros((0, 1), np.float32), np.array(3.0, np.float32), np.array(-1.0, np.float32))
    check_against_reference(lambda v: lax.pad(v, 0.5, [(2, -1, 0)]), np.arange(3, dtype=np.float32))


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.uint8, np.float32, np.float64, np.complex64],
                         ids=DTYPE_IDS)
def test_concatenate(dtype):
    rng = np.random.default_rng(9)
    with enable_x64():
        a, b, c = (random_values(rng, shape, dtype) for shape in [(2, 3), (4, 3), (0, 3)])
        check_against_reference(lambda x, y, z: (lax.concatenate([x, y, z], 0), lax.concatenate([z, x], 0),
                                                 lax.concatenate([x, x, x], 1), lax.concatenate([z, z], 1)), a, b, c)


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.uint8, np.float32, np.float64, np.complex64],
                         ids=DTYPE_IDS)
def test_split(dtype):
    rng = np.random.default_rng(10)
    with enable_x64():
        a, e = random_values(rng, (5, 3, 2), dtype), random_values(rng, (0, 3), dtype)
        check_against_reference(lambda x, z: [*lax.split(x, (2, 0, 3)), *lax.split(x, (1, 2), axis=1),
                                              *lax.split(x, (2,), axis=-1), *lax.split(z, (0, 0)),
                                              *lax.split(z, (2, 1), axis=1)], a, e)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint32, np.float16, np.float32, np.complex64],
                         ids=DTYPE_IDS)
def test_stack_unstack_tile(dtype):
    rng = np.random.default_rng(11)
    a, b, e = random_values(rng, (2, 3), dtype), random_values(rng, (2, 3), dtype), random_values(rng, (0, 3), dtype)
    f = lambda x, y, z: [lax.stack([x, y, x], 0), lax.stack([x, y], 1), lax.stack([x, y], -1), lax.stack([z, z], 1),
                         *lax.unstack(x, 0), *lax.unstack(y, 1), *lax.unstack(z, 1), lax.tile(x, (2, 3)),
                         lax.tile(y, (1, 0)), lax.tile(z, (3, 2)), lax.tile(x[0, 0], ())]
    check_against_reference(f, a, b, e)
    expected = [np.stack([a, b, a], 0), np.stack([a, b], 1), np.stack([a, b], -1), np.stack([e, e], 1), *a, *b.T,
                *e.T, np.tile(a, (2, 3)), np.tile(b, (1, 0)), np.tile(e, (3, 2)), a[0, 0]]
    for got, want in zip(jc.jit(f)(a, b, e), expected, strict=True):
        np.testing.assert_array_equal(np.asarray(got), want)
