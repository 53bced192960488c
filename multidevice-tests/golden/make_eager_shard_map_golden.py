"""Write eager_shard_map_golden.json: what the body of a ``shard_map`` called eagerly (outside ``jit``) sees of its
values on eight CPU devices, recorded from the module named on the command line. JAX 0.10.2 runs such a body
operation by operation, so Python may read a value every device agrees on by its type (``bool``, ``int``,
``operator.index``, ``item``; with ``check_vma=True``, varying over no manual axis), printing a value shows every
device's block, and a failing ``pure_callback`` leaves its error with the results it computes (raised when they
are read), the rest of the body having run.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_eager_shard_map_golden.py jax
"""

import contextlib
import io
import operator
import pathlib

import golden_main
import numpy as np
from golden_cases import outcome, typed_mesh

HERE = pathlib.Path(__file__).parent
VALUES = np.arange(8.0, dtype=np.float32)


def _outcome(thunk) -> str:
    """The value ``thunk()`` gives (as text), or the type and whole message of its error."""
    return outcome(thunk, repr)


def _mesh(jax, kind="Auto", shape=(2, 4), names=("i", "j")):
    return typed_mesh(jax, kind, shape=shape, names=names)


def _readings(jax, x) -> dict:
    """Every way Python may ask for ``x``'s value, and what it gets."""
    jnp = jax.numpy
    return {
        "bool": _outcome(lambda: bool(x > 0)),
        "int": _outcome(lambda: int(x)),
        "float": _outcome(lambda: float(x)),
        "complex": _outcome(lambda: complex(x)),
        "index": _outcome(lambda: operator.index(x.astype(jnp.int32))),
        "hex": _outcome(lambda: hex(x.astype(jnp.int32))),
        "item": _outcome(lambda: x.item()),
        "tolist": _outcome(lambda: x.tolist()),
        "numpy": _outcome(lambda: np.asarray(x)),
        "format": _outcome(lambda: f"{x:.2f}"),
        "arange": _outcome(lambda: str(jnp.arange(x.astype(jnp.int32)))),
    }


def _read_in_body(check_vma):
    def case(jax):
        seen = {}

        def body(a, w):
            seen["replicated"] = _readings(jax, jax.numpy.sum(w))
            seen["varying"] = _readings(jax, a[0])
            seen["summed"] = _readings(jax, jax.lax.psum(a, "i")[1])
            return a * 2 if not check_vma or jax.numpy.sum(w) > 0 else a

        spec = jax.sharding.PartitionSpec
        f = jax.shard_map(body, mesh=_mesh(jax), in_specs=(spec("i"), spec()), out_specs=spec("i"),
                          check_vma=check_vma)
        seen["result"] = _outcome(lambda: np.asarray(f(VALUES, np.ones(4, np.float32))).tolist())
        return seen
    return case


def _printed(jax, body, mesh, spec, axis_names=frozenset()):
    """What ``body`` prints (its own Python prints), called eagerly, and its result."""
    buffer = io.StringIO()
    f = jax.shard_map(body, mesh=mesh, in_specs=spec, out_specs=spec, axis_names=axis_names)
    with contextlib.redirect_stdout(buffer):
        result = _outcome(lambda: np.asarray(f(VALUES)).tolist())
    return {"printed": buffer.getvalue(), "result": result}


def _print_blocks(kind, under_mesh=False):
    def case(jax):
        def body(a):
            print("a:", a)
            total = jax.lax.psum(a, "i")
            print(repr(total))
            print(f"index {jax.lax.axis_index('j')}")
            return a + total

        spec = jax.sharding.PartitionSpec
        mesh = _mesh(jax, kind)
        value = jax.device_put(VALUES, jax.sharding.NamedSharding(mesh, spec("i")))
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer), (jax.set_mesh(mesh) if under_mesh else contextlib.nullcontext()):
            f = jax.shard_map(body, mesh=None if under_mesh else mesh, in_specs=spec("i"), out_specs=spec("i"))
            result = _outcome(lambda: np.asarray(f(value)).tolist())
        return {"printed": buffer.getvalue(), "result": result}
    return case


def print_over_one_axis(jax):
    def body(a):
        print(a.astype(jax.numpy.int32))
        return a

    return _printed(jax, body, _mesh(jax, shape=(8,), names=("d",)), jax.sharding.PartitionSpec("d"))


def print_in_partial_manual_body(jax):
    def body(a):
        print(jax.lax.psum(a, "i"))
        return a

    return _printed(jax, body, _mesh(jax, shape=(2, 2, 2), names=("i", "j", "k")), jax.sharding.PartitionSpec("i"),
                    frozenset({"i"}))


