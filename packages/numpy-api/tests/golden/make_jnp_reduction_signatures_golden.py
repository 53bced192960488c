"""Write jnp_reduction_signatures.json: the signatures (parameter names, kinds, defaults) of JAX 0.10.2's
reductions, cumulative reductions, quantiles and statistics functions.

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_jnp_reduction_signatures_golden.py jax
"""

import importlib
import inspect
import json
import pathlib
import sys

NAMES = ("sum prod mean var std min max amin amax argmin argmax all any ptp count_nonzero median percentile quantile "
         "average nansum nanprod nanmean nanvar nanstd nanmin nanmax nanargmin nanargmax nanmedian nanpercentile "
         "nanquantile cumsum cumprod cumulative_sum cumulative_prod nancumsum nancumprod cov corrcoef histogram "
         "histogram2d histogramdd histogram_bin_edges bincount digitize diff ediff1d gradient interp trapezoid "
         "unwrap").split()


def signatures(numpy_module, names=NAMES) -> dict:
    """name -> [[parameter name, kind, repr of the default]...] for each of ``names`` (other modules' generators
    pass their own)."""
    return {name: [[p.name, p.kind.name, repr(p.default)]
                   for p in inspect.signature(getattr(numpy_module, name)).parameters.values()] for name in names}


if __name__ == "__main__":
    module = importlib.import_module(f"{sys.argv[1]}.numpy")
    path = pathlib.Path(__file__).parent / "jnp_reduction_signatures.json"
    path.write_text(json.dumps(signatures(module), indent=1, sort_keys=True) + "\n")
    print(f"{len(NAMES)} signatures -> {path}")
