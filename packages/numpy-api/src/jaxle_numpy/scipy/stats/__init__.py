"""``jax.scipy.stats``: SciPy's distributions, one module per distribution (``stats.norm.logpdf``)."""

__all__: list[str] = []
