"""The benchmark code runs (it is not timed here): every benchmarks/*_bench.py with jaxle at tiny sizes
(BENCH_SIZE=tiny) prints well-formed JSON lines, one per benchmark, and run.py reads them and builds its table;
the programs the whole-program benchmarks time compute what JAX 0.10.2 computes (golden summaries) and the
first-call function what NumPy computes."""

import json
import math
import os
import pathlib
import subprocess
import sys
import threading

import numpy as np
import pytest
from make_benchmark_results_golden import program_results  # integration-tests/golden, on the path (conftest)

import jaxle
import jaxle.nn  # noqa: F401 - the programs reach them as attributes of jaxle
import jaxle.numpy  # noqa: F401

BENCHMARKS = pathlib.Path(__file__).parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import programs_bench  # noqa: E402 - found through the path set just above
import run as bench_run  # noqa: E402 - benchmarks/run.py
import tree_bench  # noqa: E402

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "benchmark_results_golden.json").read_text())
SCRIPTS = sorted(path.name for path in BENCHMARKS.glob("*_bench.py"))
UNITS = {"us", "ms", "eqns"}
# XLA compiling is most of a tiny run's time: spend less of it optimising programs that run once or twice
QUICK_XLA = "--xla_backend_optimization_level=0 --xla_llvm_disable_expensive_passes=true"


def _run_tiny(script: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "BENCH_SIZE": "tiny", "PYTHONPATH": os.pathsep.join(sys.path),
           "XLA_FLAGS": f"{os.environ.get('XLA_FLAGS', '')} {QUICK_XLA}".strip()}
    return subprocess.run([sys.executable, script, "jaxle"], cwd=BENCHMARKS, env=env, capture_output=True,
                          text=True, timeout=600, check=False)


@pytest.mark.parametrize("script", SCRIPTS)
def test_bench_script_prints_one_well_formed_record_per_benchmark(script):
    completed = _run_tiny(script)
    assert completed.returncode == 0, completed.stderr
    # a case a script cannot run is reported on stderr as "name: ErrorType: message" and left out of the table
    assert not [line for line in completed.stderr.splitlines() if "Error: " in line], completed.stderr
    records = [json.loads(line) for line in completed.stdout.splitlines()]
    assert records, completed.stdout
    names = [record["name"] for record in records]
    assert len(set(names)) == len(names), names
    for record in records:
        assert set(record) == {"name", "value", "unit"}, record
        assert isinstance(record["name"], str) and record["name"]
        assert record["unit"] in UNITS, record
        assert isinstance(record["value"], (int, float)) and math.isfinite(record["value"]) and record["value"] >= 0
        if record["unit"] == "eqns":
            assert isinstance(record["value"], int) and record["value"] > 0, record


def test_run_reads_a_script_and_tabulates_its_ratios(monkeypatch, capsys):
    monkeypatch.setenv("BENCH_SIZE", "tiny")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(sys.path))
    progress = []

    class Lines:
        def write(self, text):
            progress.append(text)

        def flush(self):
            pass

    ours = bench_run.run_bench(sys.executable, BENCHMARKS / "tree_bench.py", "jaxle", "cpu", progress=Lines())
    expected = {f"{case}/{size}" for size in ("small", "large")
                for case in ("tree_flatten", "tree_unflatten", "tree_map", "tree_map_2_trees")}
    assert set(ours) == expected
    assert len(progress) == len(expected) and all(line.startswith("tree_bench jaxle: ") for line in progress)
    rows = [(name, [value], [2 * value], unit) for name, (value, unit) in ours.items()]
    lines = bench_run.table(rows).splitlines()
    assert lines[:2] == ["| benchmark | jaxle | jax | ratio jaxle/jax | run-to-run spread |",
                         "|---|---:|---:|---:|---:|"]
    assert len(lines) == 2 + len(expected) and all(line.endswith("| 0.50 | n/a |") for line in lines[2:])
    assert bench_run.run_bench(sys.executable, BENCHMARKS / "no_such_bench.py", "jaxle") == {}
    assert "no_such_bench.py (jaxle) failed" in capsys.readouterr().err


def _assert_summary_close(ours, theirs):
    assert (ours["shape"], ours["dtype"]) == (theirs["shape"], theirs["dtype"])
    size = max(1, math.prod(theirs["shape"]))
    scale = theirs["abs_sum"] / size  # float32 programs: compare at a few ulps of the leaf's typical magnitude
    np.testing.assert_allclose(ours["head"], theirs["head"], rtol=1e-3, atol=1e-3 * scale)
    np.testing.assert_allclose(ours["sum"], theirs["sum"], rtol=0, atol=1e-4 * theirs["abs_sum"] + 1e-6)
    np.testing.assert_allclose(ours["abs_sum"], theirs["abs_sum"], rtol=1e-4)


def test_benchmarked_programs_compute_what_jax_computes():
    results = program_results(jaxle)
    assert set(results) == set(GOLDEN)
    for name, leaves in results.items():
        assert len(leaves) == len(GOLDEN[name]), name
        for ours, theirs in zip(leaves, GOLDEN[name]):
            _assert_summary_close(ours, theirs)


