"""jaxle's program against JAX 0.10.2's, both compiled and run in one process (jaxle only).

Usage: python same_process_bench.py jaxle   (prints one JSON object per line; the jax run prints nothing)

Each row of the side-by-side table compares two processes, and one process of a program can run 10-30% slower than
another process of the same program for its whole life (see docs/performance.md). This script takes that draw out
of the comparison of the jitted programs themselves: for each program of packages/jaxle/tests/golden/
make_benchmark_hlo_golden.py it compiles jaxle's StableHLO and JAX 0.10.2's (stored in benchmark_hlo_golden.json)
with the same client, checks that both compute the same bits, and times the two executables in alternating blocks
of calls in this one process. Each case prints two rows, ``same_process/<case>/jaxle_program`` and
``.../jax_program`` (the best block of each, microseconds per call: execution only, no Python dispatch).
"""

import json
import pathlib
import sys

import numpy as np

from tree_bench import TIMER, TINY

GOLDEN_DIR = pathlib.Path(__file__).parents[1] / "packages" / "jaxle" / "tests" / "golden"
# At tiny sizes (the test session) one small program shows the code runs; the others take long to compile.
TINY_CASES = ("gather_x[idx]",)
BLOCKS = 12  # blocks of calls per program, alternating which program goes first


def arguments(jaxle, specs, rng):
    """Concrete device arrays for ``specs``: a zero key for a raw key, indices in range for the gather and
    scatter tables (1,000 rows), normal floats otherwise; concrete arguments (the programs') as they are."""
    out = []
    for spec in jaxle.tree.leaves(specs):
        if not isinstance(spec, jaxle.ShapeDtypeStruct):
            out.append(jaxle.device_put(spec))
        elif spec.dtype == np.uint32:
            out.append(jaxle.device_put(np.zeros(spec.shape, np.uint32)))
        elif np.issubdtype(spec.dtype, np.integer):
            out.append(jaxle.device_put(rng.integers(0, 1000, spec.shape).astype(spec.dtype)))
        else:
            out.append(jaxle.device_put(rng.standard_normal(spec.shape).astype(spec.dtype)))
    return out


def time_alternating(calls, number):
    """Best mean time per call (microseconds) of each of ``calls``, timed in alternating blocks of ``number``."""
    best = [float("inf")] * len(calls)
    for block in range(1 if TINY else BLOCKS):
        order = range(len(calls)) if block % 2 == 0 else reversed(range(len(calls)))
        for index in order:
            best[index] = min(best[index], _seconds(calls[index], number) / number * 1e6)
    return best


def _run(jaxle, executable, args, handlers):
    """One execution of ``executable`` on ``args``, waited for: its outputs."""
    return jaxle.block_until_ready(executable.execute_sharded(args).consume_with_handlers(handlers))


def _seconds(call, number):
    start = TIMER()
    for _ in range(number):
        call()
    return TIMER() - start


def main():
    if sys.argv[1] != "jaxle":
        return
    sys.path.insert(0, str(GOLDEN_DIR))
    import make_benchmark_hlo_golden as cases

    import jaxle
    import jaxle.nn  # noqa: F401 - the cases reach them as attributes of jaxle
    import jaxle.numpy  # noqa: F401
    import jaxle.random  # noqa: F401
    import jaxle.scipy.special  # noqa: F401
    from jaxle_core.avals import ShapedArray
    from jaxle_xla import _jaxlib, clients

    golden = json.loads((GOLDEN_DIR / "benchmark_hlo_golden.json").read_text())
    device = clients.default_device()
    rng = np.random.default_rng(0)
    for case in TINY_CASES if TINY else sorted(cases.CASES):
        fun, specs = cases.CASES[case](jaxle)
        args = arguments(jaxle, specs, rng)
        tree_args = jaxle.tree.unflatten(jaxle.tree.structure(specs), args)
        ours = jaxle.jit(fun).lower(*tree_args).as_text()
        executables = [_jaxlib.compile(device.client, text, device) for text in (ours, golden[case])]
        handlers = [_jaxlib.result_handler(ShapedArray(out.shape, out.dtype), device, False)
                    for out in jaxle.tree.leaves(jaxle.eval_shape(fun, *tree_args))]
        calls = [lambda e=executable, a=args, h=handlers: _run(jaxle, e, a, h) for executable in executables]
        results = [[np.asarray(out) for out in call()] for call in calls]
        if not all(np.array_equal(a, b, equal_nan=True) for a, b in zip(*results)):
            raise AssertionError(f"{case}: jaxle's program and JAX's compute different bits")
        number = 1
        while not TINY and _seconds(calls[0], number) < 0.05:  # blocks of 50 ms or more
            number *= 2
        for side, value in zip(("jaxle_program", "jax_program"), time_alternating(calls, number)):
            print(json.dumps({"name": f"same_process/{case}/{side}", "value": round(value, 3), "unit": "us"}),
                  flush=True)


if __name__ == "__main__":
    main()
