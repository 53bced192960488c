"""Parallel benchmarks over 8 CPU devices: pmap of a matmul (and the same batch on one device), psum latency, and a
data-parallel training step.

Usage: python parallel_bench.py jaxle|jax   (prints one JSON object per line; lower is better)
"""

import importlib
import sys

import numpy as np

from tree_bench import print_timings

DEVICES = 8
# (module imported as ``jax``, its numpy module, its lax module)
MODULES = {"jaxle": ("jaxle", "jaxle.numpy", "jaxle.lax"), "jax": ("jax", "jax.numpy", "jax.lax")}


def training_step(jax, jnp, lax):
    """One data-parallel SGD step of a 2-layer tanh MLP: per-device gradients averaged with ``pmean``."""

    def loss(params, x, y):
        w1, w2 = params
        return jnp.mean((jnp.tanh(x @ w1) @ w2 - y) ** 2)

    def step(params, x, y):
        grads = lax.pmean(jax.grad(loss)(params, x, y), "batch")
        return [p - 0.1 * g for p, g in zip(params, grads)]

    return jax.pmap(step, "batch")


def main():
    jax_name, jnp_name, lax_name = MODULES[sys.argv[1]]
    jax = importlib.import_module(jax_name)
    jax.config.update("jax_num_cpu_devices", DEVICES)  # before any backend starts
    jnp, lax = importlib.import_module(jnp_name), importlib.import_module(lax_name)
    assert jax.device_count() == DEVICES
    rng = np.random.default_rng(0)
    replicate = jax.pmap(lambda a: a)
    batch = rng.standard_normal((DEVICES, 64, 64), dtype=np.float32)
    sharded = replicate(batch)
    on_one_device = jax.device_put(batch)
    pmapped_matmul = jax.pmap(lambda a: a @ a)
    batched_matmul = jax.jit(lambda a: a @ a)
    scalars = replicate(np.arange(DEVICES, dtype=np.float32))
    psum = jax.pmap(lambda a: lax.psum(a, "i"), "i")
    step = training_step(jax, jnp, lax)
    params = [replicate(np.broadcast_to(rng.standard_normal(shape, dtype=np.float32), (DEVICES, *shape)))
              for shape in ((16, 32), (32, 4))]
    x = replicate(rng.standard_normal((DEVICES, 32, 16), dtype=np.float32))
    y = replicate(rng.standard_normal((DEVICES, 32, 4), dtype=np.float32))
    cases = {
        ("pmap_matmul/8_devices_64x64", "us"): lambda: pmapped_matmul(sharded).block_until_ready(),
        ("jit_batched_matmul/1_device_8x64x64", "us"): lambda: batched_matmul(on_one_device).block_until_ready(),
        ("pmap_psum/8_devices_scalar", "us"): lambda: psum(scalars).block_until_ready(),
        ("pmap_training_step/8_devices_mlp", "us"): lambda: jax.block_until_ready(step(params, x, y)),
    }
    print_timings(cases)


if __name__ == "__main__":
    main()
