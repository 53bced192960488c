"""Write sharding_golden.json: what sharded arrays, sharded jit and sharding constraints print and compute on eight
CPU devices, recorded from the module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_sharding_golden.py jax

Each case is a function of the module returning text (reprs, shardings, values, jaxprs or an error's type and
message); the test runs the same functions with jaxle and compares the texts.
"""

import pathlib
import re

import golden_main
import numpy as np
from golden_cases import error_of

HERE = pathlib.Path(__file__).parent
X = np.arange(32, dtype=np.float32).reshape(4, 8)


def _mesh(jax):
    Auto = jax.sharding.AxisType.Auto
    return jax.sharding.Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"), axis_types=(Auto, Auto))


def _named(jax, *spec):
    return jax.sharding.NamedSharding(_mesh(jax), jax.sharding.PartitionSpec(*spec))


def _put(jax, value, *spec):
    return jax.device_put(value, _named(jax, *spec))


def _shards(array):
    return "\n".join(f"{s.device.id} {s.index} {s.replica_id} {np.asarray(s.data).tolist()}"
                     for s in array.addressable_shards)


CASES = {
    "named_sharding_repr": lambda jax: repr(_named(jax, "x", "y")),
    "mesh_reprs": lambda jax: "\n".join([repr(_mesh(jax)), str(_mesh(jax)), repr(_mesh(jax).abstract_mesh),
                                         str(jax.make_mesh((2, 4), ("a", "b")))]),
    "put_2d_repr": lambda jax: repr(_put(jax, X, "x", "y")),
    "put_2d_shards": lambda jax: _shards(_put(jax, X, "x", "y")),
    "put_partly_replicated_shards": lambda jax: _shards(_put(jax, np.arange(8.0), "x")),
    "put_joined_axes_shards": lambda jax: _shards(_put(jax, np.arange(8.0), ("x", "y"))),
    "put_replicated": lambda jax: (lambda a: f"{a.sharding} {a.is_fully_replicated} {len(a.addressable_shards)}")(
        _put(jax, np.arange(8.0))),
    "single_device_sharding": lambda jax: repr(jax.numpy.ones(3).sharding),
    "shard_shape": lambda jax: str([_named(jax, "x", "y").shard_shape((4, 8)),
                                    _named(jax, None, ("y", "x")).shard_shape((4, 8))]),
    "indivisible": lambda jax: error_of(lambda: _put(jax, np.arange(6.0), "y")),
    "rank_too_small": lambda jax: error_of(lambda: _put(jax, np.arange(8.0), "x", "y")),
    "unknown_axis": lambda jax: error_of(lambda: _named(jax, "z")),
    "duplicate_axis": lambda jax: error_of(lambda: _named(jax, "x", "x")),
    "elementwise_keeps_sharding": lambda jax: str((jax.numpy.sin(_put(jax, X, "x", "y")) + 1).sharding),
    "matmul": lambda jax: (lambda a: f"{(a @ a.T).sharding}\n{(a @ a.T).tolist()}")(_put(jax, X, "x", "y")),
    "sum": lambda jax: (lambda s: f"{s.sharding} {s}")(_put(jax, X, "x", "y").sum()),
    "index_row": lambda jax: str(_put(jax, X, "x", "y")[0].sharding),
    "move_to_one_device": lambda jax: repr(jax.device_put(_put(jax, X, "x", "y"), jax.devices()[2]).sharding),
    "with_uncommitted": lambda jax: str((_put(jax, np.arange(8), "y") + jax.numpy.ones(8, dtype=np.int32)).tolist()),
    "incompatible_devices": lambda jax: error_of(
        lambda: _put(jax, np.arange(8), "y") + jax.device_put(jax.numpy.ones(8, dtype=np.int32), jax.devices()[0])),
    # a jitted function is named by its qualified name there
    "incompatible_devices_jitted": lambda jax: error_of(lambda: jax.jit(lambda a, b: a + b)(
        _put(jax, np.arange(8), "y"), jax.device_put(jax.numpy.ones(8, dtype=np.int32), jax.devices()[0]))),
    "incompatible_single_devices_jitted": lambda jax: error_of(lambda: jax.jit(lambda a, b: a + b)(
        jax.device_put(np.ones(2), jax.devices()[1]), jax.device_put(np.ones(2), jax.devices()[0]))),
    "jit_in_shardings": lambda jax: str(jax.jit(lambda a: a * 2, in_shardings=_named(jax, "y"))(np.ones((4, 8)))
                                        .sharding),
    "jit_in_shardings_mismatch": lambda jax: error_of(
        lambda: jax.jit(lambda a: a * 2, in_shardings=_named(jax, "y"))(_put(jax, X, "x", "y"))),
    "jit_out_shardings": lambda jax: (lambda r: f"{r.sharding} {r.tolist()}")(
        jax.jit(lambda a: a.sum(0), out_shardings=_named(jax, "x"))(_put(jax, X, "x", "y"))),
    "jit_follows_arguments": lambda jax: str(jax.jit(lambda a: a + 1)(_put(jax, X, "x", "y")).sharding),
    "jit_constraint": lambda jax: str(jax.jit(lambda a: jax.lax.with_sharding_constraint(
        a * 2, _named(jax, None, "x")))(np.ones((4, 8))).sharding),
    "eager_constraint": lambda jax: str(jax.lax.with_sharding_constraint(np.ones((4, 8)), _named(jax, "x")).sharding),
    "grad_constraint": lambda jax: str(jax.jit(jax.grad(lambda a: jax.lax.with_sharding_constraint(
        a * a, _named(jax, "x")).sum()))(np.ones(4)).sharding),
    "vmap_constraint_jaxpr": lambda jax: str(jax.make_jaxpr(jax.vmap(
        lambda a: jax.lax.with_sharding_constraint(a * a, _named(jax, "x"))))(np.ones((3, 4)))),
    "jit_jaxpr": lambda jax: str(jax.make_jaxpr(jax.jit(lambda a: a * 2, in_shardings=_named(jax, "x", "y"),
                                                        out_shardings=_named(jax)))(np.ones((4, 8)))),
    "constraint_jaxpr": lambda jax: str(jax.make_jaxpr(
        lambda a: jax.lax.with_sharding_constraint(a, _named(jax, "x", "y")))(np.ones((4, 8)))),
    "spec_without_mesh": lambda jax: error_of(
        lambda: jax.jit(lambda a: a, in_shardings=jax.sharding.PartitionSpec("x"))(np.ones(4))),
    "in_shardings_wrong_length": lambda jax: error_of(
        lambda: jax.jit(lambda a, b: a, in_shardings=(_named(jax, "x"),))(np.ones(4), np.ones(4))),
    "set_mesh_spec": lambda jax: _with_mesh(jax, lambda: str(
        jax.jit(lambda a: a, in_shardings=jax.sharding.PartitionSpec("x"))(np.ones(4)).sharding)),
    "set_mesh_jaxpr": lambda jax: _with_mesh(jax, lambda: str(jax.make_jaxpr(
        jax.jit(lambda a: a, in_shardings=jax.sharding.PartitionSpec("x")))(np.ones(4)))),
    "reshard_explicit": lambda jax: (lambda m: str(jax.sharding.reshard(
        jax.device_put(np.arange(8.0), jax.sharding.NamedSharding(m, jax.sharding.PartitionSpec("x"))),
        jax.sharding.NamedSharding(m, jax.sharding.PartitionSpec("y"))).sharding))(jax.make_mesh((2, 4), ("x", "y"))),
    "reshard_auto_refused": lambda jax: error_of(lambda: jax.sharding.reshard(np.arange(8.0), _named(jax, "y")))
    .split(" This error occurs")[0],
    "make_array_from_callback": lambda jax: _shards(jax.make_array_from_callback(
        (4, 8), _named(jax, "x", "y"), lambda index: X[index])),
    "make_array_from_callback_bad_shape": lambda jax: error_of(lambda: jax.make_array_from_callback(
        (4, 8), _named(jax, "x", "y"), lambda index: X)),
    "make_array_from_single_device_arrays": lambda jax: repr(jax.make_array_from_single_device_arrays(
        (8,), _named(jax, ("x", "y")), [jax.device_put(np.float32([i]), d) for i, d in enumerate(jax.devices())])),
    "sharded_keys": lambda jax: (lambda ks: f"{ks.sharding.spec} {jax.vmap(jax.random.uniform)(ks).sharding.spec}")(
        jax.device_put(jax.random.split(jax.random.key(0), 8), _named(jax, ("x", "y")))),
    "lowered_and_compiled": lambda jax: str(jax.jit(lambda a: a * 2, in_shardings=_named(jax, "x", "y")).lower(
        np.ones((4, 8))).compile()(np.ones((4, 8))).sharding.spec),
    "donated": lambda jax: str(jax.jit(lambda a: a + 1, donate_argnums=0)(_put(jax, X, "x", "y")).sharding.spec),
    "process_local_data": lambda jax: _shards(jax.make_array_from_process_local_data(_named(jax, "x", "y"), X)),
    "astype": lambda jax: (lambda a: f"{a.dtype} {a.sharding.spec}")(_put(jax, X, "x", "y").astype(np.int32)),
    "zeros_on_sharding": lambda jax: str(jax.numpy.zeros((4, 8), device=_named(jax, "x", "y")).sharding.spec),
    "transpose_reshape": lambda jax: (lambda a: f"{a.T.sharding.spec} {a.reshape(32).sharding.spec}")(
        _put(jax, X, "x", "y")),
    "grad": lambda jax: str(jax.grad(lambda a: (a ** 2).sum())(_put(jax, X, "x", "y")).sharding.spec),
    "vmap_rows": lambda jax: str(jax.vmap(lambda r: r.sum())(_put(jax, X, "x", "y")).sharding.spec),
    "fori_loop": lambda jax: str(jax.lax.fori_loop(0, 3, lambda i, a: a + 1, _put(jax, X, "x", "y")).sharding.spec),
    "device_put_in_jit": lambda jax: (lambda f: f"{f(np.ones((4, 8))).sharding.spec}\n{jax.make_jaxpr(f)(X)}")(
        jax.jit(lambda a: jax.device_put(a * 2, _named(jax, None, "x")))),
    "device_put_spec_without_mesh": lambda jax: error_of(lambda: jax.device_put(X, jax.sharding.PartitionSpec("x"))),
    "device_put_spec_with_mesh": lambda jax: _with_mesh(jax, lambda: str(
        jax.device_put(X, jax.sharding.PartitionSpec("x")).sharding)),
    "constraint_spec_under_set_mesh": lambda jax: _with_mesh(jax, lambda: "\n".join([
        str(jax.make_jaxpr(lambda a: jax.lax.with_sharding_constraint(a, jax.sharding.PartitionSpec("x")))(X)),
        str(jax.jit(lambda a: jax.lax.with_sharding_constraint(2 * a, jax.sharding.PartitionSpec(None, "y")))(X)
            .sharding),
        str(jax.lax.with_sharding_constraint(X, jax.sharding.PartitionSpec("y")).sharding)])),
    "in_shardings_with_kwargs": lambda jax: error_of(lambda: jax.jit(lambda a, b=1: a * b, in_shardings=_named(
        jax, "x"))(np.ones(4), b=np.ones(4))),
    "in_shardings_with_static": lambda jax: str(jax.jit(lambda a, n: a * n, in_shardings=_named(jax, "x"),
                                                        static_argnums=1)(np.ones(4), 3).sharding.spec),
    "jit_jaxpr_under_set_mesh": lambda jax: _with_mesh(jax, lambda: str(jax.make_jaxpr(jax.jit(lambda a: 2 * a))(X))),
    "inspect_in_jit": lambda jax: _inspected(jax, lambda f: jax.jit(f)(_put(jax, X, "x", "y"))),
    "inspect_with_in_shardings": lambda jax: _inspected(
        jax, lambda f: jax.jit(f, in_shardings=_named(jax, "y"))(np.ones((4, 8)))),
    "inspect_eager": lambda jax: _inspected(jax, lambda f: f(_put(jax, X, "x", "y"))),
    "inspect_jaxpr": lambda jax: str(jax.make_jaxpr(_inspecting(jax, []))(X)),
    "uneven_constraint_in_jit": lambda jax: _result(jax.jit(lambda a: _wsc(jax, a * 2, "y"))(X6)),
    "uneven_constraint_result_used": lambda jax: _result(jax.jit(lambda a: _wsc(jax, a, "y") + 1)(X6)),
    "uneven_constraint_chain": lambda jax: _result(jax.jit(lambda a: _wsc(jax, _wsc(jax, a, "x", "y") @ a.T, "y"))(
        np.arange(18.0).reshape(3, 6))),
    "uneven_constraint_of_sharded_input": lambda jax: _result(jax.jit(lambda a: _wsc(jax, a[:6], "y") * 2)(
        _put(jax, np.arange(8.0), "y"))),
    "uneven_constraint_grad": lambda jax: _result(jax.jit(jax.grad(lambda a: _wsc(jax, a * a, "y").sum()))(X6)),
    "uneven_constraint_vmap": lambda jax: _result(jax.vmap(lambda a: _wsc(jax, a * a, "y"))(np.ones((2, 6)))),
    "uneven_constraint_jaxpr": lambda jax: str(jax.make_jaxpr(lambda a: _wsc(jax, a, "y"))(X6)),
    "uneven_constraint_eager": lambda jax: error_of(lambda: _wsc(jax, X6, "y")),
    "uneven_in_shardings": lambda jax: error_of(lambda: jax.jit(lambda a: a * 2, in_shardings=_named(jax, "y"))(X6)),
    "uneven_out_shardings": lambda jax: error_of(lambda: jax.jit(lambda a: a * 2, out_shardings=_named(jax, "y"))(X6)),
    "uneven_device_put_in_jit": lambda jax: error_of(
        lambda: jax.jit(lambda a: jax.device_put(a, _named(jax, "y")))(X6)),
    "uneven_make_array_from_callback": lambda jax: error_of(lambda: jax.make_array_from_callback(
        (6,), _named(jax, "y"), lambda index: X6[index])),
    "constraint_rank_in_jit": lambda jax: error_of(lambda: jax.jit(lambda a: _wsc(jax, a, "x", "y"))(X6)),
    "device_put_rank_in_jit": lambda jax: error_of(lambda: jax.jit(lambda a: jax.device_put(a, _named(jax, "x", "y")))(
        X6)),
    "one_device_in_shardings": lambda jax: _result(jax.jit(lambda a: a * 2, in_shardings=_one(jax, 3))(X)),
    "one_device_in_shardings_move_committed": lambda jax: _result(jax.jit(
        lambda a: a * 2, in_shardings=_one(jax, 3))(jax.device_put(X, jax.devices()[1]))),
    "one_device_in_shardings_python_scalar": lambda jax: _result(jax.jit(
        lambda a: a + 1, in_shardings=_one(jax, 3))(1.0)),
    "one_device_out_shardings": lambda jax: _result(jax.jit(lambda a: a * 2, out_shardings=_one(jax, 5))(X)),
    "one_device_in_shardings_agree": lambda jax: _result(jax.jit(add, in_shardings=(_one(jax, 3), None))(
        X, jax.device_put(X, jax.devices()[3]))),
    "one_device_in_shardings_differ": lambda jax: error_of(
        lambda: jax.jit(add, in_shardings=(_one(jax, 3), _one(jax, 2)))(X, X)),
    "one_device_in_out_differ": lambda jax: error_of(
        lambda: jax.jit(lambda a: a * 2, in_shardings=_one(jax, 1), out_shardings=_one(jax, 5))(X)),
    "one_device_outs_differ": lambda jax: error_of(
        lambda: jax.jit(lambda a: (a, a), out_shardings=(_one(jax, 3), _one(jax, 4)))(X)),
    "one_device_committed_after": lambda jax: error_of(
        lambda: jax.jit(add, in_shardings=(_one(jax, 3), None))(X, jax.device_put(X, jax.devices()[5]))),
    "one_device_committed_before": lambda jax: error_of(
        lambda: jax.jit(add, in_shardings=(None, _one(jax, 3)))(jax.device_put(X, jax.devices()[5]), X)),
    "one_device_committed_with_out": lambda jax: error_of(
        lambda: jax.jit(add, out_shardings=_one(jax, 3))(jax.device_put(X, jax.devices()[5]), X)),
    "nested_jit_out_shardings": lambda jax: _result(jax.jit(lambda a: _inner(jax)(a) + 1)(X)),
    "nested_jit_result": lambda jax: _result(jax.jit(lambda a: _inner(jax)(a))(X)),
    "nested_jit_in_shardings": lambda jax: _result(jax.jit(
        lambda a: jax.jit(lambda b: b, in_shardings=_named(jax, "x"))(a))(X)),
    "nested_jit_inspect": lambda jax: _inspected_value(jax, lambda a: _inner(jax)(a)),
    "lowered_in_out_shardings": lambda jax: _annotations(jax.jit(
        lambda a, b: a * 2 + b, in_shardings=(_named(jax, "x", "y"), None), out_shardings=_named(jax, None, "y"))
        .lower(X, X)),
    "lowered_sharded_argument": lambda jax: _annotations(jax.jit(lambda a: a * 2).lower(_put(jax, X, "x"))),
    "lowered_constraint": lambda jax: _annotations(jax.jit(lambda a: _wsc(jax, a * 2, "y")).lower(X)),
    "lowered_replicated": lambda jax: _annotations(jax.jit(lambda a: a * 2, in_shardings=_named(jax)).lower(X)),
    "lowered_set_mesh_spec": lambda jax: _with_mesh(jax, lambda: _annotations(jax.jit(
        lambda a: a * 2, in_shardings=jax.sharding.PartitionSpec(None, "y")).lower(X))),
    "lowered_nested_jit": lambda jax: _annotations(jax.jit(lambda a: _inner(jax)(a) + 1).lower(X)),
    "lowered_one_device": lambda jax: _annotations(jax.jit(lambda a: a * 2).lower(X)),
}
X6 = np.arange(6.0, dtype=np.float32)
_ANNOTATION = re.compile(r"mhlo\.num_partitions = \d+|sdy\.mesh @\w+ = <\[[^\]]*\]>|#sdy\.sharding<[^>]*>"
                         r"|sdy\.sharding_constraint %\S+ (<[^>]*>)")


