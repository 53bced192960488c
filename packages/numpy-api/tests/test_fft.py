"""jnp.fft: JAX's goldens (jaxprs, values, weak types, errors), NumPy's numpy.fft over dtypes, shapes, n/s, axes and
norms, jit and vmap, x64, and gradients checked numerically."""

import jnp_golden
import make_jnp_fft_golden
import make_jnp_fft_x64_golden
import numpy as np
import pytest

import jaxle_core
import jaxle_numpy as jnp
from jaxle_core.test_util import check_grads

GOLDEN = jnp_golden.load("jnp_fft_golden.json")
X64_GOLDEN = jnp_golden.load("jnp_fft_x64_golden.json")


@pytest.mark.parametrize("name", sorted(make_jnp_fft_golden.CASES))
def test_golden(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_jnp_fft_golden.CASES[name])
    # JAX raises ValueError from deep inside its transform for s longer than the array's rank; jaxle's ValueError
    # names the out-of-bounds axis instead (docs/numpy.md lists the difference).
    jnp_golden.assert_case_matches(actual, GOLDEN[name], check_message=name != "fftn_s_longer_than_ndim")


def _assert_close(got, expected, dtype=np.complex64):
    tolerance = 1e-5 if np.dtype(dtype) in (np.complex64, np.float32) else 1e-12
    np.testing.assert_allclose(np.asarray(got), expected, rtol=tolerance, atol=tolerance * 10)


ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
N_D = ["fftn", "ifftn", "rfftn", "irfftn"]
REAL_INPUT = {"rfft", "ihfft", "rfftn", "rfft2"}
NORMS = [None, "backward", "ortho", "forward"]


@pytest.mark.parametrize("name", ONE_D)
@pytest.mark.parametrize("n, axis", [(None, -1), (None, 0), (3, 1), (7, -1), (1, 0)])
@pytest.mark.parametrize("norm", NORMS)
def test_one_dimensional_matches_numpy(name, n, axis, norm):
    x = jnp_golden.rand((3, 4, 5), "float32" if name in REAL_INPUT else "complex64", seed=2)
    got = getattr(jnp.fft, name)(x, n=n, axis=axis, norm=norm)
    expected = getattr(np.fft, name)(x, n=n, axis=axis, norm=norm)
    assert got.dtype == (np.float32 if name in ("irfft", "hfft") else np.complex64)
    _assert_close(got, expected)


@pytest.mark.parametrize("name", N_D)
@pytest.mark.parametrize("s, axes", [(None, None), (None, (0, 2)), (None, (2, 0)), ((3, 2), None),
                                     ((2, 5), (1, 0)), (None, (-1,)), ((2, 2, 3, 4), (3, 1, 0, 2)),
                                     (None, (0, 1, 2, 3, 4))])
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
def test_n_dimensional_matches_numpy(name, s, axes, norm):
    x = jnp_golden.rand((2, 3, 4, 2, 3), "float32" if name in REAL_INPUT else "complex64", seed=3)
    got = getattr(jnp.fft, name)(x, s=s, axes=axes, norm=norm)
    numpy_axes = tuple(range(-len(s), 0)) if axes is None and s is not None else axes  # NumPy 2 deprecates None
    _assert_close(got, getattr(np.fft, name)(x, s=s, axes=numpy_axes, norm=norm))


@pytest.mark.parametrize("name", ["fft2", "ifft2", "rfft2", "irfft2"])
@pytest.mark.parametrize("s, axes", [(None, (-2, -1)), ((3, 5), (0, 2)), (None, (2, 1))])
def test_two_dimensional_matches_numpy(name, s, axes):
    x = jnp_golden.rand((3, 4, 6), "float32" if name in REAL_INPUT else "complex64", seed=4)
    _assert_close(getattr(jnp.fft, name)(x, s=s, axes=axes), getattr(np.fft, name)(x, s=s, axes=axes))


@pytest.mark.parametrize("dtype, result", [("bool", np.complex64), ("int8", np.complex64), ("uint8", np.complex64),
                                           ("int32", np.complex64), ("float16", np.complex64),
                                           ("bfloat16", np.complex64), ("float32", np.complex64),
                                           ("complex64", np.complex64)])
def test_input_dtypes(dtype, result):
    x = jnp_golden.rand((3, 4), dtype, seed=5)
    got = jnp.fft.fft(x)
    assert got.dtype == result and not got.weak_type
    _assert_close(got, np.fft.fft(np.asarray(x, np.complex64)))
    real = jnp.fft.irfft(x)
    assert real.dtype == np.float32
    _assert_close(real, np.fft.irfft(np.asarray(x, np.complex64)))


def test_edge_values_and_empty_arrays():
    x = np.array([1.0, np.inf, 0.0, -0.0], np.float32)
    np.testing.assert_array_equal(np.isnan(np.asarray(jnp.fft.fft(x))), np.isnan(np.fft.fft(x)))
    assert np.isnan(np.asarray(jnp.fft.rfft(np.array([np.nan, 1.0], np.float32)))).all()
    assert jnp.fft.fft(np.zeros((0, 3), np.float32)).shape == (0, 3)
    assert jnp.fft.irfft(np.zeros((2, 1), np.complex64)).shape == (2, 0)
    assert jnp.fft.fftn(np.float32(2.0)).dtype == np.complex64


