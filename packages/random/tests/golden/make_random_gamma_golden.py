"""Golden values of jax.random's gamma family (gamma, loggamma, beta, dirichlet, chisquare, f, t).

Run with JAX's venv: ``/work/jaxpeer/bin/python make_random_gamma_golden.py jax`` writes random_gamma_golden.json.
Cases are built as in make_random_golden.py (``build(ns)`` returning an array or raising) and share its
encoding; the namespace adds ``grad``.
"""

from __future__ import annotations

import importlib
import importlib.util
import pathlib
import sys

import numpy as np

_HERE = pathlib.Path(__file__).parent
_spec = importlib.util.spec_from_file_location("make_random_golden", _HERE / "make_random_golden.py")
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)

GOLDEN = _HERE / "random_gamma_golden.json"


def namespace(which: str):
    """make_random_golden's namespace, with ``grad`` of JAX or of jaxle_core."""
    ns = base.namespace(which)
    ns.grad = importlib.import_module("jax" if which == "jax" else "jaxle_core").grad
    return ns


ALPHAS = np.array([0.01, 0.3, 1.0, 2.5, 40.0], np.float32)


def _cases() -> dict:
    cases = {}

    def case(name, build, x64=False):
        cases[name] = (build, x64)

    def key(ns, seed=0):
        return ns.random.PRNGKey(seed)

    for dtype in base.FLOATS:
        case(f"gamma_{dtype}", lambda ns, d=dtype: ns.random.gamma(key(ns, 1), ALPHAS.astype(d), dtype=d))
        case(f"loggamma_{dtype}", lambda ns, d=dtype: ns.random.loggamma(key(ns, 1), ALPHAS.astype(d), dtype=d))
    case("gamma_float64_x64", lambda ns: ns.random.gamma(key(ns, 1), ALPHAS.astype("float64"), dtype="float64"),
         True)
    case("loggamma_float64_x64", lambda ns: ns.random.loggamma(key(ns, 1), ALPHAS, dtype="float64"), True)
    case("gamma_default_x64", lambda ns: ns.random.gamma(key(ns, 2), 3.0, (4,)), True)
    for alpha in (0.2, 1.0, 3.0):
        case(f"gamma_shape_{alpha}", lambda ns, a=alpha: ns.random.gamma(key(ns, 3), a, (2, 3)))
    case("gamma_scalar", lambda ns: ns.random.gamma(key(ns, 4), 1.5))
    case("gamma_empty", lambda ns: ns.random.gamma(key(ns, 4), 1.5, (0, 2)))
    case("gamma_broadcast", lambda ns: ns.random.gamma(key(ns, 5), np.array([0.5, 5.0], np.float32), (3, 2)))
    case("gamma_int_alpha", lambda ns: ns.random.gamma(key(ns, 5), 2, (3,)))
    case("gamma_many", lambda ns: ns.random.gamma(key(ns, 6), 0.7, (32,)))
    case("loggamma_tiny", lambda ns: ns.random.loggamma(key(ns, 7), np.float32(1e-4), (4,)))
    case("beta", lambda ns: ns.random.beta(key(ns, 8), 1.5, 3.0, (5,)))
    case("beta_arrays", lambda ns: ns.random.beta(key(ns, 8), np.array([0.1, 2.0], np.float32),
                                                  np.array([[0.5], [4.0]], np.float32)))
    case("beta_float16", lambda ns: ns.random.beta(key(ns, 8), 2.0, 2.0, (3,), "float16"))
    case("dirichlet", lambda ns: ns.random.dirichlet(key(ns, 9), np.array([0.5, 1.0, 3.0], np.float32)))
    case("dirichlet_shape", lambda ns: ns.random.dirichlet(key(ns, 9), np.array([0.5, 1.0, 3.0], np.float32),
                                                            (2,)))
    case("dirichlet_batched_alpha", lambda ns: ns.random.dirichlet(key(ns, 9), np.array(
        [[0.5, 2.0], [1.0, 1.0]], np.float32)))
    case("chisquare", lambda ns: ns.random.chisquare(key(ns, 10), 3.0, (5,)))
    case("chisquare_array", lambda ns: ns.random.chisquare(key(ns, 10), np.array([0.5, 1.0, 7.0], np.float32)))
    case("f", lambda ns: ns.random.f(key(ns, 11), 2.0, 5.0, (5,)))
    case("t", lambda ns: ns.random.t(key(ns, 12), 3.0, (5,)))
    case("t_array", lambda ns: ns.random.t(key(ns, 12), np.array([1.0, 4.0, 30.0], np.float32)))
    case("f_x64", lambda ns: ns.random.f(key(ns, 11), 2.0, 5.0, (3,), "float64"), True)
    for p in (0.5, 1.0, 2.0, 5.0):
        case(f"generalized_normal_{p}", lambda ns, p=p: ns.random.generalized_normal(key(ns, 16), p, (4,)))
    case("generalized_normal_float16", lambda ns: ns.random.generalized_normal(key(ns, 16), 2.0, (3,), "float16"))
    case("generalized_normal_x64", lambda ns: ns.random.generalized_normal(key(ns, 16), 1.5, (3,)), True)
    case("poisson_rates", lambda ns: ns.random.poisson(key(ns, 20), np.array([0.0, 0.5, 3.0, 9.9, 10.0, 50.0, 1e3],
                                                                               np.float32)))
    case("poisson_shape", lambda ns: ns.random.poisson(key(ns, 21), 4.0, (2, 3)))
    case("poisson_large_shape", lambda ns: ns.random.poisson(key(ns, 21), 25.0, (8,)))
    case("poisson_int16", lambda ns: ns.random.poisson(key(ns, 22), 3.0, (4,), "int16"))
    case("poisson_x64", lambda ns: ns.random.poisson(key(ns, 22), np.array([2.0, 40.0]), (3, 2)), True)
    case("vmap_poisson_keys", lambda ns: ns.vmap(lambda k: ns.random.poisson(k, 12.0, (2,)))(
        ns.random.split(key(ns, 23), 2)))
    case("jit_poisson", lambda ns: ns.jit(lambda k, lam: ns.random.poisson(k, lam, (3,)))(key(ns, 24),
                                                                                        np.float32(5.0)))
    case("binomial_mixed", lambda ns: ns.random.binomial(key(ns, 25), np.array(
        [0.0, 5.0, 20.0, 100.0, 1000.0, 30.0, 7.0, 50.0], np.float32), np.array(
        [0.5, 0.3, 0.3, 0.4, 0.7, 0.9, 0.5, 0.02], np.float32)))
    case("binomial_shape", lambda ns: ns.random.binomial(key(ns, 26), 40.0, 0.6, (2, 3)))
    case("binomial_edges", lambda ns: ns.random.binomial(key(ns, 26), np.array([np.nan, -1.0, np.inf, 4.0, 4.0, 9.0],
                                                                               np.float32),
                                                          np.array([0.5, 0.5, 0.5, np.nan, 1.0, 0.0], np.float32)))
    case("binomial_x64", lambda ns: ns.random.binomial(key(ns, 27), 200.0, 0.25, (4,)), True)
    case("vmap_binomial_keys", lambda ns: ns.vmap(lambda k: ns.random.binomial(k, 60.0, 0.5, (2,)))(
        ns.random.split(key(ns, 28), 2)))
    case("error_binomial_int_dtype", lambda ns: ns.random.binomial(key(ns), 5.0, 0.3, (2,), "int32"))
    # drawn in the probability's dtype, given as ``dtype``
    case("binomial_float16_p", lambda ns: ns.random.binomial(key(ns, 29), np.float32(6.0), np.float16(0.3), (4,)))
    case("binomial_float16_p_btrs", lambda ns: ns.random.binomial(key(ns, 29), np.float32(100.0), np.float16(0.3),
                                                                  (4,)))
    case("binomial_dtype_float16", lambda ns: ns.random.binomial(key(ns, 30), 40.0, 0.3, (4,), "float16"))
    case("binomial_float16_n_dtype_float16", lambda ns: ns.random.binomial(key(ns, 30), np.float16(40.0),
                                                                           np.float32(0.3), (4,), "float16"))
    case("binomial_int_n", lambda ns: ns.random.binomial(key(ns, 31), np.array([3, 50], np.int32), 0.3))
    case("binomial_float64_p_x64", lambda ns: ns.random.binomial(key(ns, 32), np.float32(30.0), np.float64(0.4),
                                                                 (3,), "float32"), True)
    # transformations
    case("jit_gamma", lambda ns: ns.jit(lambda k, a: ns.random.gamma(k, a, (3,)))(key(ns, 13), np.float32(0.8)))
    case("vmap_gamma_keys", lambda ns: ns.vmap(lambda k: ns.random.gamma(k, 2.0, (2,)))(
        ns.random.split(key(ns, 14), 3)))
    case("vmap_gamma_alpha", lambda ns: ns.vmap(lambda a: ns.random.gamma(key(ns, 14), a, (2,)))(ALPHAS))
    case("vmap_beta_keys", lambda ns: ns.vmap(lambda k: ns.random.beta(k, 0.5, 0.5, (2,)))(
        ns.random.split(key(ns, 15), 2)))
    case("vmap_generalized_normal_keys", lambda ns: ns.vmap(lambda k: ns.random.generalized_normal(k, 3.0, (2,)))(
        ns.random.split(key(ns, 17), 2)))
    # gradients: implicit reparameterization (random_gamma_grad at the sample)
    case("grad_gamma", lambda ns: ns.grad(lambda a: ns.random.gamma(key(ns, 18), a, (3,)).sum())(np.float32(0.5)))
    case("grad_gamma_vmap", lambda ns: ns.vmap(ns.grad(lambda a: ns.random.gamma(key(ns, 18), a)))(ALPHAS[1:]))
    case("grad_loggamma", lambda ns: ns.grad(lambda a: ns.random.loggamma(key(ns, 18), a, (3,)).sum())(
        np.float32(2.5)))
    case("grad_beta", lambda ns: ns.grad(lambda a: ns.random.beta(key(ns, 19), a, 2.0, (3,)).sum())(np.float32(0.7)))
    # errors
    case("error_generalized_normal_int", lambda ns: ns.random.generalized_normal(key(ns), 2.0, (2,), "int32"))
    case("error_generalized_normal_shape", lambda ns: ns.random.generalized_normal(key(ns), np.ones(2), (3,)))
    case("error_gamma_int_dtype", lambda ns: ns.random.gamma(key(ns), 1.0, (2,), "int32"))
    case("error_gamma_shape", lambda ns: ns.random.gamma(key(ns), np.ones(3, np.float32), (2,)))
    case("error_beta_shape", lambda ns: ns.random.beta(key(ns), 1.0, np.ones(3, np.float32), (2,)))
    case("error_dirichlet_scalar", lambda ns: ns.random.dirichlet(key(ns), 1.0))
    case("error_t_int_dtype", lambda ns: ns.random.t(key(ns), 1.0, (2,), "int32"))
    return cases


CASES = _cases()


def run_case(ns, name: str) -> dict:
    return base.run_case_of(CASES, ns, name)


if __name__ == "__main__":
    base.write_golden(CASES, GOLDEN, namespace(sys.argv[1]))
