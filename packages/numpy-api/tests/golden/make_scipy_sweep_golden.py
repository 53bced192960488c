"""The sweep of ``jax.scipy.special`` and ``jax.scipy.stats``: every public function of ``special``, every method of
every ``stats`` distribution and the ``stats`` functions, on a few ordinary inputs (arrays, edge values, Python
scalars), in float32 (``CASES``, scipy_sweep_golden.json) and with 64-bit types enabled (``CASES_X64``,
scipy_sweep_x64_golden.json). See scipy_golden.py.

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_scipy_sweep_golden.py jax
"""

import numpy as np
import scipy_golden

# Functions of one argument and the inputs they are swept over ("x" real, "p" positive, "u" in (0, 1), "s" in
# (-1, 1)).
SPECIAL_UNARY = {
    **dict.fromkeys(("dawsn", "digamma", "entr", "erf", "erfc", "erfcx", "expi", "expit", "gamma", "gammaln",
                     "gammasgn", "i0", "i0e", "i1", "i1e", "log_ndtr", "ndtr", "fresnel", "sici"), "x"),
    **dict.fromkeys(("exp1", "spence", "loggamma", "factorial"), "p"),
    **dict.fromkeys(("logit", "ndtri"), "u"),
    "erfinv": "s",
}
# Functions of several arguments: their inputs by kind ("q" a second positive sample, "n" small integers).
SPECIAL_SEVERAL = {
    "beta": "pq", "betaln": "pq", "gammainc": "pq", "gammaincc": "pq", "poch": "px", "boxcox": "px",
    "boxcox1p": "px", "kl_div": "up", "rel_entr": "up", "xlogy": "xp", "xlog1py": "xp", "zeta": "Pp",
    "owens_t": "xx", "comb": "Np", "polygamma": "np", "expn": "np", "betainc": "pqu", "hyp1f1": "hhx",
    "hyp2f1": "hhCu",
}
# Distributions: the kind of their sample, their shape parameters, their methods.
DISTRIBUTIONS = {
    "bernoulli": ("k", "u", ("cdf", "logpmf", "pmf", "ppf")),
    "beta": ("u", "pq", ("cdf", "logcdf", "logpdf", "logsf", "pdf", "sf")),
    "betabinom": ("k", "Npq", ("logpmf", "pmf")),
    "binom": ("k", "Nu", ("logpmf", "pmf")),
    "cauchy": ("x", "", ("cdf", "isf", "logcdf", "logpdf", "logsf", "pdf", "ppf", "sf")),
    "chi2": ("p", "q", ("cdf", "logcdf", "logpdf", "logsf", "pdf", "sf")),
    "expon": ("p", "", ("cdf", "logcdf", "logpdf", "logsf", "pdf", "ppf", "sf")),
    "gamma": ("p", "q", ("cdf", "logcdf", "logpdf", "logsf", "pdf", "sf")),
    "gennorm": ("x", "q", ("cdf", "logpdf", "pdf")),
    "geom": ("K", "u", ("logpmf", "pmf")),
    "gumbel_l": ("x", "", ("cdf", "logcdf", "logpdf", "logsf", "pdf", "ppf", "sf")),
    "gumbel_r": ("x", "", ("cdf", "logcdf", "logpdf", "logsf", "pdf", "ppf", "sf")),
    "laplace": ("x", "", ("cdf", "logpdf", "pdf")),
    "logistic": ("x", "", ("cdf", "isf", "logpdf", "pdf", "ppf", "sf")),
    "nbinom": ("k", "qu", ("logpmf", "pmf")),
    "norm": ("x", "", ("cdf", "isf", "logcdf", "logpdf", "logsf", "pdf", "ppf", "sf")),
    "pareto": ("P", "q", ("cdf", "logcdf", "logpdf", "logsf", "pdf", "ppf", "sf")),
    "poisson": ("k", "q", ("cdf", "logpmf", "pmf")),
    "t": ("x", "q", ("logpdf", "pdf")),
    "truncnorm": ("x", "ab", ("cdf", "logcdf", "logpdf", "logsf", "pdf", "sf")),
    "uniform": ("x", "", ("cdf", "logpdf", "pdf", "ppf")),
    "vonmises": ("x", "q", ("logpdf", "pdf")),
    "wrapcauchy": ("w", "c", ("logpdf", "pdf")),
}
QUANTILES = ("ppf", "isf")
DISCRETE = ("bernoulli", "betabinom", "binom", "geom", "nbinom", "poisson")
WITHOUT_LOC = ("gennorm", "vonmises", "wrapcauchy")


