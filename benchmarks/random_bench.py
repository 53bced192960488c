"""jax.random benchmarks: jitted sampling throughput, splitting many keys, vmapped sampling over keys.

Usage: python random_bench.py jaxle|jax   (prints one JSON object per line; lower is better)
"""

import importlib
import sys

from tree_bench import print_timings, sized

# (api module, random module, module whose import installs the XLA backend)
MODULES = {"jaxle": ("jaxle_core", "jaxle_random", "jaxle_xla"), "jax": ("jax", "jax.random", "jax")}


def main():
    api_name, random_name, backend_name = MODULES[sys.argv[1]]
    importlib.import_module(backend_name)  # first, as `import jaxle` does: jnp's jitted functions are the backend's
    api, random = importlib.import_module(api_name), importlib.import_module(random_name)
    key = random.PRNGKey(0)
    keys = random.split(key, sized(1000, 4))

    normal = api.jit(lambda k: random.normal(k, (sized(1_000_000, 100),)))
    uniform = api.jit(lambda k: random.uniform(k, (sized(10_000_000, 100),)))
    split = api.jit(lambda k: random.split(k, sized(100_000, 10)))
    per_key = api.jit(api.vmap(lambda k: random.normal(k, (1000,))))

    typed_key = random.key(0)
    cases = {
        ("eager/normal_1e3", "us"): lambda: random.normal(key, (1000,)).block_until_ready(),
        ("eager/normal_1e3_typed_key", "us"): lambda: random.normal(typed_key, (1000,)).block_until_ready(),
        ("eager/uniform_1e3", "us"): lambda: random.uniform(key, (1000,)).block_until_ready(),
        ("eager/randint_1e3", "us"): lambda: random.randint(key, (1000,), 0, 10).block_until_ready(),
        ("eager/bernoulli_1e3", "us"): lambda: random.bernoulli(key, 0.3, (1000,)).block_until_ready(),
        ("eager/split", "us"): lambda: random.split(key).block_until_ready(),
        ("eager/fold_in", "us"): lambda: random.fold_in(key, 7).block_until_ready(),
        ("eager/gamma_1e3", "us"): lambda: random.gamma(key, 2.0, (1000,)).block_until_ready(),
        ("jit/normal_1e6", "ms"): lambda: normal(key).block_until_ready(),
        ("jit/uniform_1e7", "ms"): lambda: uniform(key).block_until_ready(),
        ("jit/split_1e5_keys", "ms"): lambda: split(key).block_until_ready(),
        ("jit/vmap_normal_1e3_keys_x_1e3", "ms"): lambda: per_key(keys).block_until_ready(),
    }
    print_timings(cases)


if __name__ == "__main__":
    main()
