"""``jax.scipy.stats``: jaxle-numpy's distributions. Each distribution module is jaxle-numpy's own module, also
importable by its name here (``import jaxle.scipy.stats.norm``)."""

import inspect
import sys

from jaxle_numpy.scipy import stats as _stats
from jaxle_numpy.scipy.stats import *  # noqa: F403

for _name in _stats.__all__:
    if inspect.ismodule(getattr(_stats, _name)):
        sys.modules[f"{__name__}.{_name}"] = getattr(_stats, _name)