def inputs(dtype) -> dict:
    """The swept inputs by kind, as arrays of ``dtype``."""
    def arr(values):
        return np.asarray(values, dtype)

    return {
        "x": arr([-2.5, -0.7, 0.3, 1.7, 4.2]), "p": arr([0.2, 0.9, 1.5, 3.7, 11.0]),
        "q": arr([2.5, 0.6, 4.0, 1.2, 7.5]), "u": arr([0.05, 0.3, 0.5, 0.77, 0.99]),
        "s": arr([-0.95, -0.3, 0.0, 0.4, 0.9]), "n": np.array([0, 1, 2, 3, 4], np.int32),
        "N": arr([1.0, 4.0, 5.0, 9.0, 12.0]), "P": arr([1.2, 1.9, 2.5, 4.7, 12.0]),
        "k": arr([0.0, 1.0, 2.0, 3.0, 5.0]), "K": arr([1.0, 2.0, 3.0, 4.0, 6.0]),
        "h": arr([0.5, 1.5, -0.5, 2.0, 3.5]), "C": arr([2.5, 3.0, 4.5, 1.5, 5.0]),
        "a": arr([-3.0, -1.0, 0.0, 1.0, 3.5]), "b": arr([3.0, 0.5, 1.0, 4.0, 5.0]),
        "w": arr([0.3, 1.0, 2.5, 4.0, 6.0]), "c": arr([0.05, 0.3, 0.5, 0.77, 0.9]),
        "edges": arr([0.0, -0.0, np.inf, -np.inf, np.nan]),
    }


def _call(namespace, path, *args, **kwargs):
    def build(m):
        module = getattr(m.scipy, namespace)
        for part in path.split("."):
            module = getattr(module, part)
        return (lambda *a: module(*a, **kwargs)), list(args)
    return build


def _python_scalar(a):
    return a.flat[min(2, a.size - 1)].item()


def special_cases(dtype) -> dict:
    """Every ``jax.scipy.special`` function on arrays of ``dtype``, edge values and Python scalars."""
    v = inputs(dtype)
    cases = {}
    for name, kind in SPECIAL_UNARY.items():
        cases[name] = _call("special", name, v[kind])
        cases[f"{name}_edges"] = _call("special", name, v["edges"])
        cases[f"{name}_py"] = _call("special", name, _python_scalar(v[kind]))
    for name, kinds in SPECIAL_SEVERAL.items():
        args = [v[kind] for kind in kinds]
        cases[name] = _call("special", name, *args)
        cases[f"{name}_py"] = _call("special", name, *[_python_scalar(a) for a in args])
        cases[f"{name}_broadcast"] = _call("special", name, args[0][:, None], *args[1:])
    complex_dtype = np.result_type(dtype, np.complex64)
    cases["wofz"] = _call("special", "wofz", (v["x"] + 1j * v["p"] / 3).astype(complex_dtype))
    cases["wofz_real"] = _call("special", "wofz", v["x"])
    cases["zeta_riemann"] = _call("special", "zeta", v["P"])
    cases["multigammaln"] = _call("special", "multigammaln", v["p"] + 2, d=3)
    cases["multigammaln_py"] = _call("special", "multigammaln", 4.5, d=2)
    cases["bessel_jn"] = _call("special", "bessel_jn", v["p"], v=3)
    cases["bessel_jn_v0"] = _call("special", "bessel_jn", v["x"], v=0)
    cases["bernoulli"] = _call("special", "bernoulli", n=6)
    cases["factorial_exact"] = _call("special", "factorial", 5, exact=True)
    cases["comb_repetition"] = _call("special", "comb", v["N"], v["p"].round(), repetition=True)
    cases["log_ndtr_series_order"] = _call("special", "log_ndtr", v["x"] * 6, series_order=5)
    matrix = np.stack([v["x"], v["q"], v["s"]])
    cases["logsumexp"] = _call("special", "logsumexp", matrix)
    cases["logsumexp_axis"] = _call("special", "logsumexp", matrix, axis=1, b=v["u"], keepdims=True,
                                    return_sign=True)
    cases["logsumexp_where"] = _call("special", "logsumexp", matrix, axis=0, where=matrix > 0)
    cases["logsumexp_sign"] = _call("special", "logsumexp", v["x"], b=v["s"], return_sign=True)
    cases["logsumexp_py"] = _call("special", "logsumexp", 1.5)
    for name in ("softmax", "log_softmax"):
        cases[name] = _call("special", name, matrix, axis=-1)
        cases[f"{name}_axes"] = _call("special", name, matrix, axis=(0, 1))
        cases[f"{name}_py"] = _call("special", name, 0.5)
    # derivatives with the other operands Python scalars (their arithmetic staged, as in JAX) or weakly typed
    cases["grad_betainc_x_py"] = lambda m: (lambda x: m.grad(m.scipy.special.betainc, argnums=2)(2.0, 3.0, x),
                                            [v["u"][1]])
    cases["grad_gammainc_x_py"] = lambda m: (lambda x: m.grad(m.scipy.special.gammainc, argnums=1)(2.0, x),
                                             [v["p"][1]])
    cases["grad_polygamma_py"] = lambda m: (lambda x: m.grad(m.scipy.special.polygamma, argnums=1)(2, x),
                                            [v["p"][1]])
    cases["grad_i1e_weak"] = lambda m: (m.grad(m.scipy.special.i1e), [2.0])
    cases["grad_i1e"] = lambda m: (m.grad(m.scipy.special.i1e), [v["x"][1]])
    degrees, orders = np.array([0, 1, 2, 3, 3], np.int32), np.array([0, -1, 2, 1, -3], np.int32)
    cases["sph_harm_y"] = _call("special", "sph_harm_y", degrees, orders, v["u"] * 3, v["x"], n_max=3)
    return cases


