"""Host callbacks in programs partitioned over 8 CPU devices: what they print, receive and return, run with the
module named on the command line.

``/work/jaxpeer/bin/python multidevice-tests/golden/make_callbacks_golden.py jax`` writes callbacks_golden.json (the
examples' records in integration-tests/golden/seed_golden.py's format). Inside a ``shard_map`` or ``pmap`` body a
callback runs once per device on that device's block; elsewhere in a partitioned program it runs once, on the whole
value. The devices run their calls in no fixed order, so the examples record what was printed or received sorted.
"""

from __future__ import annotations

import contextlib
import io
import json
import pathlib
import sys

import golden_main
import numpy as np
from golden_cases import typed_mesh

HERE = pathlib.Path(__file__).parent
SEED_GOLDEN_DIR = HERE.parents[1] / "integration-tests" / "golden"
if str(SEED_GOLDEN_DIR) not in sys.path:
    sys.path.insert(0, str(SEED_GOLDEN_DIR))

GOLDEN_PATH = HERE / "callbacks_golden.json"
VALUES = np.arange(8.0, dtype=np.float32)


def _mesh(jax):
    return typed_mesh(jax, "Auto", shape=(8,), names=("i",))


def _sharded(jax, value, *spec):
    sharding = jax.sharding.NamedSharding(_mesh(jax), jax.sharding.PartitionSpec(*spec))
    return jax.device_put(value, sharding)


