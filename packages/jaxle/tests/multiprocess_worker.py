"""One process of a multi-process run on localhost, started by test_distributed.py:

    python multiprocess_worker.py PORT NUM_PROCESSES PROCESS_ID [--store]

It joins the run (two CPU devices per process), computes over arrays laid out across every process's devices (a
sum and a training step, by jit with shardings: gloo collectives between the processes), and prints what it saw as
one JSON line after ``RESULT``; the test compares those with NumPy. ``--store`` adds the key-value store, barrier
and multihost checks.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time

import numpy as np

import jaxle as jax
import jaxle.numpy as jnp
from jaxle.experimental import multihost_utils
from jaxle.sharding import AxisType, NamedSharding
from jaxle.sharding import PartitionSpec as P

LOCAL_DEVICES = 2
FEATURES, ROWS_PER_PROCESS, LEARNING_RATE = 3, 4, 0.1  # rows: a multiple of LOCAL_DEVICES


def regression_data(num_processes: int) -> tuple[np.ndarray, np.ndarray]:
    """The global batch of the training step; process i trains on rows [i * ROWS_PER_PROCESS, ...)."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(num_processes * ROWS_PER_PROCESS, FEATURES)).astype(np.float32)
    y = x @ np.array([1.0, -2.0, 0.5], np.float32) + 0.25
    return x, y.astype(np.float32)


def _loss(params, x, y):
    w, b = params
    return jnp.mean((x @ w + b - y) ** 2)


@jax.jit
def training_step(params, x, y):
    """One SGD step on the global batch, which is laid out over every process's devices: XLA's partitioner sums
    the devices' partial gradients across the processes."""
    loss, grads = jax.value_and_grad(_loss)(params, x, y)
    return loss, jax.tree.map(lambda p, g: p - LEARNING_RATE * g, params, grads)


def _error(action) -> str:
    try:
        action()
    except Exception as err:  # the test checks the type's name and the message
        return f"{type(err).__name__}: {str(err).splitlines()[0]}"
    return "no error"


def preemption_step(pid: int, n: int) -> list:
    """The last process gets SIGTERM (caught by jaxlib, which tells the others): the step at which each process's
    reached_preemption_sync_point first says True, which must be the same everywhere."""
    before = [multihost_utils.reached_preemption_sync_point(step) for step in range(3)]
    multihost_utils.sync_global_devices("before preemption")
    if pid == n - 1:
        os.kill(os.getpid(), signal.SIGTERM)
    for step in range(3, 3000):
        if multihost_utils.reached_preemption_sync_point(step):
            return [before, step]
        time.sleep(0.01)
    return [before, None]


def store_checks(pid: int, n: int) -> dict:
    client = jax.distributed.global_state.client
    report = {}
    client.key_value_set(f"rank/{pid}", f"hello from {pid}")
    report["values"] = [client.blocking_key_value_get(f"rank/{i}", 30_000) for i in range(n)]
    client.wait_at_barrier("read", 30_000)
    report["overwrite"] = _error(lambda: client.key_value_set(f"rank/{pid}", "again"))
    client.key_value_set(f"rank/{pid}", "replaced", allow_overwrite=True)
    report["missing"] = _error(lambda: client.key_value_try_get("no/such/key"))
    report["timeout"] = _error(lambda: client.blocking_key_value_get("no/such/key", 50))
    client.key_value_set_bytes(f"bytes/{pid}", bytes([0, 255, pid]))
    report["bytes"] = list(client.blocking_key_value_get_bytes(f"bytes/{(pid + 1) % n}", 30_000))
    client.wait_at_barrier("written", 30_000)
    report["directory"] = sorted(client.key_value_dir_get("rank"))
    if pid == n - 1:
        time.sleep(0.5)  # the others are already waiting at the barrier: it must hold them until this key exists
        client.key_value_set("late", "set before the barrier")
    client.wait_at_barrier("late key", 30_000)
    report["late"] = client.key_value_try_get("late")
    report["counter"] = client.key_value_increment("counter", 1)
    multihost_utils.sync_global_devices("counted")
    report["counter_total"] = client.key_value_increment("counter", 0)

    report["allgather"] = multihost_utils.process_allgather({"x": np.arange(2) + pid}, tiled=True)["x"].tolist()
    report["allgather_stacked"] = multihost_utils.process_allgather(np.float32(pid)).tolist()
    broadcast = multihost_utils.broadcast_one_to_all(jnp.full((2,), pid + 1.0))
    report["broadcast"] = [broadcast.tolist(), str(broadcast.dtype)]
    from_last = multihost_utils.broadcast_one_to_all(np.int8(pid), is_source=pid == n - 1)
    report["broadcast_from_last"] = [from_last.tolist(), str(from_last.dtype)]
    report["assert_equal"] = _error(lambda: multihost_utils.assert_equal(jnp.arange(2) + pid, "differs"))
    report["sync_mismatch"] = _error(lambda: multihost_utils.sync_global_devices(f"point {pid}"))
    mesh = jax.make_mesh((jax.device_count(),), ("x",))
    spread = multihost_utils.host_local_array_to_global_array(np.arange(4, dtype=np.int32) + 10 * pid, mesh, P("x"))
    report["global"] = [list(spread.shape), [[d.id, i[0].start, np.asarray(a).tolist()] for d, i, a in
                                             ((s.device, s.index, s.data) for s in spread.addressable_shards)]]
    placed = jax.device_put(np.arange(8, dtype=np.int32), NamedSharding(mesh, P("x")))  # the same value everywhere
    report["device_put"] = [np.asarray(s.data).tolist() for s in placed.addressable_shards]
    report["gathered"] = multihost_utils.process_allgather(jax.jit(lambda v: v * 2)(spread), tiled=True).tolist()
    report["untiled"] = _error(lambda: multihost_utils.process_allgather(spread))
    back = multihost_utils.global_array_to_host_local_array(spread, mesh, P("x"))
    report["local"] = [repr(back), str(back.sharding)]
    report["pmap_size"] = _error(lambda: jax.pmap(lambda v: v)(jnp.zeros(1)))
    with multihost_utils.live_devices(jax.devices()) as alive:
        report["live"] = len(alive)
    report["preemption"] = preemption_step(pid, n)
    return report


