"""``jaxle.scipy`` imports as ``jax.scipy`` would and its functions run on XLA."""

import numpy as np
import scipy.special

import jaxle as jax
import jaxle.scipy.special


def test_special_runs_on_xla_under_jit():
    x = np.linspace(-3, 3, 12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_allclose(jax.jit(lambda a: jaxle.scipy.special.logsumexp(a, axis=1))(x),
                               scipy.special.logsumexp(x, axis=1), rtol=1e-6)
    np.testing.assert_allclose(jax.scipy.special.softmax(x, axis=0), scipy.special.softmax(x, axis=0), rtol=1e-6)