def _printed(jax, run):
    """``run()``'s result and the lines it printed, sorted."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        out = run()
        jax.block_until_ready(out)
        jax.effects_barrier()
    return {"out": out, "printed": sorted(buffer.getvalue().splitlines())}


def _eager_shard_map_printing(jax, body):
    """The result of ``body`` shard_mapped eagerly over the blocks of ``VALUES`` and the lines it printed, in
    order."""
    spec = jax.sharding.PartitionSpec("i")
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        out = jax.shard_map(body, mesh=_mesh(jax), in_specs=spec, out_specs=spec)(VALUES)
        jax.effects_barrier()
    return out, buffer.getvalue().splitlines()


def _shard_map(jax, body):
    spec = jax.sharding.PartitionSpec("i")
    return jax.jit(jax.shard_map(body, mesh=_mesh(jax), in_specs=spec, out_specs=spec))


def debug_print_in_shard_map(jax):
    def body(a):
        jax.debug.print("block={a} index={i}", a=a, i=jax.lax.axis_index("i"))
        return a * 2

    return _printed(jax, lambda: _shard_map(jax, body)(VALUES))


def debug_print_in_pmap(jax):
    def body(a):
        jax.debug.print("a={a} sum={s}", a=a, s=jax.lax.psum(a, "p"))
        return a + 1

    return _printed(jax, lambda: jax.pmap(body, "p")(VALUES.reshape(8, 1)))


def _refusal(run, end=":"):
    """The type of the error ``run()`` raises and its message up to ``end`` (JAX's goes on naming its own objects)."""
    try:
        run()
    except (ValueError, NotImplementedError) as error:
        return type(error).__name__, str(error).split(end)[0]
    return None


def ordered_debug_print_in_shard_map(jax):
    def body(a):
        jax.debug.print("first {a}", a=a, ordered=True)
        return a

    return _refusal(lambda: _shard_map(jax, body)(VALUES))


def ordered_debug_print_in_sharded_jit(jax):
    def f(a):
        jax.debug.print("first {a}", a=a, ordered=True)
        return a + 1

    return _refusal(lambda: jax.jit(f)(_sharded(jax, VALUES, "i")))


def ordered_io_callback_in_sharded_jit(jax):
    seen = []

    def record(v):
        seen.append(np.asarray(v).tolist())
        return np.asarray(v) * 2

    def f(a):
        return jax.experimental.io_callback(record, jax.ShapeDtypeStruct(a.shape, a.dtype), a, ordered=True)

    out = jax.jit(f)(_sharded(jax, VALUES, "i")).block_until_ready()
    return out, seen


def debug_print_in_sharded_jit(jax):
    def f(a):
        jax.debug.print("whole={a}", a=a)
        return a.sum()

    return _printed(jax, lambda: jax.jit(f)(_sharded(jax, VALUES, "i")))


def pure_callback_in_shard_map(jax):
    def body(a):
        b = jax.pure_callback(lambda v: np.sin(v) * v.size, jax.ShapeDtypeStruct(a.shape, a.dtype), a)
        return a * 2 + b

    return _shard_map(jax, body)(VALUES)


def pure_callback_in_sharded_jit(jax):
    def f(a):
        b = jax.pure_callback(lambda v: np.cumsum(v), jax.ShapeDtypeStruct(a.shape, a.dtype), a)
        return b * 2

    out = jax.jit(f)(_sharded(jax, VALUES, "i"))
    return out, str(out.sharding)


def pure_callback_with_in_shardings(jax):
    spec = jax.sharding.NamedSharding(_mesh(jax), jax.sharding.PartitionSpec("i"))

    def f(a):
        return jax.pure_callback(lambda v: v[::-1].copy(), jax.ShapeDtypeStruct(a.shape, a.dtype), a) + 1

    out = jax.jit(f, in_shardings=spec, out_shardings=spec)(VALUES)
    return out, str(out.sharding)


def pure_callback_vmap_methods_in_sharded_jit(jax):
    x = _sharded(jax, np.arange(16.0, dtype=np.float32).reshape(8, 2), "i")
    results = {}
    for method in ("sequential", "expand_dims", "broadcast_all"):
        calls = []

        def host(v, calls=calls):
            calls.append(np.shape(v))
            return (np.asarray(v) * 3).astype(np.float32)

        def row(r, method=method, host=host):
            return jax.pure_callback(host, jax.ShapeDtypeStruct(r.shape, r.dtype), r, vmap_method=method)

        out = jax.jit(jax.vmap(row))(x).block_until_ready()
        results[method] = (out, [list(shape) for shape in calls])
    return results


def pure_callback_on_a_chosen_device(jax):
    seen = []

    def host(v):
        seen.append(np.asarray(v).tolist())
        return np.asarray(v) * 2

    device = jax.sharding.SingleDeviceSharding(jax.devices()[3])

    def f(a):
        return jax.pure_callback(host, jax.ShapeDtypeStruct(a.shape, a.dtype), a, sharding=device) + 1

    out = jax.jit(f)(_sharded(jax, VALUES, "i")).block_until_ready()
    return out, seen


def pure_callback_on_a_mesh_refused(jax):
    sharding = jax.sharding.NamedSharding(_mesh(jax), jax.sharding.PartitionSpec())

    def f(a):
        return jax.pure_callback(np.negative, jax.ShapeDtypeStruct(a.shape, a.dtype), a, sharding=sharding)

    return _refusal(lambda: jax.jit(f)(_sharded(jax, VALUES, "i")), end=", but got")


def io_callback_in_shard_map(jax):
    seen = []

    def record(v):
        seen.append(float(np.asarray(v).sum()))
        return np.asarray(v) + 100

    def body(a):
        return jax.experimental.io_callback(record, jax.ShapeDtypeStruct(a.shape, a.dtype), a, ordered=True)

    out = _shard_map(jax, body)(VALUES).block_until_ready()
    return out, sorted(seen)


def io_callback_in_sharded_jit(jax):
    seen = []

    def record(v):
        seen.append(np.asarray(v).tolist())
        return np.asarray(v).sum(keepdims=True)

    def f(a):
        return jax.experimental.io_callback(record, jax.ShapeDtypeStruct((1,), a.dtype), a) * 2

    out = jax.jit(f)(_sharded(jax, VALUES, "i")).block_until_ready()
    return out, seen


def callback_result_layout_in_sharded_jit(jax):
    """A host callback's result returned straight from a partitioned program: committed, laid out on the one device
    that ran it (JAX's maximal GSPMDSharding over the program's devices), and refused by later computations."""

    def f(a):
        return jax.pure_callback(lambda v: np.asarray(v) * 2, jax.ShapeDtypeStruct(a.shape, a.dtype), a)

    out = jax.jit(f)(_sharded(jax, VALUES, "i"))
    sharding = out.sharding
    layout = [out.committed, repr(sharding), sorted(d.id for d in out.devices()), sharding.is_fully_replicated,
              [d.id for d in sharding._device_assignment]]
    elsewhere = jax.device_put(VALUES, jax.devices()[5])
    refusals = []
    computations = (lambda: out + 1, lambda: jax.jit(lambda v: v * 2)(out),
                    lambda: jax.jit(jax.numpy.add)(out, elsewhere))
    for compute in computations:
        try:
            compute()
        except (TypeError, ValueError) as error:
            refusals.append([type(error).__name__, str(error)])
    moved = jax.device_put(out, jax.devices()[0])
    shards = [[shard.device.id, shard.replica_id, shard.data.shape] for shard in out.addressable_shards]
    return np.asarray(out), layout, refusals, [moved.committed, repr(moved.sharding)], shards


def _record_twice(jax, ordered):
    """A body calling an io_callback on its block, then another on the first's result (each call noted)."""
    seen = []

    def record(v):
        seen.append(np.asarray(v).tolist())
        return np.asarray(v)

    def body(a):
        shape = jax.ShapeDtypeStruct(a.shape, a.dtype)
        first = jax.experimental.io_callback(record, shape, a, ordered=ordered)
        return jax.experimental.io_callback(record, shape, first + 100, ordered=ordered)

    return body, seen


def io_callbacks_in_eager_shard_map(jax):
    """Called eagerly, shard_map runs its body one operation at a time over the devices: every device's first call
    comes before any second call (the devices' calls of one operation in no fixed order)."""
    spec = jax.sharding.PartitionSpec("i")
    records = []
    for ordered in (True, False):
        body, seen = _record_twice(jax, ordered)
        out = jax.shard_map(body, mesh=_mesh(jax), in_specs=spec, out_specs=spec)(VALUES)
        jax.effects_barrier()
        records.append([np.asarray(out), sorted(seen[:8]), sorted(seen[8:])])
    return records


def ordered_io_callbacks_in_jitted_shard_map(jax):
    """Jitted, each device runs its own calls in order (the devices in no fixed order)."""
    body, seen = _record_twice(jax, True)
    out = _shard_map(jax, body)(VALUES).block_until_ready()
    firsts = [v for v in seen if v[0] < 100]
    return out, all(seen.index(v) < seen.index([x + 100 for x in v]) for v in firsts), len(seen)


def ordered_debug_print_in_eager_shard_map(jax):
    """Called eagerly, an ordered debug print runs on the host device by device (refused once jitted)."""

    def body(a):
        jax.debug.print("block {a}", a=a, ordered=True)
        return a * 2

    return _eager_shard_map_printing(jax, body)


def debug_print_in_eager_shard_map_per_varying_block(jax):
    """Eagerly, with types checked, a debug print is called once per block of its arguments along the axes each
    varies over, the arguments' blocks taken together in order."""
    mesh = jax.make_mesh((2, 4), ("i", "j"), axis_types=(jax.sharding.AxisType.Auto,) * 2)

    def body(a):
        i, j = jax.lax.axis_index("i"), jax.lax.axis_index("j")
        jax.debug.print("{} {}", i, jax.lax.psum(a, "j"))
        jax.debug.print("{} {} {}", j, i, a)
        jax.debug.print("constant {}", 3.0)
        return a

    spec = jax.sharding.PartitionSpec(("i", "j"))
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        jax.shard_map(body, mesh=mesh, in_specs=spec, out_specs=spec)(VALUES)
        jax.effects_barrier()
    return buffer.getvalue().splitlines()


def _runs(events):
    """The order of the body's own events and of its debug callback's calls (JAX calls those on the host as the body
    reaches them; each run of calls sorted), then the calls of each other callback, sorted (JAX runs those in
    programs of their own, concurrently with the Python that follows)."""
    runs = []
    for tag, value in events:
        if tag not in ("python", "debug"):
            continue
        if runs and runs[-1][0] == tag == "debug":
            runs[-1][1].append(value)
        else:
            runs.append((tag, [value]))
    others = {tag: sorted(value for t, value in events if t == tag) for tag in ("pure", "io")}
    return [[tag, sorted(values)] for tag, values in runs], others


def callbacks_before_an_error_in_eager_shard_map(jax):
    """Called eagerly, the Python body runs operation by operation: its callbacks run as it reaches them, between
    its own effects, and those before an error it raises have run."""
    events = []

    def note(tag):
        def callback(v):
            events.append((tag, np.asarray(v).tolist()))
            return np.asarray(v)
        return callback

    def body(a):
        shape = jax.ShapeDtypeStruct(a.shape, a.dtype)
        b = jax.pure_callback(note("pure"), shape, a * 2)
        events.append(("python", "after pure_callback"))
        jax.experimental.io_callback(note("io"), shape, b + 1)
        jax.debug.callback(note("debug"), jax.numpy.sin(a) + b)
        events.append(("python", "after debug.callback"))
        raise ValueError("the body stops here")

    spec = jax.sharding.PartitionSpec("i")
    try:
        jax.shard_map(body, mesh=_mesh(jax), in_specs=spec, out_specs=spec)(VALUES)
    except ValueError as error:
        events.append(("python", str(error)))
    jax.effects_barrier()
    return _runs(events)


def python_prints_between_debug_prints_in_eager_shard_map(jax):
    """Called eagerly, debug prints come out where the Python body reaches them, its own prints between them."""

    def body(a):
        jax.debug.print("first {a}", a=a, ordered=True)
        print("from Python")
        jax.debug.print("second {a}", a=a + 1, ordered=True)
        return a * 2

    return _eager_shard_map_printing(jax, body)


def callback_error_in_eager_shard_map(jax):
    """Called eagerly, a pure callback's error comes with the shard_map's result, the callbacks before it having
    run."""
    seen = []

    def fail(v):
        raise ValueError("the host refuses")

    def body(a):
        jax.debug.callback(lambda v: seen.append(np.asarray(v).tolist()), a)
        return jax.pure_callback(fail, jax.ShapeDtypeStruct(a.shape, a.dtype), a)

    spec = jax.sharding.PartitionSpec("i")
    try:
        np.asarray(jax.shard_map(body, mesh=_mesh(jax), in_specs=spec, out_specs=spec)(VALUES))
    except Exception as error:  # noqa: BLE001 - JAX's type is what is recorded
        return type(error).__name__, sorted(seen)
    return "no error", sorted(seen)


def ordered_debug_print_in_eager_shard_map_under_set_mesh(jax):
    """Called eagerly under ``set_mesh``, debug prints run on the host too, device by device."""

    def body(a):
        jax.debug.print("block {a}", a=a, ordered=True)
        jax.debug.print("twice {a}", a=a * 2)
        return a * 2

    spec = jax.sharding.PartitionSpec("i")
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer), jax.set_mesh(_mesh(jax)):
        out = jax.shard_map(body, in_specs=spec, out_specs=spec)(VALUES)
        jax.effects_barrier()
    return out, buffer.getvalue().splitlines()


