"""jnp's shape manipulation functions against NumPy: dtypes, shapes (0-d, empty), jit, vmap, x64, gradients."""

import jnp_golden
import make_jnp_reduction_signatures_golden
import ml_dtypes
import numpy as np
import pytest
from jnp_golden import rand

import jaxle_core
import jaxle_numpy as jnp
from jaxle_core.test_util import check_grads

DTYPES = ["bool", "int8", "int32", "uint8", "float16", "bfloat16", "float32", "complex64"]

# name -> (jnp function, NumPy function, operand shapes); every case runs over DTYPES
CASES = {
    "reshape": (lambda a: jnp.reshape(a, (3, -1)), lambda a: np.reshape(a, (3, -1)), [(2, 3), (6,)]),
    "reshape_F": (lambda a: jnp.reshape(a, (3, 2), order="F"), lambda a: np.reshape(a, (3, 2), order="F"),
                  [(2, 3)]),
    "reshape_empty": (lambda a: jnp.reshape(a, (0, 2)), lambda a: np.reshape(a, (0, 2)), [(2, 0), (0,)]),
    "ravel": (jnp.ravel, np.ravel, [(), (2, 3), (0, 2)]),
    "ravel_F": (lambda a: jnp.ravel(a, "F"), lambda a: np.ravel(a, "F"), [(2, 3, 2)]),
    "transpose": (jnp.transpose, np.transpose, [(), (3,), (2, 3, 4)]),
    "matrix_transpose": (jnp.matrix_transpose, lambda a: np.swapaxes(a, -1, -2), [(2, 3), (2, 0, 3)]),
    "moveaxis": (lambda a: jnp.moveaxis(a, (0, 2), (-1, 0)), lambda a: np.moveaxis(a, (0, 2), (-1, 0)),
                 [(2, 3, 4)]),
    "rollaxis": (lambda a: jnp.rollaxis(a, -1, 1), lambda a: np.rollaxis(a, -1, 1), [(2, 3, 4)]),
    "swapaxes": (lambda a: jnp.swapaxes(a, 0, -1), lambda a: np.swapaxes(a, 0, -1), [(2, 3, 4), (0, 3)]),
    "expand_dims": (lambda a: jnp.expand_dims(a, (0, -1)), lambda a: np.expand_dims(a, (0, -1)), [(), (2, 3)]),
    "squeeze": (jnp.squeeze, np.squeeze, [(), (1, 3, 1), (1, 0)]),
    "broadcast_to": (lambda a: jnp.broadcast_to(a, (2, 3, 4)), lambda a: np.broadcast_to(a, (2, 3, 4)),
                     [(), (4,), (3, 1)]),
    "atleast_3d": (jnp.atleast_3d, np.atleast_3d, [(), (3,), (2, 3), (1, 2, 3, 1)]),
    "concatenate": (lambda a: jnp.concatenate([a, a[:1]], axis=0), lambda a: np.concatenate([a, a[:1]]),
                    [(2, 3), (3,)]),
    "concatenate_none": (lambda a: jnp.concatenate([a, a], axis=None), lambda a: np.concatenate([a, a], None),
                         [(), (2, 3)]),
    "stack": (lambda a: jnp.stack([a, a], -1), lambda a: np.stack([a, a], -1), [(), (2, 3), (0,)]),
    "hstack": (lambda a: jnp.hstack([a, a]), lambda a: np.hstack([a, a]), [(), (3,), (2, 3)]),
    "vstack": (lambda a: jnp.vstack([a, a]), lambda a: np.vstack([a, a]), [(), (3,), (2, 3)]),
    "dstack": (lambda a: jnp.dstack([a, a]), lambda a: np.dstack([a, a]), [(), (3,), (2, 3)]),
    "column_stack": (lambda a: jnp.column_stack([a, a]), lambda a: np.column_stack([a, a]), [(), (3,), (2, 3)]),
    "block": (lambda a: jnp.block([[a, a], [a, a]]), lambda a: np.block([[a, a], [a, a]]), [(), (3,), (2, 3)]),
    "split": (lambda a: jnp.split(a, [1, 2], axis=-1), lambda a: np.split(a, [1, 2], axis=-1), [(2, 3), (4,)]),
    "array_split": (lambda a: jnp.array_split(a, 3), lambda a: np.array_split(a, 3), [(4, 2), (5,)]),
    "unstack": (lambda a: jnp.unstack(a, axis=1), lambda a: tuple(np.moveaxis(a, 1, 0)), [(2, 3), (2, 0)]),
    "tile": (lambda a: jnp.tile(a, (2, 1, 2)), lambda a: np.tile(a, (2, 1, 2)), [(), (3,), (2, 3), (2, 2, 2, 1)]),
    "flip": (jnp.flip, np.flip, [(), (3,), (2, 3)]),
    "flip_axis": (lambda a: jnp.flip(a, -1), lambda a: np.flip(a, -1), [(2, 3), (2, 0)]),
    "rot90": (lambda a: jnp.rot90(a, 3, (1, 0)), lambda a: np.rot90(a, 3, (1, 0)), [(2, 3), (2, 3, 2)]),
    "roll": (lambda a: jnp.roll(a, 4), lambda a: np.roll(a, 4), [(), (3,), (2, 3), (0, 3)]),
    "roll_axes": (lambda a: jnp.roll(a, (-1, 5), (0, -1)), lambda a: np.roll(a, (-1, 5), (0, -1)), [(2, 3)]),
    "repeat": (lambda a: jnp.repeat(a, 3, axis=-1), lambda a: np.repeat(a, 3, axis=-1), [(3,), (2, 3), (2, 0)]),
    "repeat_flat": (lambda a: jnp.repeat(a, 2), lambda a: np.repeat(a, 2), [(), (2, 3)]),
    "repeat_array": (lambda a: jnp.repeat(a, np.array([2, 0, 1]), axis=1),
                     lambda a: np.repeat(a, np.array([2, 0, 1]), axis=1), [(2, 3), (1, 3, 2)]),
    "pad_constant": (lambda a: jnp.pad(a, ((1, 0), (2, 1)), constant_values=1),
                     lambda a: np.pad(a, ((1, 0), (2, 1)), constant_values=1), [(2, 3), (0, 2)]),
    "pad_edge": (lambda a: jnp.pad(a, (2, 1), mode="edge"), lambda a: np.pad(a, (2, 1), mode="edge"),
                 [(3,), (2, 3)]),
    "pad_wrap": (lambda a: jnp.pad(a, (4, 7), mode="wrap"), lambda a: np.pad(a, (4, 7), mode="wrap"),
                 [(3,), (2, 3)]),
    "pad_reflect": (lambda a: jnp.pad(a, (4, 7), mode="reflect"), lambda a: np.pad(a, (4, 7), mode="reflect"),
                    [(1,), (3,), (2, 3)]),
    "pad_symmetric": (lambda a: jnp.pad(a, (4, 7), mode="symmetric"),
                      lambda a: np.pad(a, (4, 7), mode="symmetric"), [(1,), (2, 3)]),
    "pad_maximum": (lambda a: jnp.pad(a, 2, mode="maximum", stat_length=(1, 2)),
                    lambda a: np.pad(a, 2, mode="maximum", stat_length=(1, 2)), [(3,), (2, 3)]),
    "resize": (lambda a: jnp.resize(a, (3, 5)), lambda a: np.resize(a, (3, 5)), [(), (4,), (2, 3)]),
    "append": (lambda a: jnp.append(a, a), lambda a: np.append(a, a), [(), (2, 3)]),
    "delete": (lambda a: jnp.delete(a, np.array([0, 2, 2]), axis=-1), lambda a: np.delete(a, [0, 2, 2], axis=-1),
               [(3,), (2, 3)]),
    "delete_slice": (lambda a: jnp.delete(a, slice(None, None, -2)), lambda a: np.delete(a, slice(None, None, -2)),
                     [(), (2, 3)]),
    "insert": (lambda a: jnp.insert(a, np.array([0, 3, 1, 1]), 1, axis=-1),
               lambda a: np.insert(a, [0, 3, 1, 1], 1, axis=-1), [(3,), (2, 3)]),
    "insert_scalar": (lambda a: jnp.insert(a, -2, 0), lambda a: np.insert(a, -2, 0), [(3,), (2, 3)]),
    "diagonal": (lambda a: jnp.diagonal(a, -1, 2, 1), lambda a: np.diagonal(a, -1, 2, 1), [(2, 3, 4), (1, 0, 2)]),
    "diagonal_offset": (lambda a: jnp.diagonal(a, 2), lambda a: np.diagonal(a, 2), [(3, 4), (2, 2)]),
}