def test_x64_dtypes():
    with jaxle_core.config.enable_x64(True):
        x = jnp_golden.rand((4, 6), "float64", seed=6)
        got = jnp.fft.rfftn(x, norm="ortho")
        assert got.dtype == np.complex128
        _assert_close(got, np.fft.rfftn(x, norm="ortho"), np.complex128)
        back = jnp.fft.irfftn(got, s=x.shape, norm="ortho")
        assert back.dtype == np.float64
        _assert_close(back, x, np.float64)
        assert jnp.fft.fft(np.ones(3, np.int32)).dtype == np.complex64  # lax.fft's int32 -> complex64, as JAX's
        assert jnp.fft.fft(np.ones(3, np.int64)).dtype == np.complex128
        assert jnp.fft.fftfreq(4).dtype == np.float64
        _assert_close(jnp.fft.fftfreq(7, 0.3), np.fft.fftfreq(7, 0.3), np.float64)


@pytest.mark.parametrize("name", ONE_D + N_D)
def test_under_jit_and_vmap(name):
    x = jnp_golden.rand((3, 4, 6), "float32" if name in REAL_INPUT else "complex64", seed=7)
    fn = getattr(jnp.fft, name)
    expected = getattr(np.fft, name)
    _assert_close(jaxle_core.jit(fn, static_argnames="norm")(x, norm="ortho"), expected(x, norm="ortho"))
    axis = 0 if name in ONE_D else (0,)
    batched = jaxle_core.vmap(lambda v: fn(v, None, axis), in_axes=1, out_axes=1)(x)
    _assert_close(batched, np.stack([expected(x[:, i], None, axis) for i in range(4)], axis=1))


@pytest.mark.parametrize("name, dtype", [("fft", "complex128"), ("ifft", "complex128"), ("rfft", "float64"),
                                         ("irfft", "complex128"), ("hfft", "complex128"), ("ihfft", "float64"),
                                         ("fftn", "float64"), ("irfftn", "complex128")])
@pytest.mark.parametrize("norm", [None, "ortho"])
def test_gradients(name, dtype, norm):
    with jaxle_core.config.enable_x64(True):
        x = jnp_golden.rand((3, 4), dtype, seed=8)
        if name.endswith("n"):
            fn = lambda v: getattr(jnp.fft, name)(v, s=(2, 5), norm=norm)  # noqa: E731
        else:
            fn = lambda v: getattr(jnp.fft, name)(v, n=5, axis=0, norm=norm)  # noqa: E731
        check_grads(fn, (x,), order=2, modes=("fwd", "rev"))


@pytest.mark.parametrize("n", [1, 2, 5, 8])
@pytest.mark.parametrize("d", [1.0, 0.25, 3])
def test_frequencies_match_numpy(n, d):
    for name in ("fftfreq", "rfftfreq"):
        got = getattr(jnp.fft, name)(n, d)
        assert got.dtype == np.float32
        np.testing.assert_allclose(np.asarray(got), getattr(np.fft, name)(n, d), rtol=1e-6)


def test_frequencies_of_no_points():
    """NumPy divides by zero; JAX's fftfreq(0) is empty and rfftfreq(0) one NaN (0 / 0)."""
    assert jnp.fft.fftfreq(0).shape == (0,)
    assert np.isnan(np.asarray(jnp.fft.rfftfreq(0))).tolist() == [True]


@pytest.mark.parametrize("shape, axes", [((5,), None), ((4, 5), None), ((4, 5), 0), ((3, 4, 5), (2, 0)),
                                         ((3, 4, 5), -1), ((0, 2), None)])
def test_shifts_match_numpy(shape, axes):
    x = jnp_golden.rand(shape, "int32", seed=9)
    np.testing.assert_array_equal(np.asarray(jnp.fft.fftshift(x, axes)), np.fft.fftshift(x, axes))
    np.testing.assert_array_equal(np.asarray(jnp.fft.ifftshift(x, axes)), np.fft.ifftshift(x, axes))
    np.testing.assert_array_equal(np.asarray(jnp.fft.ifftshift(jnp.fft.fftshift(x, axes), axes)), x)


def test_shift_of_a_scalar_is_itself():
    assert float(jnp.fft.fftshift(np.float32(2.5))) == 2.5 and jnp.fft.ifftshift(1.0).weak_type


def test_round_trips():
    x = jnp_golden.rand((4, 6), "float32", seed=10)
    _assert_close(jnp.fft.irfft(jnp.fft.rfft(x), n=6), x)
    _assert_close(jnp.fft.ifftn(jnp.fft.fftn(x)), x)
    _assert_close(jnp.fft.ihfft(jnp.fft.hfft(x, n=10), n=10), x[:, :6].astype(np.complex64))


@pytest.mark.parametrize("name", sorted(make_jnp_fft_x64_golden.CASES))
def test_golden_with_x64(name):
    with jaxle_core.config.enable_x64(True):
        actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_jnp_fft_x64_golden.CASES[name])
    jnp_golden.assert_case_matches(actual, X64_GOLDEN[name])
