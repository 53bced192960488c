"""Core benchmarks: tracing large functions to jaxprs (dispatch and eager ops are in xla_bench.py).

Usage: python core_bench.py jaxle|jax   (prints one JSON object per line, microseconds per call)
"""

import importlib
import json
import sys

import numpy as np

from tree_bench import sized, time_us

# The jaxle meta-package does not exist yet; map its name to the package that holds the API.
API_MODULES = {"jaxle": ("jaxle_core", "jaxle_core.lax"), "jax": ("jax", "jax.lax")}


def chain(lax, length):
    """An elementwise chain of ``length`` primitives."""

    def fun(x):
        for _ in range(length // 3):
            x = lax.sin(x)
            x = lax.mul(x, x)
            x = lax.add(x, x)
        return x

    return fun


def main():
    api_name, lax_name = API_MODULES[sys.argv[1]]
    api, lax = importlib.import_module(api_name), importlib.import_module(lax_name)
    x = np.linspace(0, 1, 3, dtype=np.float32)
    cases = {
        "make_jaxpr/chain_300": lambda: api.make_jaxpr(chain(lax, 300))(x),
        "make_jaxpr/chain_3000": lambda: api.make_jaxpr(chain(lax, sized(3000, 30)))(x),
    }
    for name, fn in cases.items():
        fn()
        print(json.dumps({"name": name, "value": round(time_us(fn, target_seconds=0.5), 3), "unit": "us"}),
              flush=True)


if __name__ == "__main__":
    main()