def _to_numpy(x):
    if isinstance(x, (list, tuple)):
        return type(x)(_to_numpy(y) for y in x)
    return np.asarray(x)


def _assert_same(actual, expected):
    actual, expected = _to_numpy(actual), expected
    if isinstance(expected, (list, tuple)):
        assert isinstance(actual, type(expected)) and len(actual) == len(expected)
        for a, e in zip(actual, expected):
            _assert_same(a, e)
        return
    expected = np.asarray(expected)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    np.testing.assert_array_equal(actual.astype(np.float64) if actual.dtype == ml_dtypes.bfloat16 else actual,
                                  expected.astype(np.float64) if expected.dtype == ml_dtypes.bfloat16 else expected)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_numpy(name, dtype):
    jnp_fn, np_fn, shapes = CASES[name]
    for shape in shapes:
        x = rand(shape, dtype, seed=len(shape))
        _assert_same(jnp_fn(x), np_fn(x))


@pytest.mark.parametrize("name", sorted(CASES))
def test_under_jit_and_vmap(name):
    jnp_fn, np_fn, shapes = CASES[name]
    shape = max(shapes, key=len)
    x = rand(shape, "float32", seed=3)
    _assert_same(jaxle_core.jit(jnp_fn)(x), np_fn(x))
    batch = np.stack([x, x * 2])
    out = jaxle_core.vmap(jnp_fn)(batch)
    expected = [np_fn(batch[0]), np_fn(batch[1])]
    if isinstance(expected[0], (list, tuple)):
        for i, part in enumerate(out):
            _assert_same(part, np.stack([e[i] for e in expected]))
    else:
        _assert_same(out, np.stack(expected))


