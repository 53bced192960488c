"""Write partitioned_ordered_effects_golden.json: ordered ``io_callback``s in ``shard_map`` and ``pmap`` bodies of
programs partitioned over eight CPU devices, recorded from the module named on the command line: the jitted
function's lowered text (the token of the body's ordered calls passed into the manual computation and returned
from it, replicated), its result and the blocks the callback received (sorted: the devices call in no fixed order),
or the error's type and message.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_partitioned_ordered_effects_golden.py jax
"""

import pathlib
import threading

import golden_main
import numpy as np
from golden_cases import outcome, typed_mesh

HERE = pathlib.Path(__file__).parent
VALUES = np.arange(16, dtype=np.float32)


def _recording(jax):
    """A body adding to its block the sum an ordered io_callback returns for it, and the blocks the callback got."""
    seen, lock = [], threading.Lock()

    def record(v):
        with lock:
            seen.append(np.asarray(v).tolist())
        return np.asarray(v).sum().astype(np.float32)

    def body(v):
        return v + jax.experimental.io_callback(record, jax.ShapeDtypeStruct((), np.float32), v, ordered=True)

    return body, seen


def _over_all_axes(jax, body):
    P = jax.sharding.PartitionSpec
    return jax.shard_map(body, mesh=typed_mesh(jax, "Auto", shape=(4, 2)), in_specs=P(("x", "y")),
                         out_specs=P(("x", "y")))


def _shard_map(jax, body):
    return _over_all_axes(jax, body)


def _pmap(jax, body):
    return jax.pmap(body, axis_name="i")


def _after_an_outer_call(jax, body):
    """A call of the program's own before the shard_map: both continue one token."""
    def f(v):
        total = jax.experimental.io_callback(lambda s: np.asarray(s), jax.ShapeDtypeStruct((), np.float32), v.sum(),
                                             ordered=True)
        return _over_all_axes(jax, body)(v) + total
    return f


def _two_shard_maps(jax, body):
    return lambda v: _over_all_axes(jax, body)(v) + _over_all_axes(jax, body)(v * 2)


def _scanned_shard_map(jax, body):
    mapped = _over_all_axes(jax, body)
    return lambda v: jax.lax.scan(lambda c, _: (mapped(c), None), v, None, length=2)[0]


def _scan_in_the_body(jax, body):
    return _over_all_axes(jax, lambda v: jax.lax.scan(lambda c, _: (body(c), None), v, None, length=2)[0])


def _partly_manual(jax, body):
    P = jax.sharding.PartitionSpec
    return jax.shard_map(body, mesh=typed_mesh(jax, "Auto", shape=(4, 2)), in_specs=P("x"), out_specs=P("x"),
                         axis_names={"x"})


# name -> (the function made of (jax, body), its argument)
CASES_GIVEN = {
    "shard_map": (_shard_map, VALUES),
    "pmap": (_pmap, VALUES.reshape(8, 2)),
    "after_an_outer_call": (_after_an_outer_call, VALUES),
    "two_shard_maps": (_two_shard_maps, VALUES),
    "scanned_shard_map": (_scanned_shard_map, VALUES),
    "scan_in_the_body": (_scan_in_the_body, VALUES),
    "partly_manual": (_partly_manual, VALUES),
}


def _case(name):
    make, argument = CASES_GIVEN[name]

    def case(jax):
        body, seen = _recording(jax)
        f = make(jax, body)
        jitted = f if name == "pmap" else jax.jit(f)

        def run():
            text = jitted.lower(argument).as_text()
            result = np.asarray(jitted(argument)).tolist()
            jax.effects_barrier()
            return [text, result, sorted(seen)]

        return outcome(run)
    return case


CASES = {name: _case(name) for name in CASES_GIVEN}


def record(jax) -> dict:
    return {name: case(jax) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(record, HERE / "partitioned_ordered_effects_golden.json", "experimental")
