"""Write compiled_shardings_golden.json: the ``input_shardings``/``output_shardings`` (and the type of the
``runtime_executable()``) of JAX 0.10.2's compiled functions (``jit(...).lower(...).compile()`` and ``pmap``'s),
arguments without a layout of their own laid out by XLA's partitioner included, and calls of such a function, on 8
CPU devices:

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_compiled_shardings_golden.py jax

With another module (jaxle) it prints its outcomes as JSON instead of writing them. The device count is read when
the client starts, so it runs in a fresh interpreter.
"""

import importlib
import os
import pathlib
import sys

import numpy as np
from golden_writer import outcome, write_golden

HERE = pathlib.Path(__file__).parent


def _cases(m):
    jnp, sharding = m.numpy, m.sharding
    mesh = m.make_mesh((8,), ("x",))
    split, whole = sharding.NamedSharding(mesh, sharding.PartitionSpec("x")), sharding.NamedSharding(
        mesh, sharding.PartitionSpec())
    second = sharding.SingleDeviceSharding(m.devices()[1])
    pair = lambda x, y: (x + y, x * 2)  # noqa: E731 - small cases read best inline
    ones = jnp.ones(8)
    rows = m.device_put(jnp.arange(16.0).reshape(8, 2), split)
    grid_mesh = m.make_mesh((2, 4), ("a", "b"))
    grid = m.device_put(jnp.arange(32.0).reshape(4, 8),
                        sharding.NamedSharding(grid_mesh, sharding.PartitionSpec("a", "b")))
    return {
        "positional": lambda: m.jit(pair).lower(ones, ones).compile(),
        "keyword": lambda: m.jit(lambda x, *, k: x + k).lower(ones, k=ones).compile(),
        "pytree_pruned_leaf": lambda: m.jit(lambda d: {"a": d["a"]}).lower({"a": ones, "b": 2.0}).compile(),
        "unused_argument": lambda: m.jit(lambda x: 3.0).lower(1.0).compile(),
        "static_argument": lambda: m.jit(lambda x, n: x * n, static_argnums=1).lower(ones, 3).compile(),
        "donated": lambda: m.jit(lambda x, y: x + y, donate_argnums=0).lower(ones, ones).compile(),
        "one_device_in_shardings": lambda: m.jit(pair, in_shardings=second, out_shardings=second).lower(
            ones, ones).compile(),
        "named_in_and_out": lambda: m.jit(pair, in_shardings=(split, whole), out_shardings=(split, whole)).lower(
            ones, ones).compile(),
        "named_for_every_argument": lambda: m.jit(pair, in_shardings=split).lower(ones, ones).compile(),
        "argument_laid_out": lambda: m.jit(lambda x: x * 2).lower(m.device_put(ones, split)).compile(),
        "free_argument_beside_laid_out": lambda: m.jit(lambda a, b: a + b).lower(rows, jnp.ones((8, 2))).compile(),
        "free_argument_of_matmul": lambda: m.jit(lambda a, b: a @ b).lower(rows, jnp.ones((2, 3))).compile(),
        "free_argument_unrelated": lambda: m.jit(lambda a, b: a + b.sum()).lower(rows, jnp.ones(5)).compile(),
        "free_in_sharding_beside_given": lambda: m.jit(lambda a, b: a + b, in_shardings=(split, None)).lower(
            ones, ones).compile(),
        "free_argument_over_two_axes": lambda: m.jit(lambda a, b: a * b).lower(grid, jnp.ones((4, 8))).compile(),
        "free_argument_transposed": lambda: m.jit(lambda a, b: a * b.T).lower(grid, jnp.ones((8, 4))).compile(),
        "pmap": lambda: m.pmap(lambda x: x * 2).lower(jnp.ones((8, 3))).compile(),
        "closed_over_reference": lambda: m.jit(_adding_to(m.new_ref(jnp.zeros(3)))).lower(jnp.ones(3)).compile(),
        "reference_argument": lambda: m.jit(_add_into).lower(m.new_ref(jnp.zeros(3)), jnp.ones(3)).compile(),
    }


