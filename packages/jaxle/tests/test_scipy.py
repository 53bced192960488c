"""``jaxle.scipy`` imports as ``jax.scipy`` would and its functions run on XLA."""

import numpy as np
import scipy.cluster.vq
import scipy.fft
import scipy.linalg
import scipy.special
import scipy.stats

import jaxle as jax
import jaxle.scipy.cluster.vq
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


def test_stats_modules_import_by_name_and_run_on_xla():
    import jaxle.scipy.stats.norm as norm  # noqa: PLC0415 - importing the distribution module is what is tested

    import jaxle_numpy.scipy.stats

    assert norm is jaxle_numpy.scipy.stats.norm is jax.scipy.stats.norm
    x = np.linspace(-2, 2, 5, dtype=np.float32)
    np.testing.assert_allclose(jax.jit(norm.logpdf)(x, 0.5, 2.0), scipy.stats.norm.logpdf(x, 0.5, 2.0), rtol=1e-6)
    np.testing.assert_allclose(jax.scipy.stats.gamma.cdf(x + 2, 2.5), scipy.stats.gamma.cdf(x + 2, 2.5), rtol=2e-5)
    np.testing.assert_allclose(jax.scipy.stats.poisson.entropy(np.float32(5.0)), scipy.stats.poisson.entropy(5.0),
                               rtol=2e-5)


def test_linear_algebra_backed_stats_on_xla():
    rng = np.random.default_rng(0)
    factor = rng.normal(size=(3, 3)).astype(np.float32)
    cov, x = factor @ factor.T + np.eye(3, dtype=np.float32), rng.normal(size=(4, 3)).astype(np.float32)
    np.testing.assert_allclose(jax.jit(jax.scipy.stats.multivariate_normal.logpdf)(x, np.zeros(3, np.float32), cov),
                               scipy.stats.multivariate_normal.logpdf(x, np.zeros(3), cov), rtol=2e-5)
    kde = jax.scipy.stats.gaussian_kde(x.T)
    np.testing.assert_allclose(kde.evaluate(x[:2].T), scipy.stats.gaussian_kde(x.T).evaluate(x[:2].T), rtol=2e-5)


def test_series_functions_on_xla():
    x = np.array([0.3, 1.5, 4.0, 12.0], np.float32)
    for name in ("exp1", "expi", "dawsn", "spence"):
        np.testing.assert_allclose(jax.jit(getattr(jax.scipy.special, name))(x), getattr(scipy.special, name)(x),
                                   rtol=2e-5, err_msg=name)
    # positive x: for negative x JAX's power series (and so jaxle's) cancels
    np.testing.assert_allclose(jax.scipy.special.hyp1f1(0.5, 1.5, x), scipy.special.hyp1f1(0.5, 1.5, x), rtol=2e-5)
    np.testing.assert_allclose(jax.scipy.special.wofz(x + 1j), scipy.special.wofz(x + 1j), rtol=2e-5)


def test_gaussian_kde_resample_gives_jax_bits_and_jaxprs():
    import json  # noqa: PLC0415
    import pathlib  # noqa: PLC0415
    import sys  # noqa: PLC0415

    golden = pathlib.Path(__file__).parent / "golden"
    sys.path.insert(0, str(golden))
    import make_kde_resample_golden  # noqa: PLC0415

    assert make_kde_resample_golden.draws(jax) == json.loads((golden / "kde_resample_golden.json").read_text())
    kde = jax.scipy.stats.gaussian_kde(np.array(make_kde_resample_golden.DATA, np.float32))
    sample = jax.jit(lambda k, key: k.resample(key, (4,)))(kde, jax.random.PRNGKey(0))
    np.testing.assert_array_equal(sample, kde.resample(jax.random.PRNGKey(0), (4,)))


def test_linalg_and_the_smaller_submodules_on_xla():
    rng = np.random.default_rng(1)
    a = rng.normal(size=(4, 4)).astype(np.float32)
    spd = a @ a.T + 4 * np.eye(4, dtype=np.float32)
    np.testing.assert_allclose(jax.jit(jax.scipy.linalg.cholesky)(spd), scipy.linalg.cholesky(spd), rtol=1e-4)
    np.testing.assert_allclose(jax.scipy.linalg.lu_factor(a)[0], scipy.linalg.lu_factor(a)[0], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(jax.scipy.linalg.expm(0.3 * a), scipy.linalg.expm(0.3 * a), rtol=1e-4)
    np.testing.assert_allclose(jax.scipy.fft.dct(a), scipy.fft.dct(a), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(jax.scipy.integrate.trapezoid(a), np.trapezoid(a), rtol=1e-5)
    assert (np.asarray(jaxle.scipy.cluster.vq.vq(a, a[:2])[0]) == scipy.cluster.vq.vq(a, a[:2])[0]).all()


def test_signal_optimize_and_solvers_on_xla():
    import scipy.signal  # noqa: PLC0415 - only this test needs it

    rng = np.random.default_rng(2)
    x, k = rng.normal(size=32).astype(np.float32), rng.normal(size=5).astype(np.float32)
    np.testing.assert_allclose(jax.jit(jax.scipy.signal.convolve)(x, k), scipy.signal.convolve(x, k), atol=1e-4)
    np.testing.assert_allclose(jax.scipy.signal.welch(x, nperseg=8)[1], scipy.signal.welch(x, nperseg=8)[1],
                               atol=1e-5)
    minimum = jax.jit(lambda x0: jax.scipy.optimize.minimize(lambda v: jax.numpy.sum((v - 3.0) ** 2), x0,
                                                             method="BFGS").x)(np.zeros(2, np.float32))
    np.testing.assert_allclose(minimum, [3.0, 3.0], atol=1e-4)
    spd = np.array([[4.0, 1.0], [1.0, 3.0]], np.float32)
    np.testing.assert_allclose(jax.scipy.sparse.linalg.cg(spd, np.ones(2, np.float32))[0],
                               np.linalg.solve(spd, np.ones(2)), atol=1e-5)


def test_solve_triangular_broadcasts_batch_dimensions_as_jax():
    import jaxle.scipy.linalg as jsl

    a = np.tril(np.arange(1.0, 10.0).reshape(3, 3)).astype(np.float32) + 3 * np.eye(3, dtype=np.float32)
    stacked = np.stack([a, 2 * a])
    for lhs, rhs in [(a, np.ones((4, 3, 1), np.float32)), (stacked, np.ones(3, np.float32)),
                     (stacked[None], np.ones((4, 1, 3, 2), np.float32))]:
        out = np.asarray(jsl.solve_triangular(lhs, rhs, lower=True))
        batch = np.broadcast_shapes(lhs.shape[:-2], rhs.shape[:-2] if rhs.ndim > 1 else ())
        lhs_b = np.broadcast_to(lhs, batch + lhs.shape[-2:])
        rhs_b = np.broadcast_to(rhs, batch + rhs.shape[-2:]) if rhs.ndim > 1 else np.broadcast_to(rhs, batch + (3,))
        expected = np.stack([scipy.linalg.solve_triangular(m, v, lower=True) for m, v in
                             zip(lhs_b.reshape(-1, 3, 3), rhs_b.reshape(-1, *rhs_b.shape[len(batch):]))])
        np.testing.assert_allclose(out.reshape(expected.shape), expected, rtol=1e-5)
