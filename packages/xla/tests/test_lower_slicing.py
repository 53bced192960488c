"""XLA lowerings of the slicing primitives agree with core's NumPy reference."""

import ml_dtypes
import numpy as np
import pytest
from conftest import check_against_reference, random_values

from jaxle_core import lax
from jaxle_core.config import enable_x64
from jaxle_core.lax.slicing import GatherDimensionNumbers, ScatterDimensionNumbers

DTYPE_IDS = lambda d: np.dtype(d).name  # noqa: E731
OPERAND_DTYPES = [np.bool_, np.int8, np.uint16, np.int64, np.float16, ml_dtypes.bfloat16, np.float32, np.float64,
                  np.complex64]
INDEX_DTYPES = [np.int8, np.uint8, np.int32, np.uint32, np.int64, np.uint64]


def _operand(rng, shape, dtype):
    x = random_values(rng, shape, dtype)
    if np.dtype(dtype).kind == "f":
        flat = x.reshape(-1)
        flat[:3] = np.array([np.nan, -0.0, np.inf])[:flat.size].astype(dtype)
    return x


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint32, np.int64, np.float16, np.float32, np.complex128],
                         ids=DTYPE_IDS)
def test_slice(dtype):
    rng = np.random.default_rng(0)
    with enable_x64():
        x = _operand(rng, (5, 7), dtype)
        check_against_reference(
            lambda v: (lax.slice(v, (1, 2), (4, 7)), lax.slice(v, (0, 0), (5, 7), (2, 3)),
                       lax.slice(v, (4, 1), (5, 7), (3, 4)), lax.slice(v, (2, 3), (2, 7)), lax.slice(v, (5, 7), (5, 7)),
                       lax.slice_in_dim(v, -3, None, 2, axis=1), lax.index_in_dim(v, -1, 0, keepdims=False)), x)
    check_against_reference(lambda s, e: (lax.slice(s, (), ()), lax.slice(e, (0, 1), (0, 3))),
                            np.array(1.5, np.float32), np.zeros((0, 4), np.float32))


# Start indices in range, negative and past the end: XLA clamps the window into the operand.
STARTS = [(0, 0), (1, 2), (-1, 3), (2, -5), (3, 9), (100, -100), (4, 1)]


@pytest.mark.parametrize("index_dtype", INDEX_DTYPES, ids=DTYPE_IDS)
def test_dynamic_slice_clamps_start_indices(index_dtype):
    rng = np.random.default_rng(1)
    with enable_x64():
        x = _operand(rng, (5, 6), np.float32)
        signed = np.dtype(index_dtype).kind == "i"
        starts = [np.array(s if signed else abs(s), index_dtype) for pair in STARTS for s in pair]

        def fun(v, *s):
            pairs = list(zip(s[::2], s[1::2]))
            return ([lax.dynamic_slice(v, p, (2, 3), allow_negative_indices=False) for p in pairs]
                    + [lax.dynamic_slice(v, pairs[1], (5, 6), allow_negative_indices=False),
                       lax.dynamic_slice(v, pairs[3], (0, 2), allow_negative_indices=False)])

        check_against_reference(fun, x, *starts, eager=False)


@pytest.mark.parametrize("dtype", OPERAND_DTYPES, ids=DTYPE_IDS)
def test_dynamic_slice_over_dtypes_and_wrapped_negative_indices(dtype):
    rng = np.random.default_rng(2)
    with enable_x64():
        x = _operand(rng, (4, 5, 3), dtype)
        i, j = np.array(-2, np.int32), np.array(7, np.int32)
        check_against_reference(lambda v, a, b: (lax.dynamic_slice(v, (a, b, a), (2, 2, 3)),
                                                 lax.dynamic_index_in_dim(v, a, 1, keepdims=False),
                                                 lax.dynamic_slice_in_dim(v, b, 2, axis=0)), x, i, j)
    check_against_reference(lambda s: lax.dynamic_slice(s, (), ()), np.array(2.0, np.float32))


@pytest.mark.parametrize("index_dtype", INDEX_DTYPES, ids=DTYPE_IDS)
def test_dynamic_update_slice_clamps_start_indices(index_dtype):
    rng = np.random.default_rng(3)
    with enable_x64():
        x = _operand(rng, (5, 6), np.float32)
        update, full, empty = (random_values(rng, shape, np.float32) for shape in [(2, 3), (5, 6), (0, 2)])
        signed = np.dtype(index_dtype).kind == "i"
        starts = [np.array(s if signed else abs(s), index_dtype) for pair in STARTS for s in pair]

        def fun(v, u, f, e, *s):
            pairs = list(zip(s[::2], s[1::2]))
            return ([lax.dynamic_update_slice(v, u, p, allow_negative_indices=False) for p in pairs]
                    + [lax.dynamic_update_slice(v, f, pairs[1], allow_negative_indices=False),
                       lax.dynamic_update_slice(v, e, pairs[4], allow_negative_indices=False)])

        check_against_reference(fun, x, update, full, empty, *starts, eager=False)