def debug_callback_error_in_eager_shard_map(jax):
    """Called eagerly, a debug callback's own error comes out of the shard_map, the body stopping there."""
    reached = []

    def fail(v):
        raise KeyError("the host refuses")

    def body(a):
        jax.debug.callback(fail, a)
        reached.append(True)
        return a

    spec = jax.sharding.PartitionSpec("i")
    try:
        jax.shard_map(body, mesh=_mesh(jax), in_specs=spec, out_specs=spec)(VALUES)
    except Exception as error:  # noqa: BLE001 - JAX's type is what is recorded
        return type(error).__name__, str(error), reached
    return "no error", reached


def ordered_io_callback_on_a_one_device_mesh(jax):
    body, seen = _record_twice(jax, True)
    mesh = jax.make_mesh((1,), ("i",), axis_types=(jax.sharding.AxisType.Auto,))
    spec = jax.sharding.PartitionSpec("i")
    out = jax.jit(jax.shard_map(body, mesh=mesh, in_specs=spec, out_specs=spec))(VALUES).block_until_ready()
    return out, seen


def debug_callback_in_pmap(jax):
    seen = []

    def body(a):
        jax.debug.callback(lambda v: seen.append(float(v[0])), a)
        return a * a

    out = jax.pmap(body)(VALUES.reshape(8, 1))
    jax.effects_barrier()
    return out, sorted(seen)


