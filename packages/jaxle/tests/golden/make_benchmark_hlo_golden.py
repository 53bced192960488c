"""Write benchmark_hlo_golden.json: the StableHLO text (``jit(f).lower(*args).as_text()``) of the programs
benchmarks/random_bench.py, linalg_bench.py (LAPACK's, FFT, ``logsumexp``, attention) and numpy_bench.py time
jitted, and of programs_bench.py's training steps, transformer block, scan and per-example gradients, for the
optimised-HLO comparison of test_benchmark_hlo.py; also vmap_loops_bench.py's jitted cases, xla_bench.py's cached call
and parallel_bench.py's one-device batched matmul.

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_benchmark_hlo_golden.py jax
"""

import importlib
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parents[4] / "benchmarks"))

from golden_writer import write_golden

import programs_bench  # noqa: E402 - found through the path set just above
import vmap_loops_bench  # noqa: E402
from linalg_bench import spd  # noqa: E402

F32 = np.dtype(np.float32)


def _spec(m, shape, dtype=F32):
    return m.ShapeDtypeStruct(shape, dtype)


def _matrices(*shapes):
    """Concrete float32 operands for the LAPACK-backed cases: an ``(n, n)`` shape gives a symmetric positive
    definite matrix, any other shape standard normal values (plus 3 on the diagonals of a batch of 3x3 matrices)."""
    rng = np.random.default_rng(0)
    out = []
    for shape in shapes:
        if len(shape) == 2 and shape[0] == shape[1]:
            out.append(spd(rng, shape[0]))
        else:
            values = rng.standard_normal(shape)
            out.append((values + 3 * np.eye(3) if shape[-2:] == (3, 3) else values).astype(np.float32))
    return out


def _mlp(m, x, *params):
    """numpy_bench's MLP forward (64-256-256-10), weights and biases as separate arguments."""
    layers = list(zip(params[::2], params[1::2]))
    for w, b in layers[:-1]:
        x = m.numpy.maximum(x @ w + b, 0.0)
    w, b = layers[-1]
    return x @ w + b


def _mlp_specs(m):
    widths = [64, 256, 256, 10]
    params = [spec for i, o in zip(widths[:-1], widths[1:]) for spec in (_spec(m, (i, o)), _spec(m, (o,)))]
    return [_spec(m, (128, 64)), *params]


# name -> (the jitted function, the argument specs), for the module ``m`` (jax or jaxle)
CASES = {
    "random.normal_1e6": lambda m: (lambda k: m.random.normal(k, (1_000_000,)), [_spec(m, (2,), np.uint32)]),
    "random.split_1e5_keys": lambda m: (lambda k: m.random.split(k, 100_000), [_spec(m, (2,), np.uint32)]),
    "random.uniform_1e7": lambda m: (lambda k: m.random.uniform(k, (10_000_000,)), [_spec(m, (2,), np.uint32)]),
    "random.vmap_normal_1e3_keys_x_1e3": lambda m: (m.vmap(lambda k: m.random.normal(k, (1000,))),
                                                    [_spec(m, (1000, 2), np.uint32)]),
    "linalg.solve_512x512": lambda m: (m.numpy.linalg.solve, _matrices((512, 512), (512, 1))),
    "linalg.cholesky_256x256": lambda m: (m.numpy.linalg.cholesky, _matrices((256, 256))),
    "linalg.eigh_256x256": lambda m: (m.numpy.linalg.eigh, _matrices((256, 256))),
    "linalg.svd_256x128": lambda m: (m.numpy.linalg.svd, _matrices((256, 128))),
    "linalg.inv_1000x3x3": lambda m: (m.numpy.linalg.inv, _matrices((1000, 3, 3))),
    "fft.fft_2^20": lambda m: (m.numpy.fft.fft, [_spec(m, (2 ** 20,))]),
    "dot_product_attention_4x128x8x64": lambda m: (m.nn.dot_product_attention, [_spec(m, (4, 128, 8, 64))] * 3),
    "special.logsumexp_1e6": lambda m: (m.scipy.special.logsumexp, [_spec(m, (1_000_000,))]),
    "gather_x[idx]": lambda m: (lambda t, i: t[i], [_spec(m, (1000, 64)), _spec(m, (256,), np.int32)]),
    "scatter_.at[idx].add": lambda m: (lambda t, i, u: t.at[i].add(u),
                                       [_spec(m, (1000, 64)), _spec(m, (256,), np.int32), _spec(m, (256, 64))]),
    "einsum_ij,jk,kl": lambda m: (lambda a, b, c: m.numpy.einsum("ij,jk,kl->il", a, b, c),
                                  [_spec(m, (128, 256)), _spec(m, (256, 64)), _spec(m, (64, 32))]),
    "sort_1e6": lambda m: (m.numpy.sort, [_spec(m, (1_000_000,))]),
    "mlp_forward_128x64": lambda m: (lambda x, *p: _mlp(m, x, *p), _mlp_specs(m)),
    "jit_dispatch/3_elements": lambda m: (lambda a: m.lax.add(m.lax.sin(a), a), [_spec(m, (3,))]),
    "jit_batched_matmul/1_device_8x64x64": lambda m: (lambda a: a @ a, [_spec(m, (8, 64, 64))]),
    # programs_bench's makers return the function and its (concrete) arguments
    **{f"program/{make.__name__}": make for make in programs_bench.PROGRAMS},
    **{name: lambda m, name=name: vmap_loops_bench.programs(m, m.lax, m.device_put)[name]
       for name in vmap_loops_bench.JITTED},
}


def lowered_text(m, case):
    fun, specs = CASES[case](m)
    return m.jit(fun).lower(*specs).as_text()


def main():
    m = importlib.import_module(sys.argv[1])
    for name in ("lax", "numpy", "numpy.fft", "numpy.linalg", "nn", "random", "scipy.special"):
        importlib.import_module(f"{sys.argv[1]}.{name}")
    golden = {case: lowered_text(m, case) for case in CASES}
    path = pathlib.Path(__file__).with_name("benchmark_hlo_golden.json")
    write_golden(golden, path)


if __name__ == "__main__":
    main()