@pytest.mark.parametrize("dtype", OPERAND_DTYPES, ids=DTYPE_IDS)
def test_dynamic_update_slice_over_dtypes(dtype):
    rng = np.random.default_rng(4)
    with enable_x64():
        x, update = _operand(rng, (4, 5), dtype), random_values(rng, (3, 1), dtype)
        check_against_reference(lambda v, u, a, b: (lax.dynamic_update_slice(v, u, (a, b)),
                                                    lax.dynamic_update_index_in_dim(v, u[:, 0], a, 1)),
                                x, update, np.array(-1, np.int32), np.array(9, np.int32))


# ---------------------------------------------------------------- gather

# (operand shape, indices shape, index bound, dimension numbers, slice sizes)
GATHERS = {
    "rows": ((6, 4), (5, 1), 9, GatherDimensionNumbers((1,), (0,), (0,)), (1, 4)),
    "points": ((6, 4), (3, 2, 2), 7, GatherDimensionNumbers((), (0, 1), (0, 1)), (1, 1)),
    "windows_permuted_map": ((6, 5), (4, 2), 6, GatherDimensionNumbers((1, 2), (), (1, 0)), (3, 2)),
    "offset_dim_first": ((5, 6), (2, 3, 1), 7, GatherDimensionNumbers((0,), (0,), (0,)), (1, 6)),
    "column_slices": ((3, 7), (4, 1), 9, GatherDimensionNumbers((0, 1), (), (1,)), (3, 2)),
    "batching": ((3, 5, 4), (3, 2, 1), 7,
                 GatherDimensionNumbers((2,), (1,), (1,), operand_batching_dims=(0,), start_indices_batching_dims=(0,)),
                 (1, 1, 4)),
    "batching_middle": ((4, 2, 6), (2, 3, 1), 8,
                        GatherDimensionNumbers((2,), (0,), (0,), operand_batching_dims=(1,),
                                               start_indices_batching_dims=(0,)), (1, 1, 3)),
    "no_index_vector": ((4, 3), (2, 0), 1, GatherDimensionNumbers((1, 2), (), ()), (2, 3)),
    "no_indices": ((4, 3), (0, 1), 1, GatherDimensionNumbers((1,), (0,), (0,)), (1, 3)),
}


def _edge_indices(dtype) -> np.ndarray:
    """Sorted distinct indices at the limits of ``dtype`` and around an operand dimension of 300.

    Unsigned 64-bit indices past 2**63 are left out: the reference reads them as negative (see the report).
    """
    info = np.iinfo(dtype)
    top = min(int(info.max), 2**63 - 1)
    candidates = [int(info.min), -1, 0, 3, 127, 255, 298, 299, 300, 301, top - 1, top]
    return np.array(sorted({c for c in candidates if info.min <= c <= top}), dtype)


def _indices(rng, shape, bound, dtype):
    """Indices from -bound to bound (non-negative for unsigned types): in and out of range."""
    low = 0 if np.dtype(dtype).kind == "u" else -bound
    return rng.integers(low, bound + 1, shape).astype(dtype)


@pytest.mark.parametrize("case", GATHERS)
def test_gather_dimension_numbers_and_modes(case):
    # Out-of-bounds slices are clamped (clip, promise_in_bounds) or filled (fill, with the default fill value).
    operand_shape, indices_shape, bound, dn, sizes = GATHERS[case]
    rng = np.random.default_rng(5)
    x, idx = _operand(rng, operand_shape, np.float32), _indices(rng, indices_shape, bound, np.int32)
    check_against_reference(lambda v, i: [lax.gather(v, i, dn, sizes, mode=m)
                                          for m in ("clip", "fill", "promise_in_bounds")], x, idx, eager=False)


@pytest.mark.parametrize("mode", ["clip", "fill"])
def test_gather_and_scatter_eagerly(mode):
    rng = np.random.default_rng(11)
    x, idx = _operand(rng, (6, 4), np.float32), _indices(rng, (5, 1), 8, np.int32)
    gather_dn, scatter_dn = GatherDimensionNumbers((1,), (0,), (0,)), ScatterDimensionNumbers((1,), (0,), (0,))
    u = random_values(rng, (5, 4), np.float32)
    check_against_reference(lambda v, i: lax.gather(v, i, gather_dn, (1, 4), mode=mode), x, idx)
    check_against_reference(lambda v, i, w: lax.scatter_add(v, i, w, scatter_dn, mode=mode), x, idx, u)


@pytest.mark.parametrize("dtype", OPERAND_DTYPES + [np.uint64, np.complex128], ids=DTYPE_IDS)
def test_gather_fill_values_over_dtypes(dtype):
    # Default fill: NaN, the integer minimum (signed) or maximum (unsigned), True; and an explicit fill value.
    rng = np.random.default_rng(6)
    with enable_x64():
        _, indices_shape, bound, dn, sizes = GATHERS["windows_permuted_map"]
        x, idx = _operand(rng, (6, 5), dtype), _indices(rng, indices_shape, bound, np.int32)
        fill = 1 if np.dtype(dtype) == np.bool_ else -3
        check_against_reference(lambda v, i: (lax.gather(v, i, dn, sizes, mode="fill"),
                                              lax.gather(v, i, dn, sizes, mode="fill", fill_value=fill),
                                              lax.gather(v, i, dn, sizes, mode="clip", indices_are_sorted=True,
                                                         unique_indices=True)), x, idx, eager=False)