def callback_error_in_shard_map(jax):
    def fail(v):
        raise ValueError("the host refuses")

    def body(a):
        return jax.pure_callback(fail, jax.ShapeDtypeStruct(a.shape, a.dtype), a)

    return _shard_map(jax, body)(VALUES).block_until_ready()  # the error may come with the result


def wrong_result_shape_in_sharded_jit(jax):
    def f(a):
        return jax.pure_callback(lambda v: np.zeros(3, np.float32), jax.ShapeDtypeStruct(a.shape, a.dtype), a)

    return jax.jit(f)(_sharded(jax, VALUES, "i")).block_until_ready()


def _callbacks_over_explicit_axes(jax):
    """A function calling an ordered io_callback on a sum and a pure_callback on its argument, the callbacks' result
    types noted as traced."""
    types = []

    def f(a):
        total = jax.experimental.io_callback(lambda v: np.asarray(v), jax.ShapeDtypeStruct((), a.dtype), a.sum(),
                                             ordered=True)
        copy = jax.pure_callback(lambda v: np.asarray(v) + 1, jax.ShapeDtypeStruct(a.shape, a.dtype), a)
        types.append([str(jax.typeof(total)), str(jax.typeof(copy))])
        return a * total, copy

    return f, types


def _constraint_lines(text):
    return [line.strip() for line in text.splitlines() if "sharding_constraint" in line or "@main" in line]


