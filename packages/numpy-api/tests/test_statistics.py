"""jnp statistics (average, cov, corrcoef, histograms, bincount, digitize, diff, ediff1d, gradient, interp,
trapezoid, unwrap): JAX 0.10.2's jaxprs, values and errors (goldens), and NumPy's values, with gradients."""

import jnp_golden
import make_jnp_statistics_golden as GEN
import numpy as np
import pytest

import jaxle_core
import jaxle_numpy as jnp
from jaxle_core.errors import ConcretizationTypeError
from jaxle_core.test_util import check_grads

GOLDEN = jnp_golden.load("jnp_statistics_golden.json")


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), GEN.CASES[name])
    jnp_golden.assert_case_matches(actual, GOLDEN[name])


def _close(got, want, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(np.asarray(got), want, rtol=rtol, atol=atol)


@pytest.mark.parametrize("dtype", ["int8", "int32", "float16", "float32", "complex64", "bool"])
def test_diff_and_ediff1d_match_numpy(dtype):
    x = jnp_golden.rand((3, 5), dtype, seed=51)
    for kwargs in ({}, {"n": 2}, {"axis": 0}, {"n": 3, "axis": 1}):
        want = np.diff(x, **kwargs)
        got = jnp.diff(x, **kwargs)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want) if dtype != "float16" else _close(got, want, 1e-2)
    if dtype not in ("bool", "complex64"):
        _close(jnp.ediff1d(x, to_begin=np.array([0], x.dtype), to_end=np.array([1, 2], x.dtype)),
               np.ediff1d(x, to_begin=np.array([0], x.dtype), to_end=np.array([1, 2], x.dtype)), 1e-2)


def test_diff_prepend_append_match_numpy():
    x = jnp_golden.rand((2, 4), "float32", seed=52)
    _close(jnp.diff(x, prepend=0.5, append=np.ones((2, 2), np.float32)),
           np.diff(x, prepend=0.5, append=np.ones((2, 2), np.float32)))
    with pytest.raises(ValueError, match="diff requires input that is at least one dimensional"):
        jnp.diff(np.float32(1))


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_average_matches_numpy(axis):
    a = jnp_golden.rand((3, 4), "float32", seed=53)
    w = np.abs(jnp_golden.rand((3, 4), "float32", seed=54)) + 0.1
    _close(jnp.average(a, axis=axis), np.average(a, axis=axis))
    avg, total = jnp.average(a, axis=axis, weights=w, returned=True)
    want_avg, want_total = np.average(a, axis=axis, weights=w, returned=True)
    _close(avg, want_avg)
    _close(total, want_total)
    if axis is not None:
        w1 = w[0] if axis == 1 else w[:, 0]
        _close(jnp.average(a, axis=axis, weights=w1), np.average(a, axis=axis, weights=w1))


@pytest.mark.parametrize("axis, weights_shape", [((2, 0), (4, 2)), ((0, 2), (2, 4)), ([1], (3,)), ((-1,), (4,)),
                                                  ([1, -1], (3, 4)), (np.array([0, 1]), (2, 3)), (np.int64(2), (4,))])
def test_average_over_axes_given_as_numpy_does(axis, weights_shape):
    # As JAX 0.10.2's (and NumPy 2's): the axis may be a list, a NumPy array or a tuple, and weights of another
    # shape than the operand's are those of the dimensions it names, in its order
    a = jnp_golden.rand((2, 3, 4), "float32", seed=57)
    w = np.abs(jnp_golden.rand(weights_shape, "float32", seed=58)) + 0.1
    for keepdims in (False, True):
        avg, total = jnp.average(a, axis=axis, weights=w, returned=True, keepdims=keepdims)
        want_avg, want_total = np.average(a, axis=axis, weights=w, returned=True, keepdims=keepdims)
        _close(avg, want_avg)
        _close(total, want_total)
        _close(jnp.average(a, axis=axis, returned=True, keepdims=keepdims)[1],
               np.average(a, axis=axis, returned=True, keepdims=keepdims)[1])


def test_average_axis_errors_are_jaxs():
    a = np.ones((2, 3), np.float32)
    with pytest.raises(ValueError, match=r"repeated axis: \(0, 0\)"):
        jnp.average(a, axis=(0, -2), weights=np.ones((2, 2), np.float32))
    with pytest.raises(ValueError, match="Shape of weights must be consistent with shape of a along specified axis."):
        jnp.average(a, axis=(0, 1), weights=np.ones((3, 2), np.float32))
    with pytest.raises(ConcretizationTypeError, match="The axis argument must be known statically."):
        jaxle_core.jit(lambda a, axis: jnp.average(a, axis))(a, 1)


@pytest.mark.parametrize("kwargs", [{}, {"rowvar": False}, {"bias": True}, {"ddof": 2},
                                    {"fweights": np.array([1, 2, 1, 3, 1])},
                                    {"aweights": np.array([0.5, 1.0, 2.0, 1.0, 0.25])},
                                    {"fweights": np.array([1, 2, 1, 3, 1]),
                                     "aweights": np.array([0.5, 1.0, 2.0, 1.0, 0.25])}])