def _calls(m):
    """Calls of a compiled function whose second argument XLA's partitioner laid out as the first: arguments not
    committed anywhere are put there, committed ones laid out otherwise are refused."""
    jnp, sharding = m.numpy, m.sharding
    mesh = m.make_mesh((8,), ("x",))
    split = sharding.NamedSharding(mesh, sharding.PartitionSpec("x"))
    rows = m.device_put(jnp.arange(16.0).reshape(8, 2), split)
    whole = sharding.NamedSharding(mesh, sharding.PartitionSpec())
    compiled = m.jit(lambda a, b: a + b).lower(rows, jnp.ones((8, 2))).compile()
    arguments = {
        "call_uncommitted": lambda: jnp.ones((8, 2)),
        "call_numpy": lambda: np.ones((8, 2), np.float32),
        "call_laid_out_alike": lambda: m.device_put(jnp.ones((8, 2)), split),
        "call_replicated": lambda: m.device_put(jnp.ones((8, 2)), whole),
        "call_on_one_device": lambda: m.device_put(jnp.ones((8, 2)), m.devices()[0]),
    }

    def described(out):
        return repr((out.sharding, float(np.asarray(out).sum())))
    return {name: [outcome(lambda a=argument: compiled(rows, a()), described, ValueError)]
            for name, argument in arguments.items()}


def _out_infos(m):
    """The lowered stage's ``out_info``: each result's shape, dtype and sharding (the out_sharding given, pmap's
    included, else its type's layout over the mesh of an argument laid out over it); the traced stage's and
    ``eval_shape``'s (a type's layout over the abstract mesh), with static arguments and compiler options too."""
    jnp, sharding = m.numpy, m.sharding
    mesh = m.make_mesh((8,), ("x",))
    split = sharding.NamedSharding(mesh, sharding.PartitionSpec("x"))
    double = lambda v: v * 2  # noqa: E731 - small cases read best inline
    ones = jnp.ones((8, 3))
    return {
        "out_info_pmap": [repr(m.pmap(double).lower(ones).out_info)],
        "out_info_out_shardings": [repr(m.jit(double, out_shardings=split).lower(ones).out_info)],
        "out_info_laid_out_argument": [repr(m.jit(double).lower(m.device_put(ones, split)).out_info)],
        "out_info_plain": [repr(m.jit(double).lower(ones).out_info)],
        "out_info_traced_laid_out_argument": [repr(m.jit(double).trace(m.device_put(ones, split)).out_info)],
        "eval_shape_laid_out_argument": [repr(m.eval_shape(m.jit(double), m.device_put(ones, split))),
                                         repr(m.eval_shape(double, m.device_put(ones, split)))],
        "eval_shape_out_shardings": [repr(m.eval_shape(m.jit(double, out_shardings=split), ones))],
        "eval_shape_static_argnums": [repr(m.eval_shape(m.jit(jnp.tile, static_argnums=1), ones, (2, 1)))],
        "eval_shape_compiler_options": [repr(m.eval_shape(
            m.jit(double, compiler_options={"xla_disable_all_hlo_passes": True}), ones))],
    }


def _adding_to(ref):
    def add(x):
        ref[...] += x
        return x * 2
    return add


def _add_into(ref, x):
    ref[...] += x


def _attribute(compiled, attribute):
    """The repr of ``compiled``'s ``attribute``, or the type and message of the error reading it raises (JAX's
    shardings of a program writing references do not fit their pytree structures)."""
    return outcome(lambda: getattr(compiled, attribute), errors=ValueError)


def record(m):
    """Each case's name mapped to the reprs of its compiled function's input and output shardings, and the name of
    its runtime executable's type."""
    return {**{name: [_attribute(compiled, "input_shardings"), _attribute(compiled, "output_shardings"),
                      type(compiled.runtime_executable()).__name__]
               for name, compiled in ((name, case()) for name, case in _cases(m).items())}, **_calls(m),
            **_out_infos(m)}


if __name__ == "__main__":
    os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
    module = importlib.import_module(sys.argv[1])
    write_golden(record(module), HERE / "compiled_shardings_golden.json")
