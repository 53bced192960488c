"""jax.numpy benchmarks: eager dispatch, indexing and .at updates, einsum, sort, an MLP forward, tracing.

Usage: python numpy_bench.py jaxle|jax   (prints one JSON object per line; lower is better)
"""

import importlib
import sys

import numpy as np

from tree_bench import print_timings, sized

# (api module, numpy module, module whose import installs the XLA backend)
MODULES = {"jaxle": ("jaxle_core", "jaxle_numpy", "jaxle_xla"), "jax": ("jax", "jax.numpy", "jax")}


def many_calls(jnp, calls):
    """A function of ``calls`` jnp calls on one array."""

    def fun(x):
        y = x
        for i in range(calls // 5):
            y = jnp.sin(y) * x + jnp.where(y > 0, y, x) - jnp.sum(y, axis=0) / (i + 1)
        return y

    return fun


def mlp_params(rng, widths):
    return [(rng.standard_normal((m, n)).astype(np.float32) / np.sqrt(m), np.zeros(n, np.float32))
            for m, n in zip(widths[:-1], widths[1:])]


def main():
    api_name, numpy_name, backend_name = MODULES[sys.argv[1]]
    importlib.import_module(backend_name)  # first, as `import jaxle` does: jnp's jitted functions are the backend's
    api, jnp = importlib.import_module(api_name), importlib.import_module(numpy_name)
    rng = np.random.default_rng(0)
    small = jnp.asarray(np.linspace(0, 1, 3, dtype=np.float32))
    table = jnp.asarray(rng.standard_normal((1000, 64)).astype(np.float32))
    idx = jnp.asarray(rng.integers(0, 1000, 256).astype(np.int32))
    updates = jnp.asarray(rng.standard_normal((256, 64)).astype(np.float32))
    a = jnp.asarray(rng.standard_normal((128, 256)).astype(np.float32))
    b = jnp.asarray(rng.standard_normal((256, 64)).astype(np.float32))
    c = jnp.asarray(rng.standard_normal((64, 32)).astype(np.float32))
    big = jnp.asarray(rng.standard_normal(sized(1_000_000, 100)).astype(np.float32))
    params = mlp_params(rng, [64, 256, 256, 10])
    batch = jnp.asarray(rng.standard_normal((128, 64)).astype(np.float32))

    def mlp(params, x):
        for w, bias in params[:-1]:
            x = jnp.maximum(x @ w + bias, 0.0)
        w, bias = params[-1]
        return x @ w + bias

    gather = api.jit(lambda t, i: t[i])
    scatter = api.jit(lambda t, i, u: t.at[i].add(u))
    contract = api.jit(lambda a, b, c: jnp.einsum("ij,jk,kl->il", a, b, c))
    sort = api.jit(jnp.sort)
    forward = api.jit(mlp)

    cases = {
        ("eager/jnp.sin_3_elements", "us"): lambda: jnp.sin(small),
        ("eager/jnp.add_3_elements", "us"): lambda: jnp.add(small, small),
        ("eager/gather_x[idx]", "us"): lambda: table[idx],
        ("jit/gather_x[idx]", "us"): lambda: gather(table, idx).block_until_ready(),
        ("eager/scatter_.at[idx].add", "us"): lambda: table.at[idx].add(updates),
        ("jit/scatter_.at[idx].add", "us"): lambda: scatter(table, idx, updates).block_until_ready(),
        ("jit/einsum_ij,jk,kl", "us"): lambda: contract(a, b, c).block_until_ready(),
        ("jit/sort_1e6", "ms"): lambda: sort(big).block_until_ready(),
        ("jit/mlp_forward_128x64", "us"): lambda: forward(params, batch).block_until_ready(),
        # a new function each call: no cache answers
        ("trace/500_jnp_calls", "ms"): lambda: api.make_jaxpr(many_calls(jnp, sized(500, 10)))(small),
    }
    print_timings(cases)


if __name__ == "__main__":
    main()
