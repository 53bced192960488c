"""Write benchmark_results_golden.json: what one call of each steady-state program of benchmarks/programs_bench.py
(the training steps, the scan RNN, the per-example gradients) returns with JAX 0.10.2, summarised leaf by leaf.

    /work/jaxpeer/bin/python integration-tests/golden/make_benchmark_results_golden.py jax

test_benchmarks_run.py computes the same summaries with jaxle (``program_results``) and compares them.
"""

import importlib
import json
import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE.parents[1] / "benchmarks"))

import programs_bench  # noqa: E402 - found through the path set just above


def summary(leaf) -> dict:
    """A leaf's shape, dtype, first values, sum and sum of absolute values (float64 sums)."""
    values = np.asarray(leaf)
    wide = values.astype(np.float64)
    return {"shape": list(values.shape), "dtype": str(values.dtype), "head": wide.ravel()[:4].tolist(),
            "sum": float(wide.sum()), "abs_sum": float(np.abs(wide).sum())}


def program_results(jax) -> dict[str, list[dict]]:
    """``{program name: [summary of each output leaf]}`` for one jitted call of each of programs_bench's programs."""
    results = {}
    for make in programs_bench.PROGRAMS:
        fun, args = make(jax)
        results[make.__name__] = [summary(leaf) for leaf in jax.tree.leaves(jax.jit(fun)(*args))]
    return results


def main():
    jax = importlib.import_module(sys.argv[1])
    for name in ("numpy", "nn", "lax"):
        importlib.import_module(f"{sys.argv[1]}.{name}")
    out = HERE / "benchmark_results_golden.json"
    out.write_text(json.dumps(program_results(jax), indent=1) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
