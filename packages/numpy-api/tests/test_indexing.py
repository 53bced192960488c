"""jnp indexing and ``.at[]`` updates: JAX's goldens (jaxprs, values, errors) and a sweep of index forms against
NumPy, on concrete arrays, under jit and under vmap; gradients of gathers and scatters."""

import itertools

import jnp_golden
import make_index_sweep_golden
import make_indexing_golden
import make_indexing_x64_golden
import numpy as np
import pytest

import jaxle_core
import jaxle_numpy  # noqa: F401 - installs the indexing
from jaxle_core.backend import current_backend
from jaxle_core.errors import NonConcreteBooleanIndexError
from jaxle_core.test_util import check_grads

GOLDEN = jnp_golden.load("indexing_golden.json")


@pytest.mark.filterwarnings("ignore:scatter inputs have incompatible types")
@pytest.mark.parametrize("name", sorted(make_indexing_golden.CASES))
def test_golden(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_indexing_golden.CASES[name])
    # Array and tracer reprs differ from JAX's in the slice-entry messages; their type is checked
    jnp_golden.assert_case_matches(actual, GOLDEN[name], check_message=name not in ("traced_slice",
                                                                                   "array_slice_entry"))


def _array(x):
    return current_backend().device_put(np.asarray(x))


X = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
INT_ITEMS = [0, -1, 2, np.int32(1)]
SLICE_ITEMS = [slice(None), slice(1, None), slice(None, None, 2), slice(None, None, -1), slice(3, 0, -2),
               slice(-2, None), slice(5, 1)]
ARRAY_ITEMS = [np.array([0, -1]), np.array([[1], [0]]), [0, 2, 1]]
ALL_ITEMS = INT_ITEMS[:2] + SLICE_ITEMS[:4] + ARRAY_ITEMS + [None, Ellipsis]


def _sweep():
    rng = np.random.default_rng(0)
    cases = set()
    for length in (1, 2, 3):
        for combo in itertools.product(range(len(ALL_ITEMS)), repeat=length):
            if rng.random() < 0.25:
                cases.add(combo)
    return sorted(cases)


def _build(combo):
    return tuple(ALL_ITEMS[k] for k in combo)


@pytest.mark.parametrize("combo", _sweep())
def test_index_sweep_against_numpy(combo):
    index = _build(combo)
    try:
        expected = X[tuple(np.asarray(i) if isinstance(i, list) else i for i in index)]
    except IndexError:  # JAX says ValueError where index arrays do not broadcast together
        with pytest.raises((IndexError, ValueError)):
            _array(X)[index]
        return
    np.testing.assert_array_equal(np.asarray(_array(X)[index]), expected)
    np.testing.assert_array_equal(np.asarray(jaxle_core.jit(lambda x: x[index])(X)), expected)


@pytest.mark.parametrize("index", [(slice(None), 1, slice(None, None, -1)), (np.array([2, 0]), slice(1, 3)),
                                   (Ellipsis, np.array([True, False, True, True, False])),
                                   (np.array([[True, False, True, True]] * 3),), (0, None, np.array([1, 3]))])
@pytest.mark.parametrize("kind", ["set", "add", "multiply", "min", "max"])
def test_at_updates_against_numpy(index, kind):
    expected = X.copy()
    target = expected[index]
    values = np.arange(target.size, dtype=np.float32).reshape(target.shape) - 3
    numpy_fn = {"set": lambda a, v: v, "add": np.add, "multiply": np.multiply, "min": np.minimum,
                "max": np.maximum}[kind]
    expected[index] = numpy_fn(target, values)
    got = getattr(_array(X).at[index], kind)(values)
    np.testing.assert_array_equal(np.asarray(got), expected)


