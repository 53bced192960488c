"""Write inspect_sharding_golden.json: what ``jax.debug.inspect_array_sharding`` reports inside control flow,
nested functions, transformations and ``shard_map``/``pmap`` bodies of programs on eight CPU devices (and of
programs on one device), recorded from the module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_inspect_sharding_golden.py jax
"""

import pathlib

import golden_main
import numpy as np
from golden_cases import failure, first_line, typed_mesh

HERE = pathlib.Path(__file__).parent
X = np.arange(32.0, dtype=np.float32).reshape(4, 8)


def _put(jax, kind: str, *spec):
    sharding = jax.sharding.NamedSharding(typed_mesh(jax, kind), jax.sharding.PartitionSpec(*spec))
    return jax.device_put(X, sharding)


def _reported(run) -> str:
    """The layouts reported while ``run(inspect)`` compiles and runs a program (``inspect(v)`` inspects ``v``
    and returns it), or the error it raised."""
    seen: list = []

    def inspect(value, jax):
        jax.debug.inspect_array_sharding(value, callback=lambda s: seen.append(f"{type(s).__name__} {s}"))
        return value

    try:
        run(inspect)
    except Exception as error:  # the type and message are what is compared
        seen.append(failure(error, first_line))
    return "\n".join(seen)


def _jitted(body, *, kind: str = "Auto", spec=("x", "y")):
    """``jit(body(jax, inspect))`` applied to X laid out by ``spec`` over a mesh of ``kind`` axes."""
    def case(jax):
        x = _put(jax, kind, *spec)
        return _reported(lambda inspect: jax.block_until_ready(jax.jit(body(jax, lambda v: inspect(v, jax)))(x)))
    return case


def _on_one_device(body):
    def case(jax):
        return _reported(lambda inspect: jax.block_until_ready(jax.jit(body(jax, lambda v: inspect(v, jax)))(X)))
    return case


def _cond(jax, inspect):
    return lambda a: jax.lax.cond(a[0, 0] > 0, inspect, lambda v: v, a)


def _shard_map(jax, inspect, mesh, spec):
    p = jax.sharding.PartitionSpec
    return jax.shard_map(inspect, mesh=mesh, in_specs=p(*spec), out_specs=p(*spec))


CASES = {
    "top_level": _jitted(lambda jax, inspect: inspect),
    "cond_true_branch": _jitted(_cond),
    "cond_false_branch": _jitted(lambda jax, inspect: lambda a: jax.lax.cond(
        a[0, 0] > 0, lambda v: v, lambda v: inspect(v * 2), a)),
    "switch": _jitted(lambda jax, inspect: lambda a: jax.lax.switch(1, [lambda v: v, inspect], a)),
    "while_body": _jitted(lambda jax, inspect: lambda a: jax.lax.while_loop(
        lambda c: c[1] < 3, lambda c: (inspect(c[0]) + 1, c[1] + 1), (a, 0))[0]),
    "while_cond": _jitted(lambda jax, inspect: lambda a: jax.lax.while_loop(
        lambda c: inspect(c[0])[0, 0] + c[1] < 100, lambda c: (c[0] + 1, c[1] + 1), (a, 0))[0]),
    "fori_loop_row_sums": _jitted(lambda jax, inspect: lambda a: jax.lax.fori_loop(
        0, 2, lambda i, v: v + inspect(v.sum(1))[:, None], a)),
    "scan_rows": _jitted(lambda jax, inspect: lambda a: jax.lax.scan(
        lambda c, r: (c + inspect(r), r), jax.numpy.zeros(8), a)[0]),
    "nested_jit": _jitted(lambda jax, inspect: jax.jit(inspect)),
    "checkpoint": _jitted(lambda jax, inspect: jax.checkpoint(inspect)),
    "vmap_of_cond": _jitted(lambda jax, inspect: jax.vmap(lambda r: jax.lax.cond(r[0] > 0, inspect, lambda v: v, r))),
    "grad_of_cond": _jitted(lambda jax, inspect: jax.grad(lambda a: _cond(jax, inspect)(a).sum())),
    "explicit_loop": _jitted(lambda jax, inspect: lambda a: jax.lax.fori_loop(
        0, 2, lambda i, v: v + inspect(v.sum(1))[:, None], a), kind="Explicit", spec=("x",)),
    "shard_map_body": _jitted(lambda jax, inspect: _shard_map(jax, inspect, typed_mesh(jax, "Auto"), ("x",))),
    "shard_map_eager": lambda jax: _reported(lambda inspect: jax.block_until_ready(_shard_map(
        jax, lambda v: inspect(v, jax), typed_mesh(jax, "Auto"), ("x",))(_put(jax, "Auto", "x", "y")))),
    "pmap_body": lambda jax: _reported(lambda inspect: jax.block_until_ready(
        jax.pmap(lambda v: inspect(v, jax))(np.ones((8, 2), np.float32)))),
    "one_device_top_level": _on_one_device(lambda jax, inspect: inspect),
    "one_device_loop": _on_one_device(lambda jax, inspect: lambda a: jax.lax.fori_loop(
        0, 2, lambda i, v: inspect(v) + 1, a)),
    "one_device_committed_elsewhere": lambda jax: _reported(lambda inspect: jax.block_until_ready(jax.jit(
        lambda a: inspect(a, jax))(jax.device_put(X, jax.devices()[2])))),
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "inspect_sharding_golden.json")