def _annotations(lowered) -> str:
    """The sharding annotations of a lowered program's text, in order (a constraint without its operand)."""
    return "\n".join(m.group(1) or m.group(0) for m in _ANNOTATION.finditer(lowered.as_text()))


def add(a, b):
    return a + b


def _one(jax, device: int):
    return jax.sharding.SingleDeviceSharding(jax.devices()[device])


def _inner(jax):
    """A jit with shardings of its own, to be called inside another jit."""
    return jax.jit(lambda a: a * 2, in_shardings=_named(jax, "x"), out_shardings=_named(jax, None, "y"))


def _inspected_value(jax, f) -> str:
    seen: list = []
    jax.jit(lambda a: jax.debug.inspect_array_sharding(f(a), callback=lambda s: seen.append(str(s))))(X)
    return "\n".join(seen)


def _wsc(jax, value, *spec):
    return jax.lax.with_sharding_constraint(value, _named(jax, *spec))


def _result(array) -> str:
    return f"{array.sharding} {array.dtype} {array.tolist()}"


def _inspecting(jax, seen: list):
    """A function reporting, through inspect_array_sharding, the layouts of its input and of its row sums."""

    def f(a):
        jax.debug.inspect_array_sharding(a, callback=lambda s: seen.append(f"input {s}"))
        jax.debug.inspect_array_sharding(a.sum(1), callback=lambda s: seen.append(f"row sums {s}"))
        return 2 * a

    return f


def _inspected(jax, run) -> str:
    seen: list = []
    run(_inspecting(jax, seen))
    return "\n".join(seen)


def _with_mesh(jax, thunk):
    with jax.sharding.set_mesh(_mesh(jax)):
        return thunk()


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "sharding_golden.json")
