"""Multi-process runs on localhost: ``jax.distributed`` and ``jax.experimental.multihost_utils``.

Each run starts its processes (multiprocess_worker.py) as subprocesses on free ports, bounded in time and killed
if they outlive it; what they report is checked against NumPy. Errors a process can raise are checked here, in this
process, whose XLA client has already started.
"""

from __future__ import annotations

import json
import os
import pathlib
import socket
import subprocess
import sys
import zlib

import numpy as np
import pytest

import jaxle as jax

HERE = pathlib.Path(__file__).parent
EXAMPLE = HERE.parents[2] / "examples" / "multiprocess_train.py"
sys.path[:0] = [str(HERE), str(EXAMPLE.parent)]
import multiprocess_train  # noqa: E402  (its data; its main runs in the subprocesses)
import multiprocess_worker as worker  # noqa: E402  (likewise)

RUN_TIMEOUT = 150  # seconds for a whole run: imports are slow on a loaded machine


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_processes(commands: list[list[str]]) -> list[str]:
    """Start every command at once; the stdout of each once all have finished (killed after RUN_TIMEOUT)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    processes = [subprocess.Popen([sys.executable, *c], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  env=env) for c in commands]
    try:
        outputs = [p.communicate(timeout=RUN_TIMEOUT) for p in processes]
    finally:
        for p in processes:
            if p.poll() is None:
                p.kill()
                p.communicate()
    for p, (out, err) in zip(processes, outputs):
        assert p.returncode == 0, f"exit code {p.returncode}\n{out}\n{err[-3000:]}"
    return [out for out, _ in outputs]


def run_workers(num_processes: int, *flags: str) -> list[dict]:
    port = str(free_port())
    outputs = run_processes([[str(HERE / "multiprocess_worker.py"), port, str(num_processes), str(i), *flags]
                             for i in range(num_processes)])
    return [json.loads(next(line[7:] for line in out.splitlines() if line.startswith("RESULT "))) for out in outputs]


def expected_step(num_processes: int) -> dict:
    """The SGD step on the whole batch from zero parameters, in NumPy."""
    x, y = (a.astype(np.float64) for a in worker.regression_data(num_processes))
    residual = -y
    grad_w = 2 * x.T @ residual / len(x)
    grad_b = 2 * residual.sum() / len(x)
    return {"loss": (residual ** 2).mean(), "w": -worker.LEARNING_RATE * grad_w, "b": -worker.LEARNING_RATE * grad_b}


def check_run(reports: list[dict]) -> None:
    n = len(reports)
    ids = [i * 2048 + k for i in range(n) for k in range(worker.LOCAL_DEVICES)]
    expected = expected_step(n)
    for pid, report in enumerate(reports):
        assert report["initialized"] and not report["after_shutdown"]
        assert report["devices"] == [f"CpuDevice(id={i})" for i in ids]
        assert report["device_processes"] == [i for i in range(n) for _ in range(worker.LOCAL_DEVICES)]
        assert report["local_devices"] == [f"CpuDevice(id={pid * 2048 + k})" for k in range(worker.LOCAL_DEVICES)]
        assert report["counts"] == [pid, n, n * worker.LOCAL_DEVICES, worker.LOCAL_DEVICES]
        total, replicated, addressable, described = report["psum"]
        np.testing.assert_allclose(total, np.arange(6.0).reshape(2, 3).sum(0) * n * (n + 1) / 2)
        assert replicated and not addressable and described == f"Array(shape=({2 * n}, 3), dtype=float32)"
        summed = float(sum(np.arange(2.0).sum() + 10 * i * 2 for i in range(n)))
        assert report["pmap"] == [f"Array([{summed:g}., {summed:g}.], dtype=float32)", [2 * pid, 2 * pid + 1],
                                  "NamedSharding(mesh=Mesh('i': 2, axis_types=(Auto,)), spec=P('i',), "
                                  "memory_kind=device)"]
        devices = n * worker.LOCAL_DEVICES
        assert report["pmap_lower"] == [
            f"((ShapedArray(float32[{devices}]),), {{}})",
            f"ShapeDtypeStruct(shape=({devices},), dtype=float32, sharding=NamedSharding(mesh=Mesh('i': {devices}, "
            "axis_types=(Auto,)), spec=P('i',), memory_kind=device))",
            "TypeError: Argument types differ from the types for which this computation was compiled. Perhaps you are "
            "calling the compiled executable with a different enable_x64 mode than when it was AOT compiled? The "
            "mismatches are:"]
        np.testing.assert_allclose(report["shard_map"], [np.arange(6.0).reshape(2, 3).sum(0) * n * (n + 1) / 2])
        step = report["step"]
        assert step["shape"] == [n * worker.ROWS_PER_PROCESS, worker.FEATURES]
        np.testing.assert_allclose(step["loss"], expected["loss"], rtol=1e-5)
        np.testing.assert_allclose(step["w"], expected["w"], rtol=1e-5)
        np.testing.assert_allclose(step["b"], expected["b"], rtol=1e-5, atol=1e-7)


def test_two_processes_with_the_store_and_barriers():
    reports = run_workers(2, "--store")
    check_run(reports)
    hashes = [zlib.crc32(f"point {i}".encode()) for i in range(2)]
    for pid, report in enumerate(reports):
        assert report["values"] == ["hello from 0", "hello from 1"]
        assert report["overwrite"] == f"JaxRuntimeError: ALREADY_EXISTS: key rank/{pid} already exists."
        assert report["missing"] == "JaxRuntimeError: NOT_FOUND: Config key no/such/key not found."
        assert report["timeout"].startswith("JaxRuntimeError: DEADLINE_EXCEEDED: GetKeyValue() timed out with key: "
                                            "no/such/key and duration: 50ms")
        assert report["bytes"] == [0, 255, 1 - pid]
        assert report["directory"] == [["rank/0", "replaced"], ["rank/1", "replaced"]]
        assert report["late"] == "set before the barrier"
        assert report["counter_total"] == 2
        assert report["allgather"] == [0, 1, 1, 2]
        assert report["allgather_stacked"] == [0.0, 1.0]
        assert report["broadcast"] == [[1.0, 1.0], "float32"]
        assert report["broadcast_from_last"] == [1, "int8"]
        assert report["assert_equal"] == f"AssertionError: differs. Expected: [0 1 1 2]; got: [{pid} {pid + 1}]."
        assert report["sync_mismatch"] == (f"AssertionError: sync_global_devices name mismatch ('point {pid}'). "
                                           f"Expected: {np.array(hashes, np.uint32)}; got: {hashes[pid]}.")
        assert report["live"] == 4
        assert report["pmap_size"] == ("ValueError: pmap in a multi-process run maps each process's 2 local devices, "
                                       "but the mapped axis has size 1")
        mine = np.arange(4) + 10 * pid
        assert report["global"] == [[8], [[2048 * pid, 4 * pid, mine[:2].tolist()],
                                          [2048 * pid + 1, 4 * pid + 2, mine[2:].tolist()]]]
        assert report["device_put"] == [[4 * pid, 4 * pid + 1], [4 * pid + 2, 4 * pid + 3]]
        assert report["gathered"] == (np.concatenate([np.arange(4), np.arange(4) + 10]) * 2).tolist()
        assert report["untiled"] == "ValueError: Gathering global non-fully-addressable arrays only supports tiled=True"
        assert report["local"] == [repr(np.asarray(mine, np.int32)).replace("array", "Array"),
                                   "NamedSharding(mesh=Mesh('x': 2, axis_types=(Auto,)), spec=P('x',), "
                                   "memory_kind=device)"]
    assert sorted(r["counter"] for r in reports) == [1, 2]
    (before, stop), (_, other_stop) = (r["preemption"] for r in reports)
    assert before == [False] * 3 and stop is not None and stop == other_stop


def test_four_processes():
    check_run(run_workers(4))


# Process 0 (which serves the run) and process 1 (which only connects) in turn, each waiting for a peer that never
# comes; jaxle_xla's module is jaxle.distributed's, without the rest of jaxle to import.
def test_the_example_trains_over_two_processes():
    steps, learning_rate = 4, 0.1
    coordinator = f"127.0.0.1:{free_port()}"
    out0, out1 = run_processes([[str(EXAMPLE), "--coordinator", coordinator, "--num-processes", "2", "--process-id",
                                 str(i), "--local-devices", "2", "--steps", str(steps)] for i in range(2)])
    assert ("process 1 of 2: local devices [CpuDevice(id=2048), CpuDevice(id=2049)], 4 devices in all"
            in out1.splitlines())  # gloo reports its connections on stdout too
    xs, ys = (a.astype(np.float64) for a in multiprocess_train.make_data(steps))
    w, b = np.zeros(multiprocess_train.FEATURES), 0.0
    expected_losses = []
    for x, y in zip(xs, ys):
        residual = x @ w + b - y
        expected_losses.append(np.mean(residual ** 2))
        w, b = w - learning_rate * 2 * x.T @ residual / len(x), b - learning_rate * 2 * residual.mean()
    lines = out0.splitlines()[-steps - 1:]
    assert [line.split(": ")[0] for line in lines[:-1]] == [f"step {i}" for i in range(steps)]
    np.testing.assert_allclose([float(line.split()[-1]) for line in lines[:-1]], expected_losses, rtol=1e-4)
    trained_w, trained_b = json.loads("[" + lines[-1].replace("w = ", "").replace("b = ", "") + "]")
    np.testing.assert_allclose(trained_w, w, atol=1e-4)
    np.testing.assert_allclose(trained_b, b, atol=1e-4)


MISSING_PEER = """
from jaxle_xla import distributed, devices
for pid, address in enumerate({addresses}):
    try:
        distributed.initialize(address, 2, pid, initialization_timeout=1)
    except RuntimeError as err:
        print("RAISED", err)
