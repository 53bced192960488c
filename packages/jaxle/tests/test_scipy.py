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


def test_special_functions_on_xla_agree_with_scipy():
    x = np.linspace(0.05, 0.95, 7, dtype=np.float32)
    for name in ("erf", "erfinv", "ndtr", "ndtri", "log_ndtr", "gammaln", "digamma", "logit", "expit", "entr", "i1"):
        np.testing.assert_allclose(getattr(jax.scipy.special, name)(x), getattr(scipy.special, name)(x), rtol=2e-5,
                                   err_msg=name)
    for name in ("gammainc", "betaln", "xlogy", "zeta", "poch"):
        np.testing.assert_allclose(getattr(jax.scipy.special, name)(x + 1, x), getattr(scipy.special, name)(x + 1, x),
                                   rtol=2e-5, err_msg=name)
