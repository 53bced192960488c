"""What the lowering leaves out is JAX 0.10.2's (golden/make_dead_code_golden.py): a ``shard_map`` body's values no
result needs, its results nothing reads and the arguments it then no longer reads, and a ``compute_on2`` function's
results nothing reads."""

import importlib
import json

import numpy as np
import pytest

import jaxle
import jaxle.numpy as jnp
from jaxle.sharding import AxisType, PartitionSpec

GEN = importlib.import_module("make_dead_code_golden")
GOLDEN = json.loads((GEN.HERE / "dead_code_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert json.loads(json.dumps(GEN.CASES[name](jaxle))) == GOLDEN[name]


def test_an_argument_only_an_unread_result_needs_is_not_passed():
    mesh = jaxle.make_mesh((8,), ("i",), axis_types=(AxisType.Auto,))
    mapped = jaxle.shard_map(lambda v, w: (jnp.sin(v), w * 2), mesh=mesh, in_specs=PartitionSpec("i"),
                             out_specs=PartitionSpec("i"))
    first = jaxle.jit(lambda v, w: mapped(v, w)[0])
    x = np.linspace(0, 1, 8, dtype=np.float32)
    compiled = first.lower(x, x).compile()
    assert compiled.input_shardings[0][1] is None  # pruned: the program takes no second argument
    np.testing.assert_allclose(np.asarray(first(x, x)), np.sin(x), rtol=1e-6)
