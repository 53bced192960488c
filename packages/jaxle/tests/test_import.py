"""The meta-package imports as ``jax`` would and runs on XLA."""

import numpy as np

import jaxle as jax
import jaxle.numpy as jnp


def test_jit_of_jnp_runs_on_xla():
    x = np.arange(4.0, dtype=np.float32)
    result = jax.jit(lambda v: jnp.sin(v) * 2)(x)
    np.testing.assert_allclose(np.asarray(result), np.sin(x) * 2, rtol=1e-6)
    assert jax.default_backend() == "cpu"


def test_random_and_grad_through_the_namespace():
    key = jax.random.PRNGKey(0)
    np.testing.assert_allclose(np.asarray(jax.random.normal(key, (3,))),
                               [1.6226422, 2.0252647, -0.43359444], rtol=1e-6)
    assert float(jax.grad(lambda v: jnp.sum(v ** 2))(np.float32(3.0))) == 6.0


def test_numpy_submodules_import_by_name():
    import jaxle.numpy.fft
    import jaxle.numpy.linalg

    assert jnp.linalg is jaxle.numpy.linalg and jnp.fft is jaxle.numpy.fft
    x = np.array([[3.0, 0.0], [0.0, 4.0]], np.float32)
    assert float(jnp.linalg.norm(x)) == 5.0
    np.testing.assert_allclose(np.asarray(jnp.fft.fft(np.ones(4, np.float32))), [4, 0, 0, 0])