def main(port: str, num_processes: int, pid: int, store: bool) -> dict:
    jax.config.update("jax_num_cpu_devices", LOCAL_DEVICES)
    jax.distributed.initialize(f"127.0.0.1:{port}", num_processes, pid, initialization_timeout=60)
    report = {
        "initialized": jax.distributed.is_initialized(),
        "devices": [repr(d) for d in jax.devices()],
        "device_processes": [d.process_index for d in jax.devices()],
        "local_devices": [repr(d) for d in jax.local_devices()],
        "counts": [jax.process_index(), jax.process_count(), jax.device_count(), jax.local_device_count()],
    }
    # Auto axes, as the training step needs: over Explicit ones its gradient contracts a split dimension with no
    # out_sharding, which JAX refuses too.
    mesh = jax.make_mesh((jax.device_count(),), ("batch",), axis_types=(AxisType.Auto,))
    rows = NamedSharding(mesh, P("batch"))
    # Each process holds its own rows; the sum over all of them runs on every device of every process.
    values = jax.make_array_from_process_local_data(rows, np.arange(6.0).reshape(LOCAL_DEVICES, 3) * (pid + 1))
    total = jax.jit(lambda v: jnp.sum(v, axis=0))(values)
    report["psum"] = [np.asarray(total).tolist(), total.is_fully_replicated, values.is_fully_addressable, repr(values)]
    # pmap maps every process's devices, each process passing its own devices' slices.
    summed = jax.pmap(lambda v: jax.lax.psum(v, "i"), axis_name="i")(jnp.arange(2.0) + 10 * pid)
    index = jax.pmap(lambda v: jax.lax.axis_index("i"), axis_name="i")(jnp.zeros(LOCAL_DEVICES))
    report["pmap"] = [repr(summed), np.asarray(index).tolist(), str(summed.sharding)]
    # Lowered from a process's slices, pmap's program takes the global arrays (as JAX's): so does its compiled form.
    lowered = jax.pmap(lambda v: jax.lax.psum(v, "i"), axis_name="i").lower(jnp.arange(2.0) + 10 * pid)
    report["pmap_lower"] = [repr(lowered.in_avals), repr(lowered.out_info),
                            _error(lambda: lowered.compile()(jnp.arange(2.0)))]
    per_device = jax.shard_map(lambda block: jax.lax.psum(block, "batch"), mesh=mesh, in_specs=P("batch"),
                               out_specs=P())
    report["shard_map"] = np.asarray(jax.jit(per_device)(values)).tolist()
    x, y = regression_data(num_processes)
    mine = slice(pid * ROWS_PER_PROCESS, (pid + 1) * ROWS_PER_PROCESS)
    batch = [jax.make_array_from_process_local_data(rows, v[mine]) for v in (x, y)]
    params = (jnp.zeros(FEATURES), jnp.float32(0.0))
    loss, (w, b) = training_step(params, *batch)
    report["step"] = {"loss": float(loss), "w": np.asarray(w).tolist(), "b": float(b), "shape": list(batch[0].shape)}
    if store:
        report.update(store_checks(pid, num_processes))
    jax.distributed.shutdown()
    report["after_shutdown"] = jax.distributed.is_initialized()
    return report


if __name__ == "__main__":
    result = main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), "--store" in sys.argv[4:])
    print("RESULT " + json.dumps(result), flush=True)
