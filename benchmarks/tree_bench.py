"""Pytree benchmarks: flatten, unflatten and tree_map on a small and a large tree.

Usage: python tree_bench.py jaxle|jax   (prints one JSON object per line, microseconds per call)
"""

import importlib
import json
import os
import sys
import time
import timeit

# The jaxle meta-package does not exist yet; map its name to the package that holds tree_util.
TREE_MODULES = {"jaxle": "jaxle_tree", "jax": "jax.tree_util"}


def small_tree():
    """15 leaves in nested dicts, lists and tuples, like a small model's parameters and state."""
    return {
        "params": {"w": [1.0, 2.0, 3.0], "b": (4.0, 5.0)},
        "state": [(6, 7), {"x": 8, "y": 9}],
        "opt": (10, [11, 12, {"m": 13, "v": 14}]),
        "step": 15,
    }


def large_tree():
    """10,000 leaves: 1,000 layers of {'w': [5 leaves], 'b': (5 leaves)}."""
    return {f"layer{i:04d}": {"w": [float(j) for j in range(5)], "b": tuple(range(5))} for i in range(1000)}


# BENCH_CLOCK=cpu (run.py --clock cpu) times by the process's CPU time, all threads counted: steadier than wall-clock
# time on a loaded machine, where a descheduled process keeps its wall clock running.
TIMER = time.process_time if os.environ.get("BENCH_CLOCK") == "cpu" else time.perf_counter

# BENCH_SIZE=tiny (the test session's smoke test of the benchmarks) runs every case once, on the tiny sizes that
# ``sized`` picks: the benchmark code is exercised, nothing is measured. Unset, the benchmarks run as they always do.
TINY = os.environ.get("BENCH_SIZE") == "tiny"


# BENCH_SHORT=1 (run.py's runs of the XLA-bound scripts, which get more runs): about half the timed repeats per run.
SHORT = os.environ.get("BENCH_SHORT") == "1"


def sized(full, tiny):
    """``full``, or ``tiny`` when the benchmarks run as a smoke test (BENCH_SIZE=tiny)."""
    return tiny if TINY else full


class Turns:
    """Taking turns with the other side's process (run.py runs jaxle's and JAX's scripts side by side): a process
    works only while it holds the one token, and hands it over after each timed repeat, so that the two sides'
    repeats alternate every fraction of a second and meet the same spells of a loaded machine. ``fds`` is
    "receive,send", the ends of the two pipes between the processes; the first side starts with the token, the
    other waits for it here. When the other process has ended (its pipe ends closed), this one goes on alone."""

    def __init__(self, fds: str | None, first: bool):
        self._receive, self._send = map(int, fds.split(",")) if fds else (None, None)
        self._alone = fds is None
        if not first:
            self._wait()

    def _wait(self):
        if not self._alone and not os.read(self._receive, 1):
            self._alone = True

    def hand_over(self):
        """Let the other side run one step, and wait until it hands the token back."""
        if self._alone:
            return
        try:
            os.write(self._send, b"t")
        except BrokenPipeError:
            self._alone = True
            return
        self._wait()


# Waits here, before a bench script imports JAX or jaxle, until it is this side's turn (run.py sets these).
TURNS = Turns(os.environ.get("BENCH_TURN_FDS"), os.environ.get("BENCH_TURN_FIRST") == "1")


def time_us(fn, target_seconds=0.2, repeat=7):
    """Min over ``repeat`` runs (about half as many when BENCH_SHORT=1) of the mean time per call, in microseconds (one
    call when BENCH_SIZE=tiny); the turn goes to the other side's process after each run."""
    if TINY:
        return timeit.timeit(fn, number=1, timer=TIMER) * 1e6
    if SHORT:
        repeat = max(2, repeat // 2)
    number = 1
    while timeit.timeit(fn, number=number, timer=TIMER) < target_seconds / 10:
        number *= 2
    best = float("inf")
    for _ in range(repeat):
        TURNS.hand_over()
        best = min(best, timeit.timeit(fn, number=number, timer=TIMER))
    TURNS.hand_over()
    return best / number * 1e6


def print_timings(cases):
    """Time each ``{(name, unit): fn}`` case ("us" or "ms"; the slow ones get fewer, longer repeats) and print it."""
    for (name, unit), fn in cases.items():
        fn()
        value = time_us(fn, target_seconds=0.5 if unit == "us" else 2.0, repeat=7 if unit == "us" else 3)
        print(json.dumps({"name": name, "value": round(value / (1000 if unit == "ms" else 1), 3), "unit": unit}),
              flush=True)


def main():
    tu = importlib.import_module(TREE_MODULES[sys.argv[1]])
    for size, tree in (("small", small_tree()), ("large", large_tree())):
        for name, fn in cases(tu, tree).items():
            print(json.dumps({"name": f"{name}/{size}", "value": round(time_us(fn), 3), "unit": "us"}), flush=True)


def cases(tu, tree):
    leaves, treedef = tu.tree_flatten(tree)
    return {
        "tree_flatten": lambda: tu.tree_flatten(tree),
        "tree_unflatten": lambda: tu.tree_unflatten(treedef, leaves),
        "tree_map": lambda: tu.tree_map(lambda x: x, tree),
        "tree_map_2_trees": lambda: tu.tree_map(lambda x, y: x, tree, tree),
    }


if __name__ == "__main__":
    main()