print(distributed.is_initialized(), len(devices()))
"""


def test_a_peer_that_never_arrives_is_reported():
    addresses = [f"127.0.0.1:{free_port()}" for _ in range(2)]
    (out,) = run_processes([["-c", MISSING_PEER.format(addresses=addresses)]])
    assert out.splitlines()[-3:] == [
        f"RAISED jax.distributed.initialize: process {pid} of 2 could not join the run coordinated at {address}: "
        "not every process connected within 1 seconds (check that each process was started with the same "
        "coordinator address and number of processes, and a distinct process_id)"
        for pid, address in enumerate(addresses)] + ["False 1"]


@pytest.mark.parametrize("args,message", [
    ((), "coordinator_address should be defined."),
    (("127.0.0.1:1",), "Number of processes must be defined."),
    (("127.0.0.1:1", 2), "The process id of the current process must be defined."),
    (("127.0.0.1:1", 2, 2), "process_id and num_processes must be nonnegative, with process_id < num_processes. "
                            "Got process_id=2, num_processes=2."),
    (("127.0.0.1:1", 0, 0), "process_id and num_processes must be nonnegative, with process_id < num_processes. "
                            "Got process_id=0, num_processes=0."),
])
def test_arguments_are_checked(args, message):
    from jaxle_xla import distributed

    with pytest.raises(ValueError) as info:
        distributed._check_arguments(*(args + (None,) * (3 - len(args))))
    assert str(info.value) == message


def test_initialize_after_the_backend_started():
    jax.devices()
    with pytest.raises(RuntimeError, match=r"^jax\.distributed\.initialize\(\) must be called before any JAX calls"):
        jax.distributed.initialize("127.0.0.1:1", 2, 0)
    assert not jax.distributed.is_initialized()
    jax.distributed.shutdown()  # outside a run: nothing to do


def test_one_process_without_a_run():
    from jaxle.experimental import multihost_utils

    assert repr(multihost_utils.broadcast_one_to_all(1.5)) == "array(1.5)"
    gathered = multihost_utils.process_allgather([1, (np.ones((2, 2)),)])
    assert [g.shape for g in jax.tree.leaves(gathered)] == [(1,), (1, 2, 2)]
    assert multihost_utils.process_allgather(np.ones((2, 2)), tiled=True).shape == (2, 2)
    assert multihost_utils.reached_preemption_sync_point(0) is False
    multihost_utils.sync_global_devices("alone")
    multihost_utils.assert_equal(np.arange(3))
    with pytest.raises(RuntimeError, match="^Distributed JAX not initialized.$"):
        with multihost_utils.live_devices(jax.devices()):
            pass
    assert str(multihost_utils.ProcessFailureError({1})) == "Devices failed: {1}"