NUMERIC_CASES = {
    "pad_mean": (lambda a: jnp.pad(a, (2, 3), mode="mean"), lambda a: np.pad(a, (2, 3), mode="mean"), [(4,), (2, 3)]),
    "pad_mean_stat": (lambda a: jnp.pad(a, 1, mode="mean", stat_length=2),
                      lambda a: np.pad(a, 1, mode="mean", stat_length=2), [(3,), (3, 4)]),
    "pad_median": (lambda a: jnp.pad(a, (2, 1), mode="median", stat_length=(3, 2)),
                   lambda a: np.pad(a, (2, 1), mode="median", stat_length=(3, 2)), [(4,), (3, 4)]),
    "pad_minimum": (lambda a: jnp.pad(a, 1, mode="minimum"), lambda a: np.pad(a, 1, mode="minimum"), [(2, 3)]),
    "pad_linear_ramp": (lambda a: jnp.pad(a, ((3, 1), (0, 2)), mode="linear_ramp", end_values=((1, 2), (3, -4))),
                        lambda a: np.pad(a, ((3, 1), (0, 2)), mode="linear_ramp", end_values=((1, 2), (3, -4))),
                        [(2, 3)]),
    "pad_reflect_odd": (lambda a: jnp.pad(a, (5, 4), mode="reflect", reflect_type="odd"),
                        lambda a: np.pad(a, (5, 4), mode="reflect", reflect_type="odd"), [(3,), (2, 3)]),
    "pad_symmetric_odd": (lambda a: jnp.pad(a, (5, 4), mode="symmetric", reflect_type="odd"),
                          lambda a: np.pad(a, (5, 4), mode="symmetric", reflect_type="odd"), [(3,), (2, 3)]),
}


