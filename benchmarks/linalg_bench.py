"""Linear algebra, FFT, jax.scipy and jax.nn benchmarks: LAPACK-backed jnp.linalg, fft, logsumexp, attention.

Usage: python linalg_bench.py jaxle|jax   (prints one JSON object per line; lower is better)

Each case runs jitted (steady state: compiled once, then timed) and, where the eager call is a
different path worth timing, eagerly.
"""

import importlib
import sys

import numpy as np

from tree_bench import print_timings, sized

# (api module, numpy module, jax.scipy.special module, jax.nn module)
MODULES = {"jaxle": ("jaxle", "jaxle.numpy", "jaxle.scipy.special", "jaxle.nn"),
           "jax": ("jax", "jax.numpy", "jax.scipy.special", "jax.nn")}


def spd(rng, n):
    """A well-conditioned symmetric positive definite float32 ``n x n`` matrix."""
    a = rng.standard_normal((n, n)).astype(np.float32)
    return (a @ a.T / n + np.eye(n, dtype=np.float32)).astype(np.float32)


def attention_cases(api, nn, rng):
    """``dot_product_attention`` on batch 4, 128 tokens, 8 heads of 64 (skipped where the name is missing)."""
    if not hasattr(nn, "dot_product_attention"):
        return {}
    shape = sized((4, 128, 8, 64), (1, 8, 2, 4))
    q, k, v = (api.device_put(rng.standard_normal(shape).astype(np.float32)) for _ in range(3))
    attention = api.jit(nn.dot_product_attention)
    return {
        ("eager/dot_product_attention_4x128x8x64", "us"): lambda: nn.dot_product_attention(q, k, v)
        .block_until_ready(),
        ("jit/dot_product_attention_4x128x8x64", "us"): lambda: attention(q, k, v).block_until_ready(),
    }


def cases(implementation):
    """``{(name, unit): timed call}`` for ``implementation`` (``"jaxle"`` or ``"jax"``), inputs on the device."""
    api_name, numpy_name, special_name, nn_name = MODULES[implementation]
    api, jnp = importlib.import_module(api_name), importlib.import_module(numpy_name)
    special, nn = importlib.import_module(special_name), importlib.import_module(nn_name)
    rng = np.random.default_rng(0)
    put = api.device_put
    a512 = put(spd(rng, sized(512, 8)))
    b512 = put(rng.standard_normal((sized(512, 8), 1)).astype(np.float32))
    s256 = put(spd(rng, sized(256, 8)))
    tall = put(rng.standard_normal(sized((256, 128), (8, 4))).astype(np.float32))
    small = put((rng.standard_normal((sized(1000, 4), 3, 3)) + 3 * np.eye(3)).astype(np.float32))
    signal = put(rng.standard_normal(sized(2 ** 20, 64)).astype(np.float32))
    logits = put(rng.standard_normal(sized(1_000_000, 100)).astype(np.float32))

    solve, cholesky, eigh = api.jit(jnp.linalg.solve), api.jit(jnp.linalg.cholesky), api.jit(jnp.linalg.eigh)
    svd, inv, fft = api.jit(jnp.linalg.svd), api.jit(jnp.linalg.inv), api.jit(jnp.fft.fft)
    logsumexp = api.jit(special.logsumexp)

    def ready(result):
        return api.block_until_ready(result)

    timed = {
        ("eager/linalg.solve_512x512", "ms"): lambda: ready(jnp.linalg.solve(a512, b512)),
        ("jit/linalg.solve_512x512", "ms"): lambda: ready(solve(a512, b512)),
        ("eager/linalg.cholesky_256x256", "us"): lambda: ready(jnp.linalg.cholesky(s256)),
        ("jit/linalg.cholesky_256x256", "us"): lambda: ready(cholesky(s256)),
        ("eager/linalg.eigh_256x256", "ms"): lambda: ready(jnp.linalg.eigh(s256)),
        ("jit/linalg.eigh_256x256", "ms"): lambda: ready(eigh(s256)),
        ("eager/linalg.svd_256x128", "ms"): lambda: ready(jnp.linalg.svd(tall)),
        ("jit/linalg.svd_256x128", "ms"): lambda: ready(svd(tall)),
        ("eager/linalg.inv_1000x3x3", "us"): lambda: ready(jnp.linalg.inv(small)),
        ("jit/linalg.inv_1000x3x3", "us"): lambda: ready(inv(small)),
        ("eager/fft.fft_2^20", "ms"): lambda: ready(jnp.fft.fft(signal)),
        ("jit/fft.fft_2^20", "ms"): lambda: ready(fft(signal)),
        ("eager/special.logsumexp_1e6", "us"): lambda: ready(special.logsumexp(logits)),
        ("jit/special.logsumexp_1e6", "us"): lambda: ready(logsumexp(logits)),
    }
    timed.update(attention_cases(api, nn, rng))
    return timed


def main():
    print_timings(cases(sys.argv[1]))


if __name__ == "__main__":
    main()
