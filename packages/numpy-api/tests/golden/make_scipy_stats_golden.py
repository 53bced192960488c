"""Golden records of a sample of ``jax.scipy.stats`` functions (see scipy_golden.py)."""

import numpy as np
import scipy_golden

X = np.array([-1.5, 0.0, 0.4, 2.5], np.float32)
UNIT = np.array([0.05, 0.3, 0.5, 0.9], np.float32)
COUNTS = np.array([-1.0, 0.0, 1.5, 3.0], np.float32)


def case(name, *args):
    module, function = name.split(".")
    return lambda m: (lambda *a: getattr(getattr(m.scipy.stats, module), function)(*a), list(args))


CASES = {
    **{f"norm.{f}": case(f"norm.{f}", X) for f in ("pdf", "logpdf", "cdf", "logcdf", "sf", "logsf")},
    "norm.logpdf_int": case("norm.logpdf", np.arange(3, dtype=np.int32)),
    "norm.logpdf_weak": case("norm.logpdf", 1.0),
    **{f"uniform.{f}": case(f"uniform.{f}", X) for f in ("pdf", "logpdf", "cdf")},
    "uniform.ppf": case("uniform.ppf", UNIT),
    **{f"expon.{f}": case(f"expon.{f}", X) for f in ("pdf", "logpdf", "cdf", "logcdf", "sf", "logsf")},
    "expon.ppf": case("expon.ppf", UNIT),
    **{f"laplace.{f}": case(f"laplace.{f}", X) for f in ("pdf", "logpdf", "cdf")},
    **{f"logistic.{f}": case(f"logistic.{f}", X) for f in ("pdf", "logpdf", "cdf", "sf")},
    **{f"logistic.{f}": case(f"logistic.{f}", UNIT) for f in ("ppf", "isf")},
    **{f"cauchy.{f}": case(f"cauchy.{f}", X) for f in ("pdf", "logpdf", "cdf", "logcdf", "sf", "logsf")},
    **{f"cauchy.{f}": case(f"cauchy.{f}", UNIT) for f in ("ppf", "isf")},
    **{f"t.{f}": case(f"t.{f}", X, np.float32(3.0)) for f in ("pdf", "logpdf")},
    **{f"gamma.{f}": case(f"gamma.{f}", X, np.float32(2.5)) for f in ("pdf", "logpdf", "cdf", "logcdf", "sf",
                                                                       "logsf")},
    **{f"beta.{f}": case(f"beta.{f}", UNIT, np.float32(2.0), np.float32(3.0)) for f in ("cdf", "logcdf", "sf",
                                                                                          "logsf")},
    **{f"chi2.{f}": case(f"chi2.{f}", X, np.float32(3.0)) for f in ("pdf", "logpdf", "cdf", "logcdf", "sf", "logsf")},
    **{f"pareto.{f}": case(f"pareto.{f}", X + 1, np.float32(2.5)) for f in ("pdf", "logpdf", "cdf", "logcdf", "sf",
                                                                             "logsf")},
    "pareto.ppf": case("pareto.ppf", UNIT, np.float32(2.5)),
    **{f"gumbel_r.{f}": case(f"gumbel_r.{f}", X) for f in ("pdf", "logpdf", "cdf", "logcdf", "sf", "logsf")},
    **{f"gumbel_l.{f}": case(f"gumbel_l.{f}", X) for f in ("pdf", "logpdf", "cdf", "logcdf", "sf", "logsf")},
    "gumbel_r.ppf": case("gumbel_r.ppf", UNIT), "gumbel_l.ppf": case("gumbel_l.ppf", UNIT),
    "gumbel_r.ppf_edges": case("gumbel_r.ppf", np.array([0.0, 1.0, 0.5, np.nan], np.float32)),
    "gumbel_l.cdf_negative_scale": case("gumbel_l.cdf", X, np.float32(0.0), np.float32(-1.0)),
    **{f"gumbel_{side}.{f}_loc_scale": case(f"gumbel_{side}.{f}", X, 1, np.array([[2.0], [-1.0]], np.float32))
       for side in "lr" for f in ("logpdf", "cdf", "logsf", "ppf")},
    **{f"gumbel_{side}.{f}_weak": case(f"gumbel_{side}.{f}", 0.3, 0.5) for side in "lr" for f in ("logpdf", "logsf")},
    **{f"gumbel_{side}.grad_{f}": lambda m, side=side, f=f: (
        m.grad(getattr(getattr(m.scipy.stats, f"gumbel_{side}"), f)), [np.float32(0.3)])
       for side in "lr" for f in ("logpdf", "logcdf", "logsf", "ppf")},
    "gennorm.logpdf": case("gennorm.logpdf", X, np.float32(1.5)),
    "gennorm.pdf": case("gennorm.pdf", X, np.float32(1.5)),
    "uniform.cdf_loc_scale": case("uniform.cdf", X, np.float32(-1.0), np.float32(2.0)),
    "poisson.logpmf": case("poisson.logpmf", COUNTS, np.float32(2.0)),
    "poisson.pmf": case("poisson.pmf", COUNTS, np.float32(2.0)),
    "poisson.cdf": case("poisson.cdf", COUNTS, np.float32(2.0)),
    "bernoulli.logpmf": case("bernoulli.logpmf", COUNTS, np.float32(0.3)),
    "bernoulli.cdf": case("bernoulli.cdf", COUNTS, np.float32(0.3)),
    "bernoulli.ppf": case("bernoulli.ppf", np.array([0.0, 0.5, 0.7, 1.0, -1.0], np.float32), np.float32(0.3)),
    "geom.logpmf": case("geom.logpmf", COUNTS, np.float32(0.3)),
    "binom.logpmf": case("binom.logpmf", COUNTS, np.float32(5.0), np.float32(0.3)),
    "nbinom.logpmf": case("nbinom.logpmf", COUNTS, np.float32(2.5), np.float32(0.3)),
    "betabinom.logpmf": case("betabinom.logpmf", COUNTS, np.float32(5.0), np.float32(2.0), np.float32(3.0)),
    "vonmises.logpdf": case("vonmises.logpdf", X, np.array([0.0, 2.0, 2.0, 50.0], np.float32)),
    "wrapcauchy.logpdf": case("wrapcauchy.logpdf", X + 1, np.array([0.5, 0.5, 1.0, 0.2], np.float32)),
    "gennorm.cdf": case("gennorm.cdf", X, np.float32(1.5)),
    "dirichlet.logpdf": case("dirichlet.logpdf", np.array([0.2, 0.3, 0.5], np.float32),
                             np.array([1.0, 2.0, 3.0], np.float32)),
    "dirichlet.bad_alpha": case("dirichlet.logpdf", np.array([0.2, 0.8], np.float32),
                                np.array([[1.0, 2.0]], np.float32)),
    "multinomial.logpmf": case("multinomial.logpmf", np.array([1, 2, 3], np.int32), np.int32(6),
                               np.array([0.2, 0.3, 0.5], np.float32)),
    "multinomial.weak_n": case("multinomial.logpmf", np.array([1, 2, 3], np.int32), 6,
                               np.array([0.2, 0.3, 0.5], np.float32)),
    "multinomial.float_counts": case("multinomial.logpmf", np.array([1.0, 2.0, 3.0], np.float32), np.float32(6),
                                     np.array([0.2, 0.3, 0.5], np.float32)),
    "norm.logpdf_loc_scale": case("norm.logpdf", X, np.float32(0.5), np.float32(2.0)),
    "norm.logpdf_ranks": case("norm.logpdf", X, np.float32(0.5), np.array([[1.0], [2.0]], np.float32)),
    "beta.logpdf": case("beta.logpdf", UNIT, np.float32(2.0), np.float32(3.0)),
    "beta.logpdf_large_shapes": case("beta.logpdf", UNIT, np.float32(9.0), np.float32(30.0)),
    "rankdata_bad_method": lambda m: (lambda a: m.scipy.stats.rankdata(a, "foo"), [X]),
    "rankdata_omit": lambda m: (lambda a: m.scipy.stats.rankdata(a, nan_policy="omit"), [X]),
    "truncnorm.logpdf": case("truncnorm.logpdf", X, np.float32(-1.0), np.float32(1.5)),
    "truncnorm.logcdf": case("truncnorm.logcdf", X, np.float32(-1.0), np.float32(1.5)),
    "truncnorm.logsf": case("truncnorm.logsf", X, np.float32(-1.0), np.float32(1.5)),
    "truncnorm.cdf_far_tail": case("truncnorm.cdf", X, np.float32(4.0), np.float32(6.0)),
    "poisson.entropy": case("poisson.entropy", np.array([0.0, 0.5, 50.0, 500.0], np.float32)),
    "norm.ppf": case("norm.ppf", np.array([0.0, 1e-6, 0.3, 0.5, 0.9999, 1.0, 1.5], np.float32)),
    "norm.isf": case("norm.isf", UNIT),
    "norm.ppf_loc_scale": case("norm.ppf", UNIT, 1.0, np.array([[2.0], [3.0]], np.float32)),
    "norm.isf_weak": case("norm.isf", 0.3, 1, np.int32(2)),
    "norm.ppf_int": case("norm.ppf", np.arange(2, dtype=np.int32)),
    "multivariate_normal.logpdf": case("multivariate_normal.logpdf", np.array([[0.5, -1.0], [2.0, 0.3]], np.float32),
                                       np.array([0.1, 0.2], np.float32),
                                       np.array([[2.0, 0.3], [0.3, 1.0]], np.float32)),
    "multivariate_normal.isotropic": case("multivariate_normal.logpdf", np.array([0.5, -1.0], np.float32),
                                          np.array([0.1, 0.2], np.float32), np.float32(2.0)),
    "multivariate_normal.bad_cov": case("multivariate_normal.logpdf", np.array([0.5, -1.0], np.float32),
                                        np.array([0.1, 0.2], np.float32), np.ones((3, 3), np.float32)),
    "gaussian_kde.evaluate": lambda m: (lambda d, p: m.scipy.stats.gaussian_kde(d).evaluate(p),
                                        [np.array([[0.0, 1.0, 2.0, 5.0], [1.0, 0.0, 3.0, 2.0]], np.float32),
                                         np.array([[0.5, 1.0], [1.0, 2.0]], np.float32)]),
    "gaussian_kde.logpdf_weighted": lambda m: (lambda d, w, p: m.scipy.stats.gaussian_kde(d, weights=w).logpdf(p),
                                               [np.array([0.0, 1.0, 2.0, 5.0], np.float32),
                                                np.array([1.0, 2.0, 3.0, 4.0], np.float32),
                                                np.array([0.5, 3.0], np.float32)]),
    "mode": lambda m: (lambda a: m.scipy.stats.mode(a, axis=1), [np.array([[1, 2, 2], [3, 1, 1]], np.int32)]),
    "mode_nan": lambda m: (lambda a: m.scipy.stats.mode(a, axis=0),
                           [np.array([[3.0, 1.0], [3.0, np.nan], [np.nan, np.nan]], np.float32)]),
    "rankdata": lambda m: (lambda a: m.scipy.stats.rankdata(a), [np.array([3.0, 1.0, 3.0, 2.0], np.float32)]),
    "rankdata_dense_axis": lambda m: (lambda a: m.scipy.stats.rankdata(a, "dense", axis=1),
                                      [np.array([[3, 1, 3], [2, 2, 7]], np.int32)]),
    "rankdata_nan": lambda m: (lambda a: m.scipy.stats.rankdata(a, "min"),
                               [np.array([3.0, np.nan, 1.0], np.float32)]),
    "sem": lambda m: (lambda a: m.scipy.stats.sem(a), [np.arange(6, dtype=np.float32).reshape(3, 2)]),
    "sem_raise": lambda m: (lambda a: m.scipy.stats.sem(a, nan_policy="raise"), [X]),
}

if __name__ == "__main__":
    scipy_golden.write(CASES, "scipy_stats_golden.json")