def stats_cases(dtype) -> dict:
    """Every method of every ``jax.scipy.stats`` distribution and the ``stats`` functions on arrays of ``dtype``,
    with location and scale where taken, and on Python scalars."""
    v = inputs(dtype)
    loc, scale = np.asarray(0.3, dtype), np.asarray(1.7, dtype)
    cases = {}
    for dist, (sample, params, methods) in DISTRIBUTIONS.items():
        shape = [v[kind] for kind in params]
        for method in methods:
            first = v["u"] if method in QUANTILES else v[sample]
            name = f"{dist}.{method}"
            cases[name] = _call("stats", name, first, *shape)
            cases[f"{name}_py"] = _call("stats", name, _python_scalar(first), *[_python_scalar(a) for a in shape])
            if dist in WITHOUT_LOC or (dist == "bernoulli" and method in ("cdf", "ppf")):
                continue
            extra = (loc,) if dist in DISCRETE else (loc, scale)
            cases[f"{name}_loc"] = _call("stats", name, first, *shape, *extra)
    cases["poisson.entropy"] = _call("stats", "poisson.entropy", v["q"])
    cases["poisson.entropy_loc"] = _call("stats", "poisson.entropy", v["q"], loc)
    simplex = np.asarray([[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]], dtype)
    alpha = np.asarray([1.5, 0.8, 3.0], dtype)
    for method in ("logpdf", "pdf"):
        cases[f"dirichlet.{method}"] = _call("stats", f"dirichlet.{method}", simplex.T, alpha)
        cases[f"multinomial.{method.replace('pdf', 'pmf')}"] = _call(
            "stats", f"multinomial.{method.replace('pdf', 'pmf')}", np.array([2, 3, 5], np.int32), np.int32(10),
            simplex[0])
        cov = np.asarray([[2.0, 0.3, 0.1], [0.3, 1.0, -0.2], [0.1, -0.2, 0.5]], dtype)
        cases[f"multivariate_normal.{method}"] = _call(
            "stats", f"multivariate_normal.{method}", np.stack([v["x"][:3], v["s"][:3]]), alpha, cov)
    sample = np.stack([v["x"], v["x"][::-1], v["k"]])
    cases["mode"] = _call("stats", "mode", v["k"][[0, 1, 1, 3, 4]])
    cases["mode_axis"] = _call("stats", "mode", sample, axis=1, keepdims=True)
    cases["rankdata"] = _call("stats", "rankdata", v["k"][[3, 1, 1, 0, 4]])
    for method in ("min", "max", "dense", "ordinal"):
        cases[f"rankdata_{method}"] = _call("stats", "rankdata", sample, method=method, axis=1)
    cases["sem"] = _call("stats", "sem", sample)
    cases["sem_axis"] = _call("stats", "sem", sample, axis=1, ddof=0, keepdims=True)
    return cases


CASES = {**{f"special.{name}": build for name, build in special_cases(np.float32).items()},
         **{f"stats.{name}": build for name, build in stats_cases(np.float32).items()}}
CASES_X64 = {**{f"special.{name}": build for name, build in special_cases(np.float64).items()},
             **{f"stats.{name}": build for name, build in stats_cases(np.float64).items()}}

if __name__ == "__main__":
    scipy_golden.write(CASES, "scipy_sweep_golden.json")
    scipy_golden.write_x64(CASES_X64, "scipy_sweep_x64_golden.json")