@pytest.mark.parametrize("dtype", ["int16", "int32", "float32", "float16"])
@pytest.mark.parametrize("name", sorted(NUMERIC_CASES))
def test_numeric_pad_modes_match_numpy(name, dtype):
    jnp_fn, np_fn, shapes = NUMERIC_CASES[name]
    for shape in shapes:
        x = rand(shape, dtype, seed=len(shape))
        actual, expected = np.asarray(jnp_fn(x)), np_fn(x)
        assert actual.dtype == expected.dtype
        # NumPy computes in the array's dtype, JAX's ramps and means in float32: one unit of difference allowed
        np.testing.assert_allclose(actual.astype(np.float64), expected.astype(np.float64), rtol=2e-3, atol=1)


def test_pad_with_function():
    def fill(vector, widths, axis, kwargs):
        vector = vector.at[:widths[0]].set(kwargs["value"])
        return vector.at[vector.shape[0] - widths[1]:].set(-axis - 1)

    def np_fill(vector, widths, axis, kwargs):
        vector[:widths[0]] = kwargs["value"]
        vector[vector.shape[0] - widths[1]:] = -axis - 1

    x = rand((2, 3), "float32")
    _assert_same(jnp.pad(x, ((1, 2), (2, 1)), fill, value=9.0), np.pad(x, ((1, 2), (2, 1)), np_fill, value=9.0))


def test_repeat_total_repeat_length_under_jit():
    x = rand((2, 3), "float32")
    fun = jaxle_core.jit(lambda a, r: jnp.repeat(a, r, axis=1, total_repeat_length=4))
    _assert_same(fun(x, np.array([1, 2, 1])), np.repeat(x, [1, 2, 1], axis=1))
    _assert_same(fun(x, np.array([0, 3, 3])), np.repeat(x, [0, 3, 1], axis=1))  # cut at four
    _assert_same(fun(x, np.array([1, 1, 0])), np.repeat(x, [1, 1, 2], axis=1))  # the last element fills
    with pytest.raises(jaxle_core.errors.ConcretizationTypeError):
        jaxle_core.jit(lambda a, r: jnp.repeat(a, r))(x, np.array(2))


@pytest.mark.parametrize("name", ["reshape", "transpose", "concatenate", "stack", "tile", "roll", "diagonal",
                                  "resize", "block", "rot90", "repeat_array", "pad_reflect", "pad_edge"])
def test_x64(name):
    jnp_fn, np_fn, shapes = CASES[name]
    with jaxle_core.config.enable_x64(True):
        for dtype in ("float64", "int64", "complex128"):
            x = rand(max(shapes, key=len), dtype, seed=1)
            _assert_same(jnp_fn(x), np_fn(x))


def test_reshape_of_numpy_values_is_numpy_reshape():
    x = np.arange(6.0)
    out = jnp.reshape(x, (2, -1), order="F")
    assert type(out) is np.ndarray and out.dtype == np.float64
    np.testing.assert_array_equal(out, x.reshape((2, -1), order="F"))
    assert type(jnp.reshape(np.float64(3.0), (1,))) is np.ndarray
    with pytest.raises(ValueError, match=r"cannot reshape array of size 6 into shape \(4,2\)"):
        jnp.reshape(x, (4, 2))
    assert isinstance(jnp.reshape(3.0, (1, 1)), jaxle_core.Array)


def test_weak_types_kept():
    assert jnp.reshape(2.0, (1, 1)).weak_type
    assert jnp.tile(1.0, 3).weak_type
    assert jnp.stack([1.0, 2.0]).weak_type
    assert jnp.roll(jnp.broadcast_to(1.0, (3,)), 1).weak_type
    assert not jnp.concatenate([jnp.broadcast_to(1.0, (2,)), np.ones(2, np.float32)]).weak_type
    assert not jnp.astype(2.0, np.float32).weak_type


