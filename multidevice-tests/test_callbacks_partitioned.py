"""Host callbacks (``jax.debug.print``, ``pure_callback``, ``io_callback``, ``jax.debug.callback``) in programs
partitioned over eight devices, against JAX 0.10.2 (golden/make_callbacks_golden.py): once per device inside a
``shard_map`` or ``pmap`` body, once on the whole value elsewhere; errors and refusals as JAX's."""

import pathlib
import sys

import numpy as np
import pytest

import jaxle as jax
import jaxle.experimental  # noqa: F401  (io_callback, as the examples reach it)

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))
import make_callbacks_golden  # noqa: E402 - found through the path set just above
import seed_golden  # noqa: E402 - make_callbacks_golden puts the seed golden folder on the path

GOLDEN = make_callbacks_golden.load()


def test_every_example_has_a_golden_record():
    assert GOLDEN.keys() == make_callbacks_golden.EXAMPLES.keys()


@pytest.mark.parametrize("name", make_callbacks_golden.EXAMPLES)
def test_example_gives_jax_result(name):
    seed_golden.assert_matches(seed_golden.run_example(jax, make_callbacks_golden.EXAMPLES[name]), GOLDEN[name])


def test_callbacks_lower_with_jax_placements():
    mesh = jax.make_mesh((8,), ("i",), axis_types=(jax.sharding.AxisType.Auto,))
    spec = jax.sharding.PartitionSpec("i")

    def body(a):
        jax.debug.print("{a}", a=a)
        return jax.pure_callback(np.sin, jax.ShapeDtypeStruct(a.shape, a.dtype), a)

    x = np.arange(8.0, dtype=np.float32)
    mapped = jax.jit(jax.shard_map(body, mesh=mesh, in_specs=spec, out_specs=spec)).lower(x).as_text()
    assert "sdy.mesh @empty_mesh = <[]>" in mapped
    assert "sdy.sharding = #sdy.sharding_per_value<[<@empty_mesh, []>]>} : (tensor<1xf32>) -> ()" in mapped
    assert "sdy.sharding = #sdy.sharding_per_value<[<@empty_mesh, [{}]>]>} : (tensor<1xf32>) -> tensor<1xf32>" \
        in mapped
    sharded = jax.device_put(x, jax.sharding.NamedSharding(mesh, spec))
    whole = jax.jit(body).lower(sharded).as_text()
    assert "sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>" in whole
    assert whole.count("sdy.sharding_per_value<[<@maximal_mesh_0, []>]>") == 2


def test_cached_calls_with_callbacks_keep_running_them():
    seen = []

    def body(a):
        jax.debug.callback(lambda v: seen.append(float(v[0])), a)
        return a + 1

    f = jax.pmap(body)
    x = np.arange(8.0, dtype=np.float32).reshape(8, 1)
    for _ in range(3):
        f(x)
    assert sorted(seen) == sorted(list(range(8)) * 3)  # each call's callbacks ran before it returned
