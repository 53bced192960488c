"""``jnp.asarray``, ``jnp.array`` and ``astype`` given a NamedSharding as ``device=`` inside ``jit`` and ``grad`` under
``set_mesh`` stage JAX 0.10.2's conversion (golden/make_typed_conversions_golden.py): a ``convert_element_type``
typed by the sharding's Explicit axes, followed by a constraint to the Auto axes it names (refused for Explicit ones
of a mesh with Auto axes), so a jitted call's result is laid out by it; a PartitionSpec is not a sharding there.
Under ``vmap``, a sharding that does not fit the examples is refused naming the batched value and spec, as JAX's."""

import numpy as np
from conftest import golden_cases_test

import jaxle
import jaxle.numpy as jnp
from jaxle.sharding import NamedSharding, PartitionSpec

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_typed_conversions_golden")


def test_jitted_conversion_lays_the_result_out_by_the_sharding():
    mesh = GEN._mesh(jaxle)
    rows = NamedSharding(mesh, PartitionSpec("x"))
    with jaxle.set_mesh(mesh):
        out = jaxle.jit(lambda v: jnp.asarray(v, dtype=jnp.int32, device=rows) + 1)(GEN.TABLE)
    np.testing.assert_array_equal(np.asarray(out), GEN.TABLE.astype(np.int32) + 1)
    assert out.sharding.spec == PartitionSpec("x", None)
    # each device holds its quarter of the rows
    assert sorted(tuple(s.data.shape) for s in out.addressable_shards) == [(2, 4)] * 8
