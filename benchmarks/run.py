"""Run every benchmarks/*_bench.py for jaxle and for JAX, and print a ratio table.

    python benchmarks/run.py --peer-python /path/to/jax-venv/bin/python [--markdown FILE] [--only NAME] [--runs N]
        [--xla-runs N] [--clock wall|cpu] [--malloc steady|system] [--blas-threads N] [--sequential]

Each bench script takes the implementation name (``jaxle`` or ``jax``) and prints one JSON
object per line: ``{"name": ..., "value": ..., "unit": "us"}``; lower is better.

Each script runs ``--runs`` times per side (2 unless told: an even number gives each side as many first turns), each
run a fresh process; a benchmark's value is its best over the runs. The scripts whose rows are XLA running compiled
programs (``XLA_BOUND``) run ``--xla-runs`` times instead (4 unless told), each run timing about half as many
repeats (``tree_bench.SHORT``): their time goes to more processes, each a fresh draw of the lottery below, rather
than to more repeats of one draw. In each run the two sides' processes run at once and take turns
(``tree_bench.Turns``): one timed repeat of jaxle's, one of JAX's, and so on, so that both meet the same spells of a
loaded machine; the sides take turns at going first from one run to the next (``--sequential`` runs one side's
script after the other's instead). One process of a program can be 10-20% slower than the next process of the same
program for its whole life (where the scheduler puts XLA's worker threads and how long they spin), so one run per
side compares one draw of that lottery per side; the best of several compares each side's good draws.

The table's last column is the run-to-run spread: for each side, its slowest run's value over its fastest run's
(an A/A comparison of one implementation with itself, in the same run), the larger of the two sides. A ratio
within that spread of 1.00 is a difference this run cannot tell from the process lottery; the jitted programs
whose optimised HLO is JAX's (see docs/performance.md) read so.

Both sides run under the same glibc malloc settings (``--malloc steady``, the default): one arena and fixed
mmap/trim thresholds, so that a program's multi-megabyte buffers are reused from the heap on every call. With
glibc's defaults, whether they are instead mapped afresh (a page fault per 4 KiB page: 1,000-5,000 per call of a
2^20-point FFT, a third of its time) depends on which thread allocated what earlier in the process, and it
changes from run to run and from one benchmark to the next in the same process, for JAX and jaxle alike.

Both sides run OpenBLAS (behind jaxlib's LAPACK calls) on one thread (``--blas-threads 1``, the default): with its
own worker threads beside XLA's on a small machine, one LAPACK-backed program compiled twice in one process read
0.92-1.16 against itself (the same executable's two copies, timed in alternating blocks), and 0.97-1.02 on one
thread.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

HERE = Path(__file__).parent


# glibc reads these at start-up: a single arena, and heap memory neither handed back to the system nor
# replaced by fresh mappings for buffers under 32 MiB (the settings an explicit value disables adapting).
STEADY_MALLOC = {"MALLOC_ARENA_MAX": "1", "MALLOC_MMAP_THRESHOLD_": str(32 << 20),
                 "MALLOC_TRIM_THRESHOLD_": str(256 << 20)}

# The scripts whose rows are mostly XLA's execution of compiled programs (jitted calls, LAPACK, whole training steps):
# the process lottery moves their rows most, so they get more runs, each shorter.
XLA_BOUND = frozenset({"linalg_bench", "numpy_bench", "programs_bench", "random_bench", "vmap_loops_bench"})


def run_bench(python: str, script: Path, implementation: str, clock: str = "wall",
              malloc: str = "steady", progress=None, turns: tuple[int, int, bool] | None = None,
              blas_threads: int = 1, short: bool = False) -> dict[str, tuple[float, str]]:
    """Run one bench script for ``implementation``: ``{name: (value, unit)}`` of the JSON lines it prints, each
    also written to ``progress`` (a text stream) as it arrives; ``{}`` if the script fails. ``turns`` is (receive
    fd, send fd, whether this side goes first) when the script takes turns with the other side's (see
    ``tree_bench.Turns``); the fds are the child's and closed here once it has them. ``blas_threads`` (0: OpenBLAS's
    own choice) sets OpenBLAS's threads; ``short`` asks for about half the timed repeats (``tree_bench.SHORT``)."""
    env = {**(STEADY_MALLOC if malloc == "steady" else {}), **os.environ, "BENCH_CLOCK": clock}
    if blas_threads:
        env["OPENBLAS_NUM_THREADS"] = str(blas_threads)
    env["BENCH_SHORT"] = "1" if short else "0"
    env.pop("BENCH_TURN_FDS", None)
    if turns is not None:
        env.update(BENCH_TURN_FDS=f"{turns[0]},{turns[1]}", BENCH_TURN_FIRST="1" if turns[2] else "0")
    results = {}
    # stderr goes to a file, not a pipe: a script writing much there while its stdout is being read must not block
    with tempfile.TemporaryFile("w+") as errors, subprocess.Popen(
            [python, str(script), implementation], stdout=subprocess.PIPE, stderr=errors, text=True, env=env,
            pass_fds=turns[:2] if turns is not None else (),
    ) as process:
        if turns is not None:  # the child's ends: an end left open here would keep the other side from seeing EOF
            os.close(turns[0])
            os.close(turns[1])
        for line in process.stdout:  # one line per benchmark, flushed by the script as soon as it is timed
            line = line.strip()
            if line.startswith("{"):
                record = json.loads(line)
                results[record["name"]] = (float(record["value"]), record.get("unit", "us"))
                if progress is not None:
                    progress.write(f"{script.stem} {implementation}: {record['name']} "
                                   f"{float(record['value']):.3f} {record.get('unit', 'us')}\n")
                    progress.flush()
        process.wait()
        if process.returncode != 0:
            errors.seek(0)
            sys.stderr.write(f"{script.name} ({implementation}) failed:\n{errors.read()}\n")
            return {}
    return results


