"""Write memory_kinds_golden.json: arrays in a CPU device's host memories (``pinned_host``, ``unpinned_host``) on
eight CPU devices: devices' memories, shardings of a memory kind, where ``device_put`` and computations put their
results, types (``float32<host>[8]``), jaxprs, lowered text and errors, recorded from the module named on the
command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_memory_kinds_golden.py jax
"""

import importlib
import pathlib

import golden_main
import numpy as np
from golden_cases import first_line, outcome, typed_mesh

HERE = pathlib.Path(__file__).parent
X = np.arange(8.0, dtype=np.float32)
GRID = np.arange(16.0, dtype=np.float32).reshape(4, 4)


def _outcome(thunk) -> str:
    return outcome(thunk, str, message=first_line)


def _in(jax, kind: str, device: int = 0):
    return jax.sharding.SingleDeviceSharding(jax.devices()[device], memory_kind=kind)


def _mesh(jax):
    return typed_mesh(jax, "Auto")


def _named(jax, kind: str | None, *spec):
    return jax.sharding.NamedSharding(_mesh(jax), jax.sharding.PartitionSpec(*spec), memory_kind=kind)


def _pinned(jax, value=X):
    return jax.device_put(value, _in(jax, "pinned_host"))


def _placed(jax, array) -> str:
    """Where an array lives, its type, and its value."""
    return f"{array.sharding} committed={array.committed} {jax.typeof(array)!r} {np.asarray(array).tolist()}"


def _unpinned(jax, value=X):
    return jax.device_put(value, _in(jax, "unpinned_host"))


def _compiled(compiled) -> str:
    """The shardings a compiled function takes its arguments in and gives its results in."""
    return f"{compiled.input_shardings} {compiled.output_shardings}"


def _shards(array) -> str:
    return "; ".join(f"{s.device} {s.data.sharding.memory_kind}" for s in array.addressable_shards)


def _text(lowered) -> str:
    """Lowered StableHLO."""
    return lowered.as_text()


def _jnp(jax):
    return importlib.import_module(jax.__name__ + ".numpy")