def test_first_call_function_computes_the_sine_chain():
    equations = 20
    result = np.asarray(programs_bench.first_call(jaxle, equations)())
    expected = np.linspace(0, 1, 16, dtype=np.float32)
    for i in range(equations // 2):
        expected = np.sin(expected) * np.float32(1.0 + i % 7)
    np.testing.assert_allclose(result, expected, rtol=1e-5)


def test_run_alternates_which_side_goes_first():
    ours, theirs = {}, {}
    orders = [[implementation for _, _, implementation in bench_run.sides(turn, ours, theirs, "peer")]
              for turn in range(4)]
    assert orders == [["jaxle", "jax"], ["jax", "jaxle"]] * 2
    first, second = bench_run.sides(1, ours, theirs, "peer")
    assert first[0] is theirs and first[1] == "peer" and second[0] is ours and second[1] == sys.executable


def test_turns_alternate_between_the_two_sides_until_one_ends():
    to_second, to_first = os.pipe(), os.pipe()
    steps = []

    def side(name, receive, send, first, count):
        turns = tree_bench.Turns(f"{receive},{send}", first)
        for _ in range(count):
            steps.append(name)
            turns.hand_over()
        os.close(receive)  # the side's process ends
        os.close(send)

    threads = [threading.Thread(target=side, args=("a", to_first[0], to_second[1], True, 3)),
               threading.Thread(target=side, args=("b", to_second[0], to_first[1], False, 5))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert steps == ["a", "b", "a", "b", "a", "b", "b", "b"]


def test_run_runs_both_sides_of_a_script_at_once(monkeypatch):
    monkeypatch.setenv("BENCH_SIZE", "tiny")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(sys.path))
    ours, theirs = {}, {}
    order = [(ours, sys.executable, "jaxle"), (theirs, sys.executable, "jaxle")]
    first, second = bench_run.run_side_by_side(BENCHMARKS / "tree_bench.py", order, "cpu", "steady")
    assert set(first) == set(second) and len(first) == 8


def test_run_pairs_the_rows_one_process_timed_for_both_sides():
    rows = [("same_process/fft/jaxle_program", [9.0], [], "us"), ("same_process/fft/jax_program", [10.0], [], "us"),
            ("eager/split", [1.0], [2.0], "us"), ("lonely/jax_program", [3.0], [], "us")]
    assert bench_run.paired(rows) == [("same_process/fft", [9.0], [10.0], "us"), ("eager/split", [1.0], [2.0], "us"),
                                      ("lonely/jax_program", [3.0], [], "us")]
    lines = bench_run.table(bench_run.paired(rows)).splitlines()
    assert lines[2] == "| same_process/fft | 9.000 us | 10.000 us | 0.90 | n/a |"
    assert lines[4] == "| lonely/jax_program | 3.000 us | n/a | n/a | n/a |"


def test_the_table_reports_each_sides_best_run_and_the_larger_run_to_run_spread():
    rows = [("jit/f", [12.0, 10.0], [11.0, 11.5], "us"), ("eager/g", [4.0], [5.0, 4.0], "us")]
    lines = bench_run.table(rows).splitlines()
    # jaxle's best 10 against JAX's best 11; jaxle's runs differ by 12/10, JAX's by 11.5/11
    assert lines[2] == "| jit/f | 10.000 us | 11.000 us | 0.91 | 1.20 |"
    assert lines[3] == "| eager/g | 4.000 us | 4.000 us | 1.00 | 1.25 |"


def test_run_sets_openblas_threads_and_short_runs_in_the_scripts_environment(tmp_path, monkeypatch):
    script = tmp_path / "env_bench.py"
    script.write_text("import json, os\n"
                      "print(json.dumps({'name': 'blas', 'value': int(os.environ.get('OPENBLAS_NUM_THREADS', 0))}))\n"
                      "print(json.dumps({'name': 'short', 'value': int(os.environ['BENCH_SHORT'])}))\n")
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    assert bench_run.run_bench(sys.executable, script, "jaxle", short=True) == {"blas": (1.0, "us"),
                                                                                 "short": (1.0, "us")}
    assert bench_run.run_bench(sys.executable, script, "jaxle", blas_threads=0) == {"blas": (0.0, "us"),
                                                                                    "short": (0.0, "us")}


@pytest.mark.parametrize("short, repeat, calls", [(False, 7, 1 + 7), (True, 7, 1 + 3), (True, 3, 1 + 2)])
def test_short_runs_time_about_half_the_repeats(monkeypatch, short, repeat, calls):
    monkeypatch.setattr(tree_bench, "TINY", False)
    monkeypatch.setattr(tree_bench, "SHORT", short)
    count = []
    tree_bench.time_us(lambda: count.append(1), target_seconds=1e-12, repeat=repeat)  # a calibrating call, then repeats
    assert len(count) == calls


def test_the_xla_bound_scripts_get_more_shorter_runs(monkeypatch):
    assert bench_run.XLA_BOUND <= {pathlib.Path(name).stem for name in SCRIPTS}
    calls = []

    def fake(script, order, clock, malloc, progress=None, blas_threads=1, short=False):
        calls.append((script.stem, short, blas_threads))
        return [{}, {}]

    monkeypatch.setattr(bench_run, "run_side_by_side", fake)
    for only in ("vmap_loops", "tree"):
        monkeypatch.setattr(sys, "argv", ["run.py", "--peer-python", "peer", "--only", only])
        bench_run.main()
    assert calls == [("vmap_loops_bench", True, 1)] * 4 + [("tree_bench", False, 1)] * 2
