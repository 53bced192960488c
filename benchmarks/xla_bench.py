"""XLA backend benchmarks: cached jitted call, eager ops, trace+lower of a large function, device_put.

Usage: python xla_bench.py jaxle|jax   (prints one JSON object per line; lower is better)
"""

import importlib
import sys

import numpy as np

from tree_bench import print_timings, sized

# (api module, lax module, module whose import installs the XLA backend, device_put's module)
MODULES = {"jaxle": ("jaxle_core", "jaxle_core.lax", "jaxle_xla", "jaxle_xla"),
           "jax": ("jax", "jax.lax", "jax", "jax")}


def long_function(lax, equations):
    """A function of ``equations`` elementwise equations on one array."""

    def fun(x):
        y = x
        for i in range(equations // 4):
            y = lax.add(lax.mul(lax.sin(y), x), lax.cos(x if i % 2 else y))
        return y

    return fun


def main():
    api_name, lax_name, backend_name, put_name = MODULES[sys.argv[1]]
    api, lax = importlib.import_module(api_name), importlib.import_module(lax_name)
    importlib.import_module(backend_name)
    device_put = importlib.import_module(put_name).device_put
    host = np.linspace(0, 1, 3, dtype=np.float32)
    x = device_put(host)
    jitted = api.jit(lambda a: lax.add(lax.sin(a), a))
    jitted(x).block_until_ready()

    def trace_and_lower():
        api.jit(long_function(lax, sized(1200, 12))).lower(host).as_text()

    cases = {
        ("jit_dispatch/3_elements", "us"): lambda: jitted(x),
        ("eager/sin_3_elements", "us"): lambda: lax.sin(x),
        ("eager/mul_3_elements", "us"): lambda: lax.mul(x, x),
        ("device_put/3_elements", "us"): lambda: device_put(host),
        ("trace_lower_as_text/1200_equations", "ms"): trace_and_lower,
    }
    print_timings(cases)


if __name__ == "__main__":
    main()
