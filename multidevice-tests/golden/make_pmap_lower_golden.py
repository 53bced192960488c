"""``pmap(f).lower(...)`` on 8 CPU devices: the lowered stage's structure, and the compiled stage's results and
errors, run with the module named on the command line.

``/work/jaxpeer/bin/python multidevice-tests/golden/make_pmap_lower_golden.py jax`` writes pmap_lower_golden.json
(records in integration-tests/golden/seed_golden.py's format). A lowered program is compared by its signature's
shardings (make_typed_lowering_golden.structure) and the collectives XLA's partitioner leaves in the compiled HLO.
"""

from __future__ import annotations

import pathlib
import sys

import golden_main
import numpy as np
from golden_cases import failure

HERE = pathlib.Path(__file__).parent
SEED_GOLDEN_DIR = HERE.parents[1] / "integration-tests" / "golden"
for folder in (HERE, SEED_GOLDEN_DIR):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import make_typed_lowering_golden as typed  # noqa: E402 - found through the path set just above
import seed_golden  # noqa: E402 - found through the path set just above

GOLDEN_PATH = HERE / "pmap_lower_golden.json"
X = np.arange(8.0, dtype=np.float32)


def stage_record(lowered) -> tuple:
    """What a lowered stage tells: its signature's shardings, the compiled collectives, its structures, XLA's cost
    estimates."""
    compiled = lowered.compile()
    return ("\n".join(typed.structure(lowered.as_text())), str(typed.collectives(compiled.as_text())),
            str(lowered.in_tree), str(lowered.out_tree), str(lowered.args_info), str(lowered.in_avals),
            str(lowered.donate_argnums), str(compiled.in_tree), str(compiled.out_tree), lowered.cost_analysis(),
            compiled.cost_analysis(), memory_sizes(compiled.memory_analysis()))


def memory_sizes(stats) -> tuple:
    return stats.argument_size_in_bytes, stats.output_size_in_bytes, stats.alias_size_in_bytes


def psum_product(jax):
    f = jax.pmap(lambda a, b: jax.lax.psum(a * b, "i"), axis_name="i")
    lowered = f.lower(X, X)
    return stage_record(lowered), lowered.compile()(X, X + 1)


def broadcast_argument(jax):
    f = jax.pmap(lambda a, b: a * b, axis_name="i", in_axes=(0, None))
    lowered = f.lower(X, 2.0)
    return stage_record(lowered), lowered.compile()(X, 3.0)


def static_argument(jax):
    f = jax.pmap(lambda a, n: a * n, static_broadcasted_argnums=1)
    lowered = f.lower(X, 3)
    return stage_record(lowered), lowered.compile()(X)


def abstract_arguments(jax):
    lowered = jax.pmap(jax.numpy.sin).lower(jax.ShapeDtypeStruct((4, 3), np.float32))
    return stage_record(lowered), lowered.compile()(np.ones((4, 3), np.float32))


def out_axes_one(jax):
    lowered = jax.pmap(lambda a: a * 2, out_axes=1).lower(np.ones((4, 3), np.float32))
    return stage_record(lowered), lowered.compile()(np.arange(12.0, dtype=np.float32).reshape(4, 3))


def out_axes_none(jax):
    f = jax.pmap(lambda a: jax.lax.psum(a, "i"), "i", out_axes=None)
    lowered = f.lower(np.ones((4, 3), np.float32))
    return stage_record(lowered), lowered.compile()(np.arange(12.0, dtype=np.float32).reshape(4, 3))


def keyword_and_tree_arguments(jax):
    f = jax.pmap(lambda d, b: {"sum": d["a"] + b, "pair": (d["a"], b * 2)})
    x = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    lowered = f.lower({"a": x}, b=x)
    return stage_record(lowered), lowered.compile()({"a": x}, b=x + 1)


def donated(jax):
    x = np.ones((2, 3), np.float32)
    lowered = jax.pmap(lambda a, b, c: a + b * c, donate_argnums=(1, 2)).lower(x, x, x)
    return stage_record(lowered)


def chosen_devices(jax):
    lowered = jax.pmap(lambda a: a + 1, devices=jax.devices()[4:6]).lower(np.ones(2, np.float32))
    out = lowered.compile()(np.ones(2, np.float32))
    return stage_record(lowered), out, str(out.sharding), str(sorted(d.id for d in out.sharding.device_set))


def one_device(jax):
    lowered = jax.pmap(lambda a: a * 2).lower(np.ones((1, 3), np.float32))
    return stage_record(lowered), lowered.compile()(np.ones((1, 3), np.float32))


def python_scalar_argument(jax):
    f = jax.pmap(lambda a, b: a + b, in_axes=(0, None))
    return f.lower(np.ones(2, np.float32), 1).compile()(np.ones(2, np.float32), 2)


def _message(call):
    """An error's type and whole message (the first line of a compiled call's errors says too little)."""
    try:
        call()
    except Exception as error:  # noqa: BLE001 - the error is what we record
        return failure(error)
    return "no error"


def compiled_call_errors(jax):
    compiled = jax.pmap(lambda a, b: a * b, in_axes=(0, None)).lower(X, 2.0).compile()
    static = jax.pmap(lambda a, n: a * n, static_broadcasted_argnums=1).lower(X, 3).compile()
    scalar = jax.pmap(lambda a, b: a + b, in_axes=(0, None)).lower(np.ones(2, np.float32), 1).compile()
    return (_message(lambda: compiled(np.arange(4, dtype=np.float32), 3.0)),
            _message(lambda: compiled(np.arange(8), 3.0)),
            _message(lambda: compiled(X)),
            _message(lambda: compiled(X, y=3.0)),
            _message(lambda: static(X, 3)),
            _message(lambda: scalar(np.ones(2, np.float32), 2.0)))


def more_devices_than_exist(jax):
    return jax.pmap(lambda a: a).lower(np.ones(9, np.float32))


def mismatched_axis_sizes(jax):
    return jax.pmap(lambda a, b: a + b).lower(np.ones(4, np.float32), np.ones(2, np.float32))


def nothing_mapped(jax):
    return jax.pmap(lambda a: a + 1, axis_size=2, in_axes=None).lower(np.ones(2, np.float32))


def nested_pmap(jax):
    return jax.pmap(jax.pmap(lambda a: a + 1)).lower(np.ones((2, 2), np.float32))


def stages_offered(jax):
    f = jax.pmap(lambda a: a)
    return tuple(hasattr(f, name) for name in ("lower", "trace", "eval_shape"))


EXAMPLES = {
    "psum_product": psum_product,
    "broadcast_argument": broadcast_argument,
    "static_argument": static_argument,
    "abstract_arguments": abstract_arguments,
    "out_axes_one": out_axes_one,
    "out_axes_none": out_axes_none,
    "keyword_and_tree_arguments": keyword_and_tree_arguments,
    "donated": donated,
    "chosen_devices": chosen_devices,
    "one_device": one_device,
    "python_scalar_argument": python_scalar_argument,
    "compiled_call_errors": compiled_call_errors,
    "more_devices_than_exist": more_devices_than_exist,
    "mismatched_axis_sizes": mismatched_axis_sizes,
    "nothing_mapped": nothing_mapped,
    "nested_pmap": nested_pmap,
    "stages_offered": stages_offered,
}


def load() -> dict:
    return seed_golden.load_records(GOLDEN_PATH)


if __name__ == "__main__":
    golden_main.main(golden_main.examples(EXAMPLES), GOLDEN_PATH)