def callback_results_over_explicit_axes(jax):
    """Over a mesh of Explicit axes, a host callback's results are typed as its own result types say (over no mesh)
    and left unconstrained in the lowered program, where JAX's sharding rules type and constrain the other values;
    an ordered callback's token is ``main``'s first argument and result."""
    mesh = typed_mesh(jax, "Explicit", shape=(8,), names=("i",))
    x = jax.device_put(VALUES, jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("i")))
    f, types = _callbacks_over_explicit_axes(jax)
    jaxpr = str(jax.make_jaxpr(f)(x))
    lines = _constraint_lines(jax.jit(f).lower(x).as_text())
    outs = jax.jit(f)(x)
    return jaxpr, lines, types[0], outs, [repr(o.sharding) for o in outs]


def callback_results_under_set_mesh(jax):
    """The same under ``set_mesh`` of that mesh: the results typed over no axis either."""
    mesh = typed_mesh(jax, "Explicit", shape=(8,), names=("i",))
    x = jax.device_put(VALUES, jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("i")))
    f, types = _callbacks_over_explicit_axes(jax)
    with jax.set_mesh(mesh):
        jaxpr = str(jax.make_jaxpr(f)(x))
        lines = _constraint_lines(jax.jit(f).lower(x).as_text())
        outs = jax.jit(f)(x)
    return jaxpr, lines, types[0], outs, [repr(o.sharding) for o in outs]


EXAMPLES = {
    "callback_results_over_explicit_axes": callback_results_over_explicit_axes,
    "callback_results_under_set_mesh": callback_results_under_set_mesh,
    "debug_print_in_shard_map": debug_print_in_shard_map,
    "debug_print_in_pmap": debug_print_in_pmap,
    "ordered_debug_print_in_shard_map": ordered_debug_print_in_shard_map,
    "ordered_debug_print_in_sharded_jit": ordered_debug_print_in_sharded_jit,
    "ordered_io_callback_in_sharded_jit": ordered_io_callback_in_sharded_jit,
    "debug_print_in_sharded_jit": debug_print_in_sharded_jit,
    "pure_callback_in_shard_map": pure_callback_in_shard_map,
    "pure_callback_in_sharded_jit": pure_callback_in_sharded_jit,
    "pure_callback_with_in_shardings": pure_callback_with_in_shardings,
    "pure_callback_vmap_methods_in_sharded_jit": pure_callback_vmap_methods_in_sharded_jit,
    "pure_callback_on_a_chosen_device": pure_callback_on_a_chosen_device,
    "pure_callback_on_a_mesh_refused": pure_callback_on_a_mesh_refused,
    "io_callback_in_shard_map": io_callback_in_shard_map,
    "io_callback_in_sharded_jit": io_callback_in_sharded_jit,
    "debug_callback_in_pmap": debug_callback_in_pmap,
    "callback_result_layout_in_sharded_jit": callback_result_layout_in_sharded_jit,
    "io_callbacks_in_eager_shard_map": io_callbacks_in_eager_shard_map,
    "ordered_io_callbacks_in_jitted_shard_map": ordered_io_callbacks_in_jitted_shard_map,
    "ordered_debug_print_in_eager_shard_map": ordered_debug_print_in_eager_shard_map,
    "debug_print_in_eager_shard_map_per_varying_block": debug_print_in_eager_shard_map_per_varying_block,
    "callbacks_before_an_error_in_eager_shard_map": callbacks_before_an_error_in_eager_shard_map,
    "python_prints_between_debug_prints_in_eager_shard_map": python_prints_between_debug_prints_in_eager_shard_map,
    "ordered_debug_print_in_eager_shard_map_under_set_mesh": ordered_debug_print_in_eager_shard_map_under_set_mesh,
    "debug_callback_error_in_eager_shard_map": debug_callback_error_in_eager_shard_map,
    "callback_error_in_eager_shard_map": callback_error_in_eager_shard_map,
    "ordered_io_callback_on_a_one_device_mesh": ordered_io_callback_on_a_one_device_mesh,
    "callback_error_in_shard_map": callback_error_in_shard_map,
    "wrong_result_shape_in_sharded_jit": wrong_result_shape_in_sharded_jit,
}


def load() -> dict:
    return json.loads(GOLDEN_PATH.read_text())


if __name__ == "__main__":
    golden_main.main(golden_main.examples(EXAMPLES), GOLDEN_PATH, "experimental")
