"""``jax.scipy.stats``: SciPy's distributions, one module per distribution (``stats.norm.logpdf``), and the
sample summaries ``mode``, ``rankdata`` and ``sem``."""

from jaxle_numpy.scipy.stats import (
    bernoulli,
    beta,
    betabinom,
    binom,
    cauchy,
    chi2,
    dirichlet,
    expon,
    gamma,
    gennorm,
    geom,
    gumbel_l,
    gumbel_r,
    laplace,
    logistic,
    multinomial,
    multivariate_normal,
    nbinom,
    norm,
    pareto,
    poisson,
    t,
    truncnorm,
    uniform,
    vonmises,
    wrapcauchy,
)
from jaxle_numpy.scipy.stats.kde import gaussian_kde
from jaxle_numpy.scipy.stats.summaries import mode, rankdata, sem

__all__ = ["bernoulli", "beta", "betabinom", "binom", "cauchy", "chi2", "dirichlet", "expon", "gamma", "gaussian_kde",
           "gennorm", "geom", "gumbel_l", "gumbel_r", "laplace", "logistic", "mode", "multinomial",
           "multivariate_normal", "nbinom", "norm", "pareto", "poisson", "rankdata", "sem", "t", "truncnorm", "uniform",
           "vonmises", "wrapcauchy"]