def test_cov_and_corrcoef_match_numpy(kwargs):
    m = jnp_golden.rand((3, 5), "float32", seed=55)
    if kwargs.get("rowvar") is False:
        m = m.T.copy()
    _close(jnp.cov(m, **kwargs), np.cov(m, **kwargs), rtol=1e-4)
    if set(kwargs) <= {"rowvar"}:
        _close(jnp.corrcoef(m, **kwargs), np.corrcoef(m, **kwargs), rtol=1e-4)
    y = jnp_golden.rand((5,), "float32", seed=56)
    _close(jnp.cov(m[0] if kwargs.get("rowvar") is not False else m[:, 0], y), np.cov(
        m[0] if kwargs.get("rowvar") is not False else m[:, 0], y), rtol=1e-4)


def test_cov_complex_matches_numpy():
    m = jnp_golden.rand((2, 4), "complex64", seed=57)
    _close(jnp.cov(m), np.cov(m), rtol=1e-4)
    _close(jnp.corrcoef(m), np.corrcoef(m), rtol=1e-4)


@pytest.mark.parametrize("varargs, axis", [((), None), ((0.5,), None), ((2.0,), 1), ((), 0),
                                           ((np.array([0.0, 0.5, 1.5, 2.0, 4.0]),), 1)])
def test_gradient_matches_numpy(varargs, axis):
    f = jnp_golden.rand((4, 5), "float32", seed=58)
    got = jnp.gradient(f, *varargs, axis=axis)
    want = np.gradient(f, *varargs, axis=axis)
    for g, w in zip(got if isinstance(got, list) else [got], want if isinstance(want, (list, tuple)) else [want]):
        _close(g, w, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("axis", [-1, 0])
def test_trapezoid_matches_numpy(axis):
    y = jnp_golden.rand((4, 5), "float32", seed=59)
    x = np.sort(jnp_golden.rand((4, 5), "float32", seed=60), axis=axis)
    _close(jnp.trapezoid(y, axis=axis), np.trapezoid(y, axis=axis))
    _close(jnp.trapezoid(y, dx=0.3, axis=axis), np.trapezoid(y, dx=0.3, axis=axis))
    _close(jnp.trapezoid(y, x, axis=axis), np.trapezoid(y, x, axis=axis), rtol=1e-4)
    x1 = np.sort(jnp_golden.rand((y.shape[axis],), "float32", seed=61))
    _close(jnp.trapezoid(y, x1, axis=axis), np.trapezoid(y, x1, axis=axis), rtol=1e-4)


def test_unwrap_matches_numpy():
    p = np.cumsum(jnp_golden.rand((3, 8), "float32", seed=62) * 2.5, axis=1)
    for kwargs in ({}, {"axis": 0}, {"discont": 4.0}, {"period": 5.0}):
        _close(jnp.unwrap(p, **kwargs), np.unwrap(p, **kwargs), rtol=1e-4, atol=1e-4)


def test_digitize_and_bincount_match_numpy():
    x = jnp_golden.rand((3, 4), "float32", seed=63)
    for bins in (np.array([-1.0, 0.0, 0.5, 2.0]), np.array([2.0, 0.5, 0.0, -1.0])):
        for right in (False, True):
            np.testing.assert_array_equal(jnp.digitize(x, bins, right=right), np.digitize(x, bins, right=right))
    ints = np.array([0, 3, 3, 1, 7, 0], np.int32)
    np.testing.assert_array_equal(jnp.bincount(ints), np.bincount(ints))
    np.testing.assert_array_equal(jnp.bincount(ints, minlength=10), np.bincount(ints, minlength=10))
    w = np.arange(6.0, dtype=np.float32)
    _close(jnp.bincount(ints, w, length=8), np.bincount(ints, w, minlength=8))
    np.testing.assert_array_equal(jnp.bincount(ints, length=4), np.bincount(ints)[:4])  # larger values dropped
    with pytest.raises(ConcretizationTypeError, match="Abstract tracer value encountered"):
        jaxle_core.jit(jnp.bincount)(ints)
    with pytest.raises(ValueError, match="digitize: bins must be a 1-dimensional array"):
        jnp.digitize(x, np.ones((2, 2)))


def test_interp_matches_numpy():
    xp = np.array([0.0, 1.0, 2.5, 3.0], np.float32)
    fp = np.array([1.0, -2.0, 0.5, 4.0], np.float32)
    x = np.linspace(-1.0, 4.0, 11).astype(np.float32)
    _close(jnp.interp(x, xp, fp), np.interp(x, xp, fp))
    _close(jnp.interp(x, xp, fp, left=-9.0, right=9.0), np.interp(x, xp, fp, left=-9.0, right=9.0))
    _close(jnp.interp(x, xp, fp, period=3.5), np.interp(x, xp, fp, period=3.5), rtol=1e-4, atol=1e-5)
    extrapolated = jnp.interp(np.array([-1.0, 4.0], np.float32), xp, fp, left="extrapolate", right="extrapolate")
    _close(extrapolated, [4.0, 11.0])


@pytest.mark.parametrize("bins", [3, 5, np.array([-2.0, -0.5, 0.0, 0.7, 2.0])])
def test_histograms_match_numpy(bins):
    a = jnp_golden.rand((20,), "float32", seed=64)
    w = np.abs(jnp_golden.rand((20,), "float32", seed=65))
    for kwargs in ({}, {"weights": w}, {"density": True}, {"range": (-1.0, 1.0)}):
        counts, edges = jnp.histogram(a, bins, **kwargs)
        want_counts, want_edges = np.histogram(a, bins, **kwargs)
        _close(counts, want_counts, rtol=1e-4)
        _close(edges, want_edges)
        _close(jnp.histogram_bin_edges(a, bins, range=kwargs.get("range")),
               np.histogram_bin_edges(a, bins, range=kwargs.get("range")))
    b = jnp_golden.rand((20,), "float32", seed=66)
    counts, x_edges, y_edges = jnp.histogram2d(a, b, bins, weights=w)
    want, want_x, want_y = np.histogram2d(a, b, bins, weights=w)
    _close(counts, want, rtol=1e-4)
    _close(x_edges, want_x)
    _close(y_edges, want_y)
    sample = np.stack([a, b, a * b], axis=1)
    counts, edges = jnp.histogramdd(sample, bins=3, density=True)
    want, want_edges = np.histogramdd(sample, bins=3, density=True)
    _close(counts, want, rtol=1e-4)
    for e, we in zip(edges, want_edges):
        _close(e, we)


def test_gradients():
    x = np.array([0.3, 1.1, 1.9, 3.2])
    with jaxle_core.config.enable_x64(True):
        check_grads(lambda y: jnp.trapezoid(y, x), (np.array([1.0, -2.0, 0.5, 3.0]),), order=2)
        check_grads(lambda m: jnp.cov(m), (np.array([[0.3, 1.1, 1.9], [2.0, -1.0, 0.5]]),), order=2)
        check_grads(lambda v: jnp.interp(v, x, np.array([1.0, -2.0, 0.5, 3.0])), (np.array([0.5, 2.0]),), order=1)
        check_grads(lambda f: jnp.gradient(f, x), (np.array([1.0, -2.0, 0.5, 3.0]),), order=2)
        check_grads(lambda p: jnp.unwrap(p), (np.array([0.0, 3.0, 6.5, 1.0]),), order=1)
        check_grads(lambda w: jnp.average(np.array([1.0, 2.0, 4.0]), weights=w), (np.array([1.0, 2.0, 3.0]),),
                    order=2)


def test_errors():
    with pytest.raises(NotImplementedError, match="The 'edge_order' argument to jnp.gradient is not supported."):
        jnp.gradient(np.ones(3), edge_order=1)
    with pytest.raises(ValueError, match="order must be non-negative but got -2"):
        jnp.diff(np.ones(3), n=-2)
    with pytest.raises(ValueError, match="xp and fp must be one-dimensional arrays of equal size"):
        jnp.interp(np.ones(2), np.arange(3.0), np.ones(2))
    with pytest.raises(NotImplementedError, match="string values for `bins` not implemented."):
        jnp.histogram_bin_edges(np.ones(3), bins="auto")
    with pytest.raises(ValueError, match="m has more than 2 dimensions"):
        jnp.cov(np.ones((2, 2, 2)))


def test_more_errors_as_jax():
    f = np.ones((2, 3), np.float32)
    with pytest.raises(ValueError, match=r"Incompatible shapes for broadcasting: shapes=\[\(2, 3\), \(2, 2, 2\)\]"):
        jnp.cov(f, np.ones((2, 2, 2)))
    with pytest.raises(ValueError, match="Shape of weights must be consistent with shape of a along specified axis."):
        jnp.average(f, axis=(0, 1), weights=np.ones(3))
    with pytest.raises(TypeError, match="Invalid number of spacing arguments 3 for axis=None"):
        jnp.gradient(f, 1.0, 2.0, 3.0)
    with pytest.raises(IndexError):
        jnp.unwrap(f, axis=3)


def test_digitize_with_complex_bins_orders_them_lexicographically():
    # JAX 0.10.2: bins [1+1j, 2] are increasing (real parts first); 1.5 falls in bin 1, 0.5 in bin 0
    bins = np.array([1 + 1j, 2 + 0j], np.complex64)
    np.testing.assert_array_equal(np.asarray(jnp.digitize(np.array([1.5, 0.5], np.float32), bins)), [1, 0])


def test_unwrap_refuses_complex_input():
    with pytest.raises(ValueError, match="jnp.unwrap does not support complex inputs."):
        jnp.unwrap(np.ones(3, np.complex64))


@pytest.mark.parametrize("axis", [3, (0, 3)])
def test_average_axis_out_of_bounds_is_jax_value_error(axis):
    with pytest.raises(ValueError, match="axis 3 is out of bounds for array of dimension 1"):
        jnp.average(np.ones(2, np.float32), axis=axis, returned=True)


def test_gradient_of_a_0d_array_is_an_empty_list():
    assert jnp.gradient(np.float32(1.5)) == []  # as JAX 0.10.2 (no axes to differentiate along)
    assert jnp.gradient(3.0) == []