def test_at_add_accumulates_repeated_indices():
    x = np.zeros(4, np.float32)
    got = _array(x).at[np.array([1, 1, 3, 1])].add(np.array([1.0, 2.0, 3.0, 4.0], np.float32))
    expected = x.copy()
    np.add.at(expected, [1, 1, 3, 1], [1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(np.asarray(got), expected)


def test_out_of_bounds_gathers_clamp_and_scatters_drop():
    x = np.arange(5.0, dtype=np.float32)
    np.testing.assert_array_equal(np.asarray(_array(x)[np.array([7, -9])]), [4.0, 0.0])
    np.testing.assert_array_equal(np.asarray(_array(x).at[np.array([7])].set(1.0)), x)
    np.testing.assert_array_equal(np.asarray(_array(x).at[np.array([-7])].set(1.0)), x)
    filled = _array(x).at[np.array([0, 7])].get(mode="fill", fill_value=-1.0)
    np.testing.assert_array_equal(np.asarray(filled), [0.0, -1.0])


def test_traced_scalar_index_under_jit_and_vmap():
    x = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    for i in range(-3, 3):
        np.testing.assert_array_equal(np.asarray(jaxle_core.jit(lambda x, i: x[i, 1:])(x, i)), x[i, 1:])
    got = jaxle_core.vmap(lambda row, i: row[i])(x, np.array([0, 3, -1]))
    np.testing.assert_array_equal(np.asarray(got), [x[0, 0], x[1, 3], x[2, -1]])


def test_boolean_mask_must_be_concrete_under_jit():
    with pytest.raises(NonConcreteBooleanIndexError, match="Array boolean indices must be concrete; got bool\\[3\\]"):
        jaxle_core.jit(lambda x: x[x > 1])(np.arange(3.0))


def test_setitem_refused():
    with pytest.raises(TypeError):
        _array(X)[0] = 1.0


def test_at_reprs():
    x = _array(np.ones(2, np.float32))
    assert repr(x.at) == f"_IndexUpdateHelper({x!r})"
    assert repr(x.at[0]) == f"_IndexUpdateRef({x!r}, 0)"


@pytest.mark.parametrize("fn", [
    lambda x: x[np.array([0, 0, 2]), 1:],
    lambda x: x[::-1, 1],
    lambda x: x[1],
    lambda x: x.at[np.array([0, 0])].add(x[1] * 2.0),
    lambda x: x.at[1:, ::2].set(x[:2, 1::2] ** 2),
    lambda x: x.at[0].multiply(x[2]),
    lambda x: x.at[np.array([1, 2])].min(np.zeros(3, np.float32)),
])
def test_gradients(fn):
    x = np.array([[0.3, -1.2, 2.0], [1.5, 0.25, -0.7], [0.9, 1.1, -2.2]], np.float32)
    # adding zero makes check_grads' NumPy points arrays, which have `.at`
    check_grads(lambda v: fn(jaxle_core.lax.add(v, np.float32(0))), (x,), order=2,
                modes=("fwd", "rev"))


GOLDEN_X64 = jnp_golden.load("indexing_x64_golden.json")


@pytest.mark.filterwarnings("ignore:scatter inputs have incompatible types")
@pytest.mark.parametrize("name", sorted(make_indexing_x64_golden.CASES))
def test_golden_x64(name):
    with jaxle_core.config.enable_x64(True):
        actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_indexing_x64_golden.CASES[name])
    jnp_golden.assert_case_matches(actual, GOLDEN_X64[name])


@pytest.mark.parametrize("combo", _sweep()[::3])
def test_at_add_sweep_against_numpy(combo):
    """x.at[index].add(values) against np.add.at (repeated indices accumulate in both)."""
    index = tuple(np.asarray(i) if isinstance(i, list) else i for i in _build(combo))
    try:
        expected = X.copy()
        values = np.arange(np.size(X[index]), dtype=np.float32).reshape(np.shape(X[index])) + 1
        np.add.at(expected, index, values)
    except (IndexError, ValueError, TypeError):
        return  # NumPy refuses the index (jnp's refusals are checked by the getitem sweep)
    np.testing.assert_array_equal(np.asarray(_array(X).at[index].add(values)), expected)
    np.testing.assert_array_equal(np.asarray(jaxle_core.jit(lambda x, v: x.at[index].add(v))(X, values)), expected)


DTYPES = ["bool", "int8", "uint8", "int32", "uint32", "float16", "bfloat16", "float32", "complex64"]


@pytest.mark.parametrize("dtype", DTYPES)
def test_dtypes_against_numpy(dtype):
    x = jnp_golden.rand((3, 4), dtype, 3)
    index = (np.array([2, 0, 2]), slice(None, None, -2))
    got = _array(x)[index]
    assert got.dtype == x.dtype
    np.testing.assert_array_equal(np.asarray(got), x[index])
    values = jnp_golden.rand(x[index].shape, dtype, 4)
    for kind, combine in [("set", None), ("add", np.add), ("min", np.minimum), ("max", np.maximum)]:
        if dtype == "bool" and kind == "add":
            with pytest.raises(TypeError, match="add does not accept dtype bool"):  # as in JAX
                _array(x).at[index].add(values)
            continue
        expected = x.copy()
        if combine is None:
            expected[np.array([0, 2])[:, None], np.array([3, 1])] = values[1:]
        else:  # the columns ::-2 selects are 3 and 1
            combine.at(expected, (np.array([2, 0, 2])[:, None], np.array([3, 1])), values)
        updates = values[1:] if kind == "set" else values
        idx = (np.array([0, 2]), slice(None, None, -2)) if kind == "set" else index
        got = getattr(_array(x).at[idx], kind)(updates)
        assert got.dtype == x.dtype
        wide = np.complex128 if dtype == "complex64" else np.float64  # (complex minimum/maximum: lexicographic)
        np.testing.assert_array_equal(np.asarray(got).astype(wide), expected.astype(wide))


GOLDEN_SWEEP = jnp_golden.load("index_sweep_golden.json")


@pytest.mark.parametrize("name", sorted(make_index_sweep_golden.CASES))
def test_golden_sweep(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_index_sweep_golden.CASES[name])
    jnp_golden.assert_case_matches(actual, GOLDEN_SWEEP[name])


def test_scatter_warnings_as_jax():
    with pytest.warns(FutureWarning, match="scatter inputs have incompatible types"):
        with pytest.warns(np.exceptions.ComplexWarning, match="discards the imaginary part"):
            got = _array(np.ones(3, np.float32)).at[1].set(2 + 1j)
    np.testing.assert_array_equal(np.asarray(got), [1.0, 2.0, 1.0])


def test_concrete_integer_arrays_as_slice_entries():
    # Eagerly, an integer scalar array is its integer (JAX's behaviour); a traced one or a float one is refused.
    x = jaxle_numpy.arange(20.0)
    np.testing.assert_array_equal(x[jaxle_numpy.array(2):jaxle_numpy.int32(5)], [2.0, 3.0, 4.0])
    with pytest.raises(TypeError, match="Only integer scalar arrays can be converted to a scalar index."):
        x[:jaxle_numpy.array(1.5)]
    with pytest.raises(IndexError, match="Slice entries must be static integers"):
        jaxle_core.jit(lambda n: x[:n])(3)
