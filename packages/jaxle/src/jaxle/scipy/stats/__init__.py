"""``jax.scipy.stats``: jaxle-numpy's distributions. Each distribution module is jaxle-numpy's own module, also
importable by its name here (``import jaxle.scipy.stats.norm``); ``gaussian_kde`` adds ``resample``, which draws
with jaxle-random."""

import inspect
import sys

from jaxle.scipy.stats import kde_resampling as _kde_resampling
from jaxle_numpy.scipy import stats as _stats
from jaxle_numpy.scipy.stats import *  # noqa: F403

gaussian_kde = _kde_resampling.gaussian_kde  # jaxle-numpy's, with resample

for _name in _stats.__all__:
    if inspect.ismodule(getattr(_stats, _name)):
        sys.modules[f"{__name__}.{_name}"] = getattr(_stats, _name)