CASES = {
    "memories": lambda jax: _outcome(lambda: [(m.kind, str(m)) for m in jax.devices()[3].addressable_memories()]),
    "default_memory": lambda jax: _outcome(lambda: jax.devices()[0].default_memory().kind),
    "single_device_sharding": lambda jax: _outcome(lambda: (_in(jax, "pinned_host"), _in(jax, "device")
                                                            == jax.sharding.SingleDeviceSharding(jax.devices()[0]))),
    "with_memory_kind": lambda jax: _outcome(lambda: (_in(jax, "device").with_memory_kind("unpinned_host"),
                                                      _named(jax, None, "x").with_memory_kind("pinned_host"))),
    "unknown_kind_single": lambda jax: _outcome(lambda: _in(jax, "bogus")),
    "unknown_kind_named": lambda jax: _outcome(lambda: _named(jax, "bogus", "x")),
    "put_pinned": lambda jax: _outcome(lambda: _placed(jax, _pinned(jax))),
    "put_unpinned": lambda jax: _outcome(lambda: _placed(jax, jax.device_put(X, _in(jax, "unpinned_host")))),
    "put_scalar_pinned": lambda jax: _outcome(lambda: _placed(jax, jax.device_put(3.0, _in(jax, "pinned_host")))),
    "put_pinned_other_device": lambda jax: _outcome(lambda: _placed(jax, jax.device_put(
        X, _in(jax, "pinned_host", 5)))),
    "put_back_to_device_memory": lambda jax: _outcome(lambda: _placed(jax, jax.device_put(_pinned(jax),
                                                                                     _in(jax, "device")))),
    "put_without_target_stays": lambda jax: _outcome(lambda: _placed(jax, jax.device_put(_pinned(jax)))),
    "put_space_host": lambda jax: _outcome(lambda: _placed(jax, jax.device_put(X, jax.memory.Space.Host))),
    "put_space_host_of_device_array": lambda jax: _outcome(lambda: _placed(jax, jax.device_put(
        jax.device_put(X, jax.devices()[2]), jax.memory.Space.Host))),
    "put_space_device": lambda jax: _outcome(lambda: _placed(jax, jax.device_put(
        _pinned(jax), jax.memory.Space.Device))),
    "shard_memory": lambda jax: _outcome(lambda: _shards(_pinned(jax))),
    "put_named_pinned": lambda jax: _outcome(lambda: _placed(jax, jax.device_put(
        GRID, _named(jax, "pinned_host", "x")))),
    "named_shards_memory": lambda jax: _outcome(lambda: _shards(jax.device_put(GRID, _named(jax, "pinned_host",
                                                                                           "x", "y")))),
    "eager_on_pinned": lambda jax: _outcome(lambda: _placed(jax, _jnp(jax).sin(_pinned(jax)))),
    "eager_astype_on_pinned": lambda jax: _outcome(lambda: _placed(jax, _pinned(jax).astype(np.int32))),
    "eager_with_scalar": lambda jax: _outcome(lambda: _placed(jax, _pinned(jax) * 2.0)),
    "eager_mixing_memories": lambda jax: _outcome(lambda: _placed(jax, _pinned(jax) + _jnp(jax).ones(8))),
    "asarray_of_pinned": lambda jax: _outcome(lambda: _placed(jax, _jnp(jax).asarray(_pinned(jax)))),
    "index_pinned": lambda jax: _outcome(lambda: _placed(jax, _pinned(jax)[3])),
    "jit_on_pinned": lambda jax: _outcome(lambda: _placed(jax, jax.jit(lambda v: v @ v)(_pinned(jax)))),
    "jit_on_unpinned": lambda jax: _outcome(lambda: _placed(jax, jax.jit(lambda v: v * 2)(
        jax.device_put(X, _in(jax, "unpinned_host"))))),
    "jit_on_named_pinned": lambda jax: _outcome(lambda: _placed(jax, jax.jit(lambda v: v + 1)(
        jax.device_put(GRID, _named(jax, "pinned_host", "x"))))),
    "jit_out_shardings_pinned": lambda jax: _outcome(lambda: _placed(jax, jax.jit(
        lambda v: v * 2, out_shardings=_in(jax, "pinned_host"))(X))),
    "jit_out_shardings_named_pinned": lambda jax: _outcome(lambda: _placed(jax, jax.jit(
        lambda v: v * 2, out_shardings=_named(jax, "pinned_host", "x"))(GRID))),
    "jit_device_put_to_host": lambda jax: _outcome(lambda: _placed(jax, jax.jit(
        lambda v: jax.device_put(v * 2, _in(jax, "pinned_host")))(X))),
    "jaxpr_on_pinned": lambda jax: _outcome(lambda: jax.make_jaxpr(lambda v: (v * 2).sum())(_pinned(jax))),
    "jaxpr_device_put_to_host": lambda jax: _outcome(lambda: jax.make_jaxpr(
        lambda v: jax.device_put(v, jax.memory.Space.Host))(X)),
    "jaxpr_device_put_back": lambda jax: _outcome(lambda: jax.make_jaxpr(
        lambda v: jax.device_put(v, _in(jax, "device")) + 1)(_pinned(jax))),
    "jaxpr_mixing_memories": lambda jax: _outcome(lambda: jax.make_jaxpr(lambda v: v + _jnp(jax).arange(8.0))(
        _pinned(jax))),
    "lowered_on_pinned": lambda jax: _outcome(lambda: _text(jax.jit(lambda v: v * 2).lower(_pinned(jax)))),
    "lowered_in_shardings_pinned": lambda jax: _outcome(lambda: _text(jax.jit(
        lambda v: v * 2, in_shardings=_in(jax, "pinned_host")).lower(X))),
    "lowered_out_shardings_pinned": lambda jax: _outcome(lambda: _text(jax.jit(
        lambda v: v * 2, out_shardings=_in(jax, "pinned_host")).lower(X))),
    "lowered_out_shardings_named_pinned": lambda jax: _outcome(lambda: _text(jax.jit(
        lambda v: v + 1, out_shardings=_named(jax, "pinned_host", "x")).lower(GRID))),
    "lowered_device_put_to_host": lambda jax: _outcome(lambda: _text(jax.jit(
        lambda v: jax.device_put(v * 2, jax.memory.Space.Host)).lower(X))),
    # arrays in unpinned host memory, in_shardings of a host memory, device_put to a device of a host array
    "lowered_on_unpinned": lambda jax: _outcome(lambda: _text(jax.jit(lambda v: v * 2).lower(_unpinned(jax)))),
    "lowered_on_named_unpinned": lambda jax: _outcome(lambda: _text(jax.jit(lambda v: v * 2).lower(
        jax.device_put(GRID, _named(jax, "unpinned_host", "x"))))),
    "lowered_in_shardings_unpinned": lambda jax: _outcome(lambda: _text(jax.jit(
        lambda v: v * 2, in_shardings=_in(jax, "unpinned_host")).lower(X))),
    "lowered_in_shardings_named_pinned": lambda jax: _outcome(lambda: _text(jax.jit(
        lambda v: v * 2, in_shardings=_named(jax, "pinned_host", "x")).lower(GRID))),
    "lowered_out_shardings_unpinned": lambda jax: _outcome(lambda: _text(jax.jit(
        lambda v: v * 2, out_shardings=_in(jax, "unpinned_host")).lower(X))),
    "lowered_device_put_to_unpinned": lambda jax: _outcome(lambda: _text(jax.jit(
        lambda v: jax.device_put(v * 2, _in(jax, "unpinned_host")) + 1).lower(X))),
    "lowered_device_put_to_host_and_back": lambda jax: _outcome(lambda: _text(jax.jit(
        lambda v: jax.device_put(jax.device_put(v, _in(jax, "pinned_host")), _in(jax, "device")) * 2).lower(X))),
    "compiled_in_shardings_pinned": lambda jax: _outcome(lambda: _compiled(jax.jit(
        lambda v: v * 2, in_shardings=_in(jax, "pinned_host")).lower(X).compile())),
    "compiled_on_unpinned": lambda jax: _outcome(lambda: _compiled(jax.jit(lambda v: v * 2).lower(
        _unpinned(jax)).compile())),
    "jit_in_shardings_pinned": lambda jax: _outcome(lambda: _placed(jax, jax.jit(
        lambda v: v * 2, in_shardings=_in(jax, "pinned_host"))(X))),
    "jit_in_shardings_pinned_identity": lambda jax: _outcome(lambda: _placed(jax, jax.jit(
        lambda v: v, in_shardings=_in(jax, "pinned_host"))(X))),
    "jit_in_and_out_shardings_unpinned": lambda jax: _outcome(lambda: _placed(jax, jax.jit(
        lambda v: v * 2, in_shardings=_in(jax, "unpinned_host"), out_shardings=_in(jax, "unpinned_host"))(X))),
    "jit_in_shardings_pinned_of_pinned": lambda jax: _outcome(lambda: _placed(jax, jax.jit(
        lambda v: v * 2, in_shardings=_in(jax, "pinned_host"))(_pinned(jax)))),
    "jit_in_shardings_pinned_of_device_array": lambda jax: _outcome(lambda: jax.jit(
        lambda v: v * 2, in_shardings=_in(jax, "pinned_host"))(jax.device_put(X, jax.devices()[0]))),
    "jit_in_shardings_device_of_pinned": lambda jax: _outcome(lambda: jax.jit(
        lambda v: v * 2, in_shardings=_in(jax, "device"))(_pinned(jax))),
    "jit_in_shardings_pinned_of_unpinned": lambda jax: _outcome(lambda: jax.jit(
        lambda v: v * 2, in_shardings=_in(jax, "pinned_host"))(_unpinned(jax))),
    "jit_in_shardings_named_pinned": lambda jax: _outcome(lambda: _placed(jax, jax.jit(
        lambda v: v * 2, in_shardings=_named(jax, "pinned_host", "x"))(GRID))),
    "jit_in_shardings_named_pinned_of_device_array": lambda jax: _outcome(lambda: jax.jit(
        lambda v: v * 2, in_shardings=_named(jax, "pinned_host", "x"))(jax.device_put(GRID, _named(jax, None, "x")))),
    "jit_on_named_pinned_keeps_memory": lambda jax: _outcome(lambda: _placed(jax, jax.jit(lambda v: v * 2)(
        jax.device_put(GRID, _named(jax, "pinned_host", "x"))))),
    "put_pinned_to_its_device": lambda jax: _outcome(lambda: jax.device_put(_pinned(jax), jax.devices()[0])),
    "put_unpinned_to_its_device": lambda jax: _outcome(lambda: jax.device_put(_unpinned(jax), jax.devices()[0])),
    "put_pinned_to_its_device_in_a_tree": lambda jax: _outcome(lambda: jax.device_put(
        {"w": _pinned(jax)}, jax.devices()[0])),
    "put_pinned_to_its_device_donated": lambda jax: _outcome(lambda: jax.device_put(
        _pinned(jax), jax.devices()[0], donate=True)),
    "put_pinned_to_its_device_copied": lambda jax: _outcome(lambda: _placed(jax, jax.device_put(
        _pinned(jax), jax.devices()[0], may_alias=False))),
    "put_unpinned_to_another_device": lambda jax: _outcome(lambda: _placed(jax, jax.device_put(
        _unpinned(jax), jax.devices()[4]))),
    "put_named_pinned_of_one_device_to_it": lambda jax: _outcome(lambda: jax.device_put(jax.device_put(
        X, jax.sharding.NamedSharding(jax.make_mesh((1,), ("x",), devices=jax.devices()[:1]),
                                      jax.sharding.PartitionSpec(), memory_kind="pinned_host")), jax.devices()[0])),
    "asarray_of_pinned_on_its_device": lambda jax: _outcome(lambda: _placed(jax, _jnp(jax).asarray(
        _pinned(jax), device=jax.devices()[0]))),
    "asarray_of_unpinned_on_its_device": lambda jax: _outcome(lambda: _placed(jax, _jnp(jax).asarray(
        _unpinned(jax), device=jax.devices()[0]))),
    "array_of_pinned_on_another_device": lambda jax: _outcome(lambda: _jnp(jax).array(_pinned(jax),
                                                                                    device=jax.devices()[1])),
    "typeof_pinned": lambda jax: _outcome(lambda: (jax.typeof(_pinned(jax)), jax.typeof(_pinned(jax)).memory_space,
                                                   jax.typeof(X).memory_space)),
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "memory_kinds_golden.json")
