"""jax.numpy on the XLA backend: a cross-section of jnp, eagerly and under jit, against NumPy.

jaxle-numpy's own tests run on core's NumPy reference backend; this checks that what jnp stages also compiles and
runs on XLA with the same results (and that eager calls give XLA arrays).
"""

import warnings

import numpy as np
import pytest

import jaxle_core as jc
import jaxle_numpy as jnp
import jaxle_xla

RNG = np.random.default_rng(0)
X = RNG.standard_normal((4, 5)).astype(np.float32)
Y = RNG.standard_normal((5, 3)).astype(np.float32)
I = np.array([3, 0, 2, 2], np.int32)
V = RNG.standard_normal(20).astype(np.float32)
K = RNG.integers(-5, 6, (4, 5)).astype(np.int32)

# name -> (jnp function, NumPy reference, arguments)
CASES = {
    "sin": (jnp.sin, np.sin, (X,)),
    "add-weak-scalar": (lambda x: jnp.add(x, 0.3), lambda x: x + np.float32(0.3), (X,)),
    "where": (lambda x: jnp.where(x > 0, x, 0.0), lambda x: np.where(x > 0, x, np.float32(0)), (X,)),
    "clip": (lambda x: jnp.clip(x, -0.5, 0.5), lambda x: np.clip(x, -0.5, 0.5), (X,)),
    "floor_divide-int": (lambda k: k // 3, lambda k: k // 3, (K,)),
    "sum-axis": (lambda x: jnp.sum(x, axis=1), lambda x: np.sum(x, axis=1), (X,)),
    "mean-keepdims": (lambda x: jnp.mean(x, axis=0, keepdims=True), lambda x: np.mean(x, 0, keepdims=True), (X,)),
    "var-ddof": (lambda x: jnp.var(x, ddof=1), lambda x: np.var(x, ddof=1), (X,)),
    "argmax": (lambda x: jnp.argmax(x, axis=1), lambda x: np.argmax(x, axis=1).astype(np.int32), (X,)),
    "median": (lambda v: jnp.median(v), np.median, (V,)),
    "cumsum": (lambda x: jnp.cumsum(x, axis=1), lambda x: np.cumsum(x, axis=1), (X,)),
    "gather": (lambda x, i: x[i, 1:], lambda x, i: x[i, 1:], (X, I)),
    "boolean-mask": (lambda x: x[x > 0], lambda x: x[x > 0], (X,)),
    "at-add": (lambda x, i: x.at[i].add(1.0), lambda x, i: _np_add_at(x, i, 1.0), (X, I)),
    "take_along_axis": (lambda x: jnp.take_along_axis(x, jnp.argsort(x, axis=1), axis=1),
                        lambda x: np.sort(x, axis=1), (X,)),
    "sort": (jnp.sort, np.sort, (V,)),
    "searchsorted": (lambda v: jnp.searchsorted(jnp.sort(v), v[:5]),
                     lambda v: np.searchsorted(np.sort(v), v[:5]).astype(np.int32), (V,)),
    "unique-size": (lambda k: jnp.unique(k, size=11, fill_value=0), lambda k: np.unique(k), (K,)),
    "matmul": (jnp.matmul, np.matmul, (X, Y)),
    "einsum": (lambda x, y: jnp.einsum("ij,jk->ki", x, y), lambda x, y: np.einsum("ij,jk->ki", x, y), (X, Y)),
    "concatenate": (lambda x: jnp.concatenate([x, x[:1]]), lambda x: np.concatenate([x, x[:1]]), (X,)),
    "pad-reflect": (lambda x: jnp.pad(x, 2, mode="reflect"), lambda x: np.pad(x, 2, mode="reflect"), (X,)),
    "roll": (lambda x: jnp.roll(x, 2, axis=1), lambda x: np.roll(x, 2, axis=1), (X,)),
    "linspace": (lambda: jnp.linspace(0.0, 1.0, 7), lambda: np.linspace(0.0, 1.0, 7, dtype=np.float32), ()),
    "arange-reshape": (lambda: jnp.arange(12).reshape(3, 4), lambda: np.arange(12, dtype=np.int32).reshape(3, 4),
                       ()),
    "fft-axis0-pad-ortho": (lambda x: jnp.fft.fft(x, n=6, axis=0, norm="ortho"),
                            lambda x: np.fft.fft(x, n=6, axis=0, norm="ortho").astype(np.complex64), (X,)),
    "rfft-irfft": (lambda x: jnp.fft.irfft(jnp.fft.rfft(x), n=5), lambda x: x, (X,)),
    "fftn-four-axes": (lambda v: jnp.fft.ifftn(v.reshape(1, 2, 5, 2), axes=(2, 0, 3, 1)),
                       lambda v: np.fft.ifftn(v.reshape(1, 2, 5, 2), axes=(2, 0, 3, 1)).astype(np.complex64), (V,)),
    "irfftn-crop": (lambda x: jnp.fft.irfftn(x, s=(3, 4)), lambda x: np.fft.irfftn(x, s=(3, 4), axes=(0, 1)).astype(
        np.float32), (X,)),
    "irfft-no-points": (lambda x: jnp.fft.irfft(x[:, :0]), lambda x: np.zeros((4, 0), np.float32), (X,)),
    "fftfreq-fftshift": (lambda: jnp.fft.fftshift(jnp.fft.fftfreq(7, 0.5)),
                         lambda: np.fft.fftshift(np.fft.fftfreq(7, 0.5)).astype(np.float32), ()),
}


def _np_add_at(x, i, value):
    out = x.copy()
    np.add.at(out, i, value)
    return out


@pytest.mark.parametrize("name", sorted(CASES))
def test_jnp_runs_on_xla(name):
    fun, reference, args = CASES[name]
    expected = np.asarray(reference(*args))
    device_args = [jaxle_xla.device_put(a) for a in args]
    eager = fun(*device_args)
    assert isinstance(eager, jaxle_xla.XlaArray)
    outputs = [eager]
    if name != "boolean-mask":  # a boolean mask's result shape depends on values: eager only, as in JAX
        outputs.append(jc.jit(fun)(*args))
    for out in outputs:
        out = np.asarray(out)
        if name == "unique-size":
            out = out[:len(expected)]
        assert out.dtype == expected.dtype, (out.dtype, expected.dtype)
        np.testing.assert_allclose(out, expected, rtol=2e-5, atol=1e-6)


def test_grad_and_vmap_of_jnp_on_xla():
    def loss(w, x):
        return jnp.mean(jnp.tanh(x @ w) ** 2)

    w = RNG.standard_normal((5, 3)).astype(np.float32)
    grad = jc.jit(jc.grad(loss))(w, X)
    h = np.tanh(X @ w)
    expected = X.T @ (2 * h * (1 - h ** 2)) / h.size
    np.testing.assert_allclose(np.asarray(grad), expected, rtol=1e-4, atol=1e-6)
    rows = jc.vmap(lambda row, i: row.at[i].set(0.0))(X, I)
    expected = X.copy()
    expected[np.arange(4), I] = 0.0
    np.testing.assert_array_equal(np.asarray(rows), expected)


def test_eager_ufuncs_compile_once_per_signature():
    """Eager elementwise calls on arrays and Python scalars run one program compiled per operand signature (as
    JAX's jitted ufuncs); an int too large for int32 takes the eager promotion path, which narrows it as before."""
    from jaxle_xla.executable import Executable

    x = jaxle_xla.device_put(X)
    k = jaxle_xla.device_put(K.astype(np.int8))
    np.testing.assert_allclose(np.asarray(x * 0.3), X * np.float32(0.3), rtol=1e-6)
    before = Executable.compile_count
    for scale in (0.5, 2.0):
        np.testing.assert_allclose(np.asarray(jnp.multiply(x, scale)), X * np.float32(scale), rtol=1e-6)
        np.testing.assert_array_equal(np.asarray(jnp.less(x, scale)), X < scale)
    assert Executable.compile_count - before == 1  # less; multiply's signature was compiled by x * 0.3
    np.testing.assert_array_equal(np.asarray(k + 300), (K + 300).astype(np.int8))
    # as JAX 0.10.2's jitted add: a Python int beyond int32 is refused as its argument
    with pytest.raises(OverflowError, match="whose argument path is y. Got <class 'int'> with value 1099511627776"):
        k + 2**40


def test_eager_reductions_take_static_arguments_by_position_or_keyword():
    from jaxle_xla.executable import Executable

    x = jaxle_xla.device_put(X)
    np.testing.assert_allclose(np.asarray(jnp.sum(x, axis=1)), X.sum(axis=1), rtol=1e-6)
    before = Executable.compile_count
    for out in (jnp.sum(x, 1), x.sum(axis=1), jnp.sum(x, axis=1, keepdims=False, where=None)):
        np.testing.assert_allclose(np.asarray(out), X.sum(axis=1), rtol=1e-6)
    assert Executable.compile_count == before  # one compiled signature serves every spelling
    # a requested dtype is static, as in JAX 0.10.2: checked (and warned about) when the call is compiled, the
    # cached calls after it are silent (an operand shape of this test's own, compiled here first)
    fresh = jaxle_xla.device_put(np.ones((5, 11), np.float32))
    with pytest.warns(UserWarning, match="Explicitly requested dtype float64 requested in sum"):
        jnp.sum(fresh, dtype=np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        jnp.sum(fresh, dtype=np.float64)
    assert int(jnp.argmax(x)) == int(np.argmax(X))
    np.testing.assert_allclose(np.asarray(x @ jaxle_xla.device_put(Y)), X @ Y, rtol=1e-5)