def test_traced_roll_shift_matches_numpy():
    x = rand((2, 5), "float32")
    for shift in (-7, 0, 3, 12):
        _assert_same(jaxle_core.jit(lambda a, s: jnp.roll(a, s, axis=1))(x, shift), np.roll(x, shift, axis=1))
        _assert_same(jaxle_core.jit(lambda a, s: jnp.roll(a, s))(x, shift), np.roll(x, shift))
    shifts = np.array([1, -3])
    _assert_same(jaxle_core.jit(lambda a, s: jnp.roll(a, s, (0, 1)))(x, shifts), np.roll(x, (1, -3), (0, 1)))


def test_trim_zeros_matches_numpy():
    for filt in (np.array([0, 0, 1, 2, 0, 3, 0], np.int32), np.zeros(2, np.float32), np.array([1, 0], np.int8)):
        for trim in ("f", "b", "fb", "FB"):
            _assert_same(jnp.trim_zeros(filt, trim), np.trim_zeros(filt, trim))
    grid = np.zeros((4, 5), np.int32)
    grid[1, 2] = grid[2, 3] = 1
    _assert_same(jnp.trim_zeros(grid), grid[1:3, 2:4])
    _assert_same(jnp.trim_zeros(grid, axis=1), grid[:, 2:4])
    _assert_same(jnp.trim_zeros(grid, "f", axis=0), grid[1:])


def test_split_sections_and_indices():
    x = rand((7, 2), "int32")
    for sections in (1, 7, [2, 5], [0, 0, 7], np.array([3])):
        _assert_same(jnp.split(x, sections), np.split(x, sections))
    for sections in (2, 3, 8):
        _assert_same(jnp.array_split(x, sections), np.array_split(x, sections))
    _assert_same(jnp.hsplit(x, 2), np.hsplit(x, 2))
    _assert_same(jnp.vsplit(x, [3]), np.vsplit(x, [3]))
    y = rand((2, 2, 4), "float32")
    _assert_same(jnp.dsplit(y, [1, 3]), np.dsplit(y, [1, 3]))


def test_delete_and_insert_forms():
    x = rand((3, 4), "int32")
    for obj in (0, -1, np.int64(2), slice(1, 3), np.array([3, 0]), np.array([True, False, True, False]),
                np.array([], np.int64)):
        _assert_same(jnp.delete(x, obj, axis=1), np.delete(x, obj, axis=1))
    unique = jaxle_core.jit(lambda a, i: jnp.delete(a, i, axis=1, assume_unique_indices=True))
    _assert_same(unique(x, np.array([3, -4])), np.delete(x, [3, 0], axis=1))
    for obj, values in ((1, 7), (slice(0, 4, 2), np.array([7, 8])), (np.array([4, 0]), 9),
                        (np.array([1]), np.array([[5], [6], [7]]))):
        _assert_same(jnp.insert(x, obj, values, axis=1), np.insert(x, obj, values, axis=1))
    traced = jaxle_core.jit(lambda a, i: jnp.insert(a, i, -1, axis=0))
    _assert_same(traced(x, np.array([3, 0])), np.insert(x, [3, 0], -1, axis=0))
    _assert_same(jnp.insert(x, 5, 0), np.insert(x, 5, 0))


def test_stacking_one_array():
    for shape in ((2, 3), (3,), (2, 3, 2)):
        x = rand(shape, "float32")
        for name in ("hstack", "vstack", "dstack", "column_stack", "stack", "concatenate"):
            if name == "concatenate" and len(shape) == 1:
                continue
            _assert_same(getattr(jnp, name)(x), getattr(np, name)(x))