def sides(turn: int, ours: dict, theirs: dict, peer_python: str) -> list[tuple[dict, str, str]]:
    """The two sides, as (results, python, implementation), in the order they start in run ``turn``: they take
    turns at going first, so that neither always starts its work (or its script) right after the other's."""
    order = [(ours, sys.executable, "jaxle"), (theirs, peer_python, "jax")]
    return order if turn % 2 == 0 else order[::-1]


def run_side_by_side(script: Path, order: list[tuple[dict, str, str]], clock: str, malloc: str,
                     progress=None, blas_threads: int = 1, short: bool = False) -> list[dict[str, tuple[float, str]]]:
    """Run ``script`` for both sides of ``order`` ((results, python, implementation), first side first) at once,
    taking turns (``tree_bench.Turns``): the timings of each side, in ``order``'s order (``blas_threads`` and
    ``short`` as for ``run_bench``)."""
    to_second, to_first = os.pipe(), os.pipe()  # (read, write) each
    ends = [(to_first[0], to_second[1], True), (to_second[0], to_first[1], False)]
    timings: list[dict[str, tuple[float, str]]] = [{}, {}]

    def run(index: int) -> None:
        _, python, implementation = order[index]
        timings[index] = run_bench(python, script, implementation, clock, malloc, progress, ends[index],
                                   blas_threads, short)

    threads = [threading.Thread(target=run, args=(index,)) for index in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return timings


PROGRAM_SIDES = ("/jaxle_program", "/jax_program")
Runs = list[float]  # one benchmark's value in each run of one side, in run order
Row = tuple[str, Runs, Runs, str]  # name, jaxle's values, JAX's values (empty where a side has none), unit


def paired(rows: list[Row]) -> list[Row]:
    """``rows`` with each pair that one process timed for both sides (same_process_bench.py prints
    ``<case>/jaxle_program`` and ``<case>/jax_program``, both as jaxle's values) as one row ``<case>``, so that the
    table gives its ratio."""
    values = {name: ours for name, ours, _, _ in rows}
    out = []
    for name, ours, theirs, unit in rows:
        if name.endswith(PROGRAM_SIDES[0]) and name[:-len(PROGRAM_SIDES[0])] + PROGRAM_SIDES[1] in values:
            case = name[:-len(PROGRAM_SIDES[0])]
            out.append((case, ours, values[case + PROGRAM_SIDES[1]], unit))
        elif not (name.endswith(PROGRAM_SIDES[1]) and name[:-len(PROGRAM_SIDES[1])] + PROGRAM_SIDES[0] in values):
            out.append((name, ours, theirs, unit))
    return out


def spread(ours: Runs, theirs: Runs) -> float | None:
    """The larger of the two sides' slowest-over-fastest run ratios (None if neither side ran twice)."""
    spreads = [max(runs) / min(runs) for runs in (ours, theirs) if len(runs) > 1 and min(runs) > 0]
    return max(spreads) if spreads else None


def table(rows: list[Row]) -> str:
    """The markdown table of ``rows``: each side's best value, their ratio and the run-to-run spread."""
    lines = ["| benchmark | jaxle | jax | ratio jaxle/jax | run-to-run spread |", "|---|---:|---:|---:|---:|"]
    for name, ours, theirs, unit in rows:
        best_ours, best_theirs = min(ours, default=None), min(theirs, default=None)
        ours_text = f"{best_ours:.3f} {unit}" if best_ours is not None else "n/a"
        theirs_text = f"{best_theirs:.3f} {unit}" if best_theirs is not None else "n/a"
        ratio = f"{best_ours / best_theirs:.2f}" if best_ours is not None and best_theirs else "n/a"
        noise = spread(ours, theirs)
        lines.append(f"| {name} | {ours_text} | {theirs_text} | {ratio} | {f'{noise:.2f}' if noise else 'n/a'} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer-python", required=True, help="python of a venv with JAX 0.10.2 installed")
    parser.add_argument("--markdown", help="also write the table to this file")
    parser.add_argument("--only", help="run only bench scripts whose name contains this")
    parser.add_argument("--runs", type=int, default=2,
                        help="run each script this many times per side, in fresh processes, and keep each benchmark's "
                             "best")
    parser.add_argument("--xla-runs", type=int, default=4,
                        help="the same for the XLA-bound scripts (XLA_BOUND), each run timing about half as many "
                             "repeats")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="time by wall clock or by the process's CPU time, all threads counted (loaded machines)")
    parser.add_argument("--sequential", action="store_true",
                        help="run one side's script after the other's instead of both at once taking turns")
    parser.add_argument("--malloc", choices=("steady", "system"), default="steady",
                        help="run both sides under the same fixed glibc malloc settings (steady: large buffers are "
                             "reused, not faulted in afresh on each call) or under glibc's adaptive defaults")
    parser.add_argument("--blas-threads", type=int, default=1,
                        help="OpenBLAS's threads on both sides (OPENBLAS_NUM_THREADS; 0 leaves OpenBLAS's default)")
    args = parser.parse_args()
    rows = []
    for script in sorted(HERE.glob("*_bench.py")):
        if args.only and args.only not in script.name:
            continue
        ours: dict[str, tuple[Runs, str]] = {}
        theirs: dict[str, tuple[Runs, str]] = {}
        short = script.stem in XLA_BOUND
        for turn in range(args.xla_runs if short else args.runs):
            order = sides(turn, ours, theirs, args.peer_python)
            if args.sequential:
                runs = [run_bench(python, script, implementation, args.clock, args.malloc, sys.stderr, None,
                                  args.blas_threads, short) for _, python, implementation in order]
            else:
                runs = run_side_by_side(script, order, args.clock, args.malloc, sys.stderr, args.blas_threads, short)
            for (results, _, _), timings in zip(order, runs):
                for name, (value, unit) in timings.items():
                    results.setdefault(name, ([], unit))[0].append(value)
        for name in list(ours) + [n for n in theirs if n not in ours]:
            unit = (ours.get(name) or theirs.get(name))[1]
            rows.append((name, ours.get(name, ([],))[0], theirs.get(name, ([],))[0], unit))
    text = table(paired(rows))
    print(text, end="")
    if args.markdown:
        Path(args.markdown).write_text(text)
    return 0 if rows else 1


if __name__ == "__main__":
    sys.exit(main())
