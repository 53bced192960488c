"""Golden records of jnp reductions with 64-bit types enabled, from JAX 0.10.2 (the test replays them inside
``jaxle_core.config.enable_x64(True)``).

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_jnp_reductions_x64_golden.py jax
"""

import jnp_golden
import numpy as np
from jnp_golden import rand

BOOLS = rand((2, 3), "bool", 1)


def _case(fn, *args):
    return lambda m: (fn(m), args)


# Booleans are summed and multiplied through int32, then widened to the 64-bit result.
CASES = {
    "sum_bool": _case(lambda m: lambda a: m.numpy.sum(a), BOOLS),
    "sum_bool_axis": _case(lambda m: lambda a: m.numpy.sum(a, axis=1, keepdims=True), BOOLS),
    "sum_bool_int32": _case(lambda m: lambda a: m.numpy.sum(a, dtype=np.int32), BOOLS),
    "prod_bool": _case(lambda m: lambda a: m.numpy.prod(a, axis=0), BOOLS),
    "count_nonzero": _case(lambda m: lambda a: m.numpy.count_nonzero(a), BOOLS),
    "nansum_bool": _case(lambda m: lambda a: m.numpy.nansum(a), BOOLS),
    "mean_bool": _case(lambda m: lambda a: m.numpy.mean(a), BOOLS),
    "sum_int8": _case(lambda m: lambda a: m.numpy.sum(a), rand((2, 3), "int8", 2)),
}

if __name__ == "__main__":
    jnp_golden.write_x64(CASES, "jnp_reductions_x64_golden.json")