@pytest.mark.parametrize("index_dtype", INDEX_DTYPES + [np.int16], ids=DTYPE_IDS)
def test_gather_index_dtypes(index_dtype):
    # Narrow index types near their limits: the bounds check must not overflow them.
    rng = np.random.default_rng(7)
    with enable_x64():
        dn = GatherDimensionNumbers((1,), (0,), (0,))
        x = _operand(rng, (300, 2), np.float32)
        idx = np.concatenate([_edge_indices(index_dtype), _indices(rng, (20,), 400, index_dtype)])[:, None]
        check_against_reference(lambda v, i: [lax.gather(v, i, dn, (1, 2), mode=m) for m in ("clip", "fill")], x, idx,
                                eager=False)


# ---------------------------------------------------------------- scatter

SCATTERS = [lax.scatter, lax.scatter_add, lax.scatter_sub, lax.scatter_mul, lax.scatter_min, lax.scatter_max]
SCATTER_IDS = ["replace", "add", "sub", "mul", "min", "max"]

# (operand shape, indices shape, index bound, dimension numbers, updates shape)
SCATTERS_DN = {
    "rows": ((6, 3), (30, 1), 8, ScatterDimensionNumbers((1,), (0,), (0,)), (30, 3)),
    "points": ((5, 4), (4, 6, 2), 6, ScatterDimensionNumbers((), (0, 1), (0, 1)), (4, 6)),
    "windows_permuted_map": ((6, 5), (7, 2), 6, ScatterDimensionNumbers((1, 2), (), (1, 0)), (7, 2, 3)),
    "window_dim_first": ((5, 6), (2, 3, 1), 6, ScatterDimensionNumbers((0,), (0,), (0,)), (6, 2, 3)),
    "batching": ((3, 5, 4), (3, 6, 1), 6,
                 ScatterDimensionNumbers((2,), (1,), (1,), operand_batching_dims=(0,),
                                         scatter_indices_batching_dims=(0,)), (3, 6, 2)),
    "no_indices": ((4, 3), (0, 1), 1, ScatterDimensionNumbers((1,), (0,), (0,)), (0, 3)),
}


@pytest.mark.parametrize("case", SCATTERS_DN)
def test_scatter_dimension_numbers_and_modes(case):
    # Repeated indices combine one after the other; out-of-bounds windows are clamped (clip) or dropped.
    operand_shape, indices_shape, bound, dn, updates_shape = SCATTERS_DN[case]
    rng = np.random.default_rng(8)
    x, idx = _operand(rng, operand_shape, np.float32), _indices(rng, indices_shape, bound, np.int32)
    u = _operand(rng, updates_shape, np.float32)
    check_against_reference(lambda v, i, w: [f(v, i, w, dn, mode=m) for f in SCATTERS
                                             for m in ("clip", "fill", "promise_in_bounds")], x, idx, u, eager=False)


@pytest.mark.parametrize("dtype", OPERAND_DTYPES + [np.uint8, np.int32, np.complex128], ids=DTYPE_IDS)
def test_scatter_update_computations_over_dtypes(dtype):
    # Integer sums and products wrap; NaN and infinities propagate through min and max. Core's add, sub and mul
    # reject bool.
    scatters = [f for f, name in zip(SCATTERS, SCATTER_IDS)
                if np.dtype(dtype) != np.bool_ or name in ("replace", "min", "max")]
    rng = np.random.default_rng(9)
    with enable_x64():
        operand_shape, indices_shape, bound, dn, updates_shape = SCATTERS_DN["rows"]
        x, idx = _operand(rng, operand_shape, dtype), _indices(rng, indices_shape, bound, np.int32)
        u = _operand(rng, updates_shape, dtype)
        check_against_reference(lambda v, i, w: [f(v, i, w, dn, mode=m) for f in scatters for m in ("clip", "fill")],
                                x, idx, u, eager=False)


@pytest.mark.parametrize("index_dtype", INDEX_DTYPES, ids=DTYPE_IDS)
def test_scatter_index_dtypes_and_hints(index_dtype):
    # Clamping at the limits of narrow index types; sorted and unique hints on indices that honour them.
    rng = np.random.default_rng(10)
    with enable_x64():
        dn = ScatterDimensionNumbers((1,), (0,), (0,))
        x = _operand(rng, (300, 2), np.float32)
        idx = _edge_indices(index_dtype)[:, None]
        u = random_values(rng, (idx.shape[0], 2), np.float32)
        check_against_reference(
            lambda v, i, w: [f(v, i, w, dn, mode=m, indices_are_sorted=True, unique_indices=m == "fill")
                             for f in (lax.scatter, lax.scatter_add) for m in ("clip", "fill")], x, idx, u,
            eager=False)