def read_in_partial_manual_body(jax):
    seen = {}

    def body(a, w):
        seen["replicated"] = _outcome(lambda: int(jax.numpy.sum(w)))
        seen["varying"] = _outcome(lambda: int(a[0]))
        seen["summed"] = _outcome(lambda: int(jax.lax.psum(a, "i")[0]))
        return a

    spec = jax.sharding.PartitionSpec
    f = jax.shard_map(body, mesh=_mesh(jax, shape=(2, 2, 2), names=("i", "j", "k")), in_specs=(spec("i"), spec()),
                      out_specs=spec("i"), axis_names=frozenset({"i", "k"}))
    seen["result"] = _outcome(lambda: np.asarray(f(VALUES, VALUES)).tolist())
    return seen


def python_control_flow_on_a_summed_value(jax):
    """A loop whose trip count Python reads from the body's values, between callbacks."""
    events = []

    def body(a):
        total = jax.lax.psum(jax.numpy.sum(a), "i")
        jax.debug.callback(lambda v: events.append(("debug", float(v))), total)
        events.append(("python", int(total)))
        for _ in range(int(total) // 10):
            a = a + 1
        return a, jax.numpy.zeros(int(total) // 7)

    spec = jax.sharding.PartitionSpec
    out, zeros = jax.shard_map(body, mesh=_mesh(jax, shape=(8,), names=("i",)), in_specs=spec("i"),
                               out_specs=(spec("i"), spec()))(VALUES)
    return {"events": repr(events), "out": np.asarray(out).tolist(), "zeros": repr(zeros.shape)}


def _failing_body(jax, events, read_inside):
    """A body whose pure callback fails on the devices holding the second half of the values."""

    def host(v):
        events.append(("pure", np.asarray(v).tolist()))
        if np.asarray(v)[0] >= 2:
            raise RuntimeError(f"bad block {np.asarray(v).tolist()}")
        return np.asarray(v) * 10

    def note(tag):
        return lambda v: events.append((tag, np.asarray(v).tolist()))

    def body(a):
        jax.debug.callback(note("before"), a)
        b = jax.pure_callback(host, jax.ShapeDtypeStruct(a.shape, a.dtype), a)
        events.append(("python", "after pure_callback"))
        jax.debug.callback(note("independent"), a * 2)
        c = b + 1
        jax.debug.callback(note("dependent"), c)
        if read_inside:
            events.append(("python", _error_outcome(lambda: str(c))))
        events.append(("python", "returns"))
        return c, a + 1
    return body


def _error_text(error: Exception) -> str:
    """The type of ``error`` and whether it carries the callback's own error (its message names source files)."""
    text = str(error)
    return (f"{type(error).__name__} (callback error: {'CpuCallback error calling callback' in text}, "
            f"its exception: {'RuntimeError: bad block [2.0, 3.0]' in text})")


def _error_outcome(thunk) -> str:
    try:
        return repr(thunk())
    except Exception as error:  # the error is what is compared
        return _error_text(error)


def _failing_pure_callback(read_inside):
    def case(jax):
        events = []
        mesh = jax.make_mesh((2, 2), ("i", "j"), axis_types=(jax.sharding.AxisType.Auto,) * 2,
                             devices=jax.devices()[:4])
        spec = jax.sharding.PartitionSpec("i")
        f = jax.shard_map(_failing_body(jax, events, read_inside), mesh=mesh, in_specs=spec, out_specs=spec)
        try:
            failed, other = f(np.arange(4.0, dtype=np.float32))
        except Exception as error:  # the call itself raising is an outcome
            return {"call": _error_text(error), "events": sorted(map(repr, events))}
        events.append(("python", "shard_map returned"))
        return {"other": _error_outcome(lambda: np.asarray(other).tolist()),
                "failed": _error_outcome(lambda: np.asarray(failed).tolist()),
                "order": [repr(e) for e in events if e[0] != "pure"],
                "pure": sorted(repr(e) for e in events if e[0] == "pure")}
    return case


CASES = {
    "read_in_checked_body": _read_in_body(True),
    "read_in_unchecked_body": _read_in_body(False),
    "print_blocks_auto": _print_blocks("Auto"),
    "print_blocks_explicit": _print_blocks("Explicit"),
    "print_blocks_under_set_mesh": _print_blocks("Auto", under_mesh=True),
    "print_over_one_axis": print_over_one_axis,
    "print_in_partial_manual_body": print_in_partial_manual_body,
    "read_in_partial_manual_body": read_in_partial_manual_body,
    "python_control_flow_on_a_summed_value": python_control_flow_on_a_summed_value,
    "failing_pure_callback": _failing_pure_callback(False),
    "failing_pure_callback_read_in_body": _failing_pure_callback(True),
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "eager_shard_map_golden.json")