def test_broadcast_helpers():
    assert jnp.broadcast_shapes((2, 1), (3,)) == (2, 3)
    assert jnp.broadcast_shapes() == ()
    assert jnp.broadcast_shapes(4, (1,)) == (4,)
    a, b = jnp.broadcast_arrays(rand((2, 1), "float32"), np.float32(3))
    assert a.shape == b.shape == (2, 1)
    _assert_same(jnp.broadcast_arrays(rand((3,), "int8"), rand((2, 1), "int8")),
                 list(np.broadcast_arrays(rand((3,), "int8"), rand((2, 1), "int8"))))


@pytest.mark.parametrize("fun", [
    lambda a: jnp.roll(a, 2, axis=1),
    lambda a: jnp.roll(a, (1, -1), (0, 1)),
    lambda a: jnp.tile(a, (2, 1)),
    lambda a: jnp.flip(a, 0),
    lambda a: jnp.rot90(a),
    lambda a: jnp.diagonal(a, 1),
    lambda a: jnp.concatenate([a, a * 2], axis=1),
    lambda a: jnp.stack([a, a], 1),
    lambda a: jnp.block([[a], [a]]),
    lambda a: jnp.resize(a, (4, 4)),
    lambda a: jnp.reshape(a, (3, 2), order="F"),
    lambda a: jnp.broadcast_to(a[0], (2, 2, 3)),
    lambda a: jnp.split(a, 3, axis=1)[1],
    lambda a: jnp.moveaxis(a, 0, 1),
    lambda a: jnp.append(a, a),
    lambda a: jnp.repeat(a, 2, axis=1),
    lambda a: jnp.delete(a, np.array([0, 2]), axis=1),
    lambda a: jnp.delete(a, slice(1, None), axis=1, assume_unique_indices=True),
    lambda a: jnp.insert(a, np.array([1, 0]), a[:, :2] * 3, axis=1),
    lambda a: jnp.repeat(a, np.array([1, 0, 2]), axis=1),
    lambda a: jnp.pad(a, ((1, 2), (3, 0))),
    lambda a: jnp.pad(a, 2, mode="reflect", reflect_type="odd"),
    lambda a: jnp.pad(a, 2, mode="symmetric"),
    lambda a: jnp.pad(a, (1, 3), mode="wrap"),
    lambda a: jnp.pad(a, 2, mode="edge"),
    lambda a: jnp.pad(a, 2, mode="mean"),
    lambda a: jnp.pad(a, 2, mode="linear_ramp", end_values=1.0),
], ids=lambda f: "")
def test_gradients(fun):
    check_grads(fun, (rand((2, 3), "float32", seed=5).astype(np.float64),), order=2, modes=("fwd", "rev"))


def test_pad_traced_constant_under_vmap():
    x, c = rand((2, 3), "float32"), np.array([1.0, -2.0], np.float32)
    out = jaxle_core.vmap(lambda a, v: jnp.pad(a, (1, 2), constant_values=v))(x, c)
    _assert_same(out, np.stack([np.pad(x[i], (1, 2), constant_values=c[i]) for i in range(2)]))


def test_traced_roll_gradient():
    check_grads(lambda a: jaxle_core.jit(lambda b, s: jnp.roll(b, s, axis=0))(a, 1), (np.arange(4.0),), order=1)


def test_errors():
    x = rand((2, 3), "float32")
    with pytest.raises(TypeError, match="repeat requires ndarray|reshape requires ndarray"):
        jnp.reshape([1, 2], (2,))
    with pytest.raises(ValueError, match="array split does not result in an equal division: rest is 1"):
        jnp.split(x, 2, axis=1)
    with pytest.raises(jaxle_core.errors.ConcretizationTypeError):
        jaxle_core.jit(jnp.trim_zeros)(x[0])
    with pytest.raises(ValueError, match="Non-hashable static arguments"):
        jnp.resize(x, [3, 3])


SIGNATURES = jnp_golden.load("manipulation_signatures.json")


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_signature_is_jax(name):
    assert make_jnp_reduction_signatures_golden.signatures(jnp, [name])[name] == SIGNATURES[name]
