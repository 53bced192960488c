"""Data-parallel training over several processes (on one machine or several), with jaxle's distributed runtime.

Start one copy per process, each with the same coordinator (process 0's host and a free port) and its own id:

    python examples/multiprocess_train.py --coordinator 10.0.0.1:1234 --num-processes 2 --process-id 0
    python examples/multiprocess_train.py --coordinator 10.0.0.1:1234 --num-processes 2 --process-id 1

Every process builds the same data set and feeds only its own rows of each batch to its own devices; the batch is
one array laid out over every device of every process, and the jitted training step runs on all of them at once
(XLA's partitioner adds up the gradients with gloo collectives over TCP between the processes). The parameters are
replicated: identical everywhere. Process 0 prints the loss of each step and the final parameters.
"""

from __future__ import annotations

import argparse

import numpy as np

import jaxle as jax
import jaxle.numpy as jnp
from jaxle.experimental import multihost_utils
from jaxle.sharding import AxisType, NamedSharding
from jaxle.sharding import PartitionSpec as P

FEATURES, BATCH = 4, 32
TRUE_W, TRUE_B = np.array([0.5, -1.0, 2.0, 0.25], np.float32), np.float32(-0.5)


def make_data(steps: int) -> tuple[np.ndarray, np.ndarray]:
    """``steps`` global batches of a noisy linear relation, the same in every process (a shared seed)."""
    rng = np.random.default_rng(42)
    x = rng.normal(size=(steps, BATCH, FEATURES)).astype(np.float32)
    noise = 0.01 * rng.normal(size=(steps, BATCH)).astype(np.float32)
    return x, (x @ TRUE_W + TRUE_B + noise).astype(np.float32)


def loss(params, x, y):
    w, b = params
    return jnp.mean((x @ w + b - y) ** 2)


def train(steps: int, learning_rate: float) -> tuple[list[float], tuple]:
    """SGD over ``steps`` global batches, split by rows between every device of every process."""
    # Auto axes: XLA's partitioner decides how the gradient's contraction over the split rows is summed (over the
    # default Explicit axes, as in JAX, that contraction would need an out_sharding).
    mesh = jax.make_mesh((jax.device_count(),), ("batch",), axis_types=(AxisType.Auto,))
    by_rows = NamedSharding(mesh, P("batch"))

    @jax.jit
    def step(params, x, y):
        value, grads = jax.value_and_grad(loss)(params, x, y)
        return value, jax.tree.map(lambda p, g: p - learning_rate * g, params, grads)

    xs, ys = make_data(steps)
    per_process = BATCH // jax.process_count()
    mine = slice(jax.process_index() * per_process, (jax.process_index() + 1) * per_process)
    params = (jnp.zeros(FEATURES), jnp.float32(0.0))
    losses = []
    for x, y in zip(xs, ys):
        # This process's rows only; together the processes' rows make the global batch.
        x, y = (jax.make_array_from_process_local_data(by_rows, v[mine]) for v in (x, y))
        value, params = step(params, x, y)
        losses.append(float(value))
    return losses, params


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--coordinator", required=True, help="host:port of process 0, reachable from every process")
    parser.add_argument("--num-processes", type=int, required=True)
    parser.add_argument("--process-id", type=int, required=True)
    parser.add_argument("--local-devices", type=int, default=2, help="CPU devices in each process")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--learning-rate", type=float, default=0.1)
    args = parser.parse_args()

    jax.config.update("jax_num_cpu_devices", args.local_devices)
    jax.distributed.initialize(args.coordinator, args.num_processes, args.process_id)
    print(f"process {jax.process_index()} of {jax.process_count()}: local devices {jax.local_devices()}, "
          f"{jax.device_count()} devices in all", flush=True)
    losses, (w, b) = train(args.steps, args.learning_rate)
    multihost_utils.assert_equal((w, b), "the processes' parameters differ")
    if jax.process_index() == 0:
        for step, loss in enumerate(losses):
            print(f"step {step}: loss {loss:.6f}")
        print(f"w = {np.asarray(w).round(4).tolist()}, b = {float(b):.4f}")


if __name__ == "__main__":
    main()
