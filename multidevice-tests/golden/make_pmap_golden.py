"""``pmap`` and ``shard_map`` on 8 CPU devices: jaxpr texts, values and errors, run with the module named on the
command line.

``/work/jaxpeer/bin/python multidevice-tests/golden/make_pmap_golden.py jax`` writes pmap_golden.json (the examples'
records in integration-tests/golden/seed_golden.py's format).

The seeds' pmap examples are here: seed 000's (``seed_000_*``: maps, ``psum``, nested pmaps, ``devices=``), seed
002's (``normalize``, ``random_matmul_mean`` with 50x60 matrices where the README draws 5000x6000, and
``seed_nested_pmap`` on ``X``, as the README does not say its ``x``) and seed 003's ``func13`` (``closure_jaxpr``).
JAX 0.10.2 refuses nested pmaps (its inner shard_map's mesh is not the context mesh): those record its error.
"""

from __future__ import annotations

import json
import pathlib
import sys
from functools import partial

import golden_main
import numpy as np

HERE = pathlib.Path(__file__).parent
SEED_GOLDEN_DIR = HERE.parents[1] / "integration-tests" / "golden"
if str(SEED_GOLDEN_DIR) not in sys.path:
    sys.path.insert(0, str(SEED_GOLDEN_DIR))

GOLDEN_PATH = HERE / "pmap_golden.json"
X = np.arange(8.0, dtype=np.float32).reshape(4, 2)


def jaxpr_text(jax, fun, *args) -> str:
    return str(jax.make_jaxpr(fun)(*args))


def psum_jaxpr(jax):
    return jaxpr_text(jax, jax.pmap(lambda x: jax.lax.psum(x, "i"), axis_name="i"), np.arange(8.0, dtype=np.float32))


def unnamed_jaxpr(jax):
    return jaxpr_text(jax, jax.pmap(lambda x: x * 2), np.ones((4, 3), np.float32))


def broadcast_argument_jaxpr(jax):
    fun = jax.pmap(lambda x, y: x * y + jax.lax.axis_index("i"), axis_name="i", in_axes=(0, None))
    return jaxpr_text(jax, fun, np.arange(8.0, dtype=np.float32), 2.0)


def in_axes_one_jaxpr(jax):
    return jaxpr_text(jax, jax.pmap(lambda x: x.sum(0), in_axes=1, out_axes=0), np.ones((2, 3), np.float32))


def out_axes_one_jaxpr(jax):
    return jaxpr_text(jax, jax.pmap(lambda x: x * 2, in_axes=1, out_axes=1), np.ones((2, 3), np.float32))


def out_axes_none_jaxpr(jax):
    return jaxpr_text(jax, jax.pmap(lambda x: x, out_axes=None, axis_name="i"), np.ones((2, 3), np.float32))


def two_outputs_jaxpr(jax):
    return jaxpr_text(jax, jax.pmap(lambda x: (x, 2 * x)), np.ones((2,), np.int32))


def closure_jaxpr(jax):
    jnp = jax.numpy

    def func13(arr, extra):
        def inner(x):
            return (x + extra + jnp.ones(1)) / jax.lax.psum(x, axis_name="rows")
        return jax.pmap(inner, axis_name="rows")(arr)

    return jaxpr_text(jax, func13, np.ones((1, 3), np.float32), 5.0)


def vmap_inside_pmap_jaxpr(jax):
    fun = jax.pmap(lambda x: jax.vmap(lambda y: jax.lax.psum(y, "i"))(x), axis_name="i")
    return jaxpr_text(jax, fun, np.ones((2, 3), np.float32))


def jit_of_pmap_of_jit_jaxpr(jax):
    fun = jax.jit(jax.pmap(lambda x: jax.jit(lambda y: y + 1)(x)))
    return jaxpr_text(jax, fun, np.ones((2, 3), np.float32))


def shard_map_jaxpr(jax):
    P = jax.sharding.PartitionSpec
    mesh = jax.sharding.Mesh(np.array(jax.devices()), ("i",))
    fun = jax.shard_map(lambda x: x * 2, mesh=mesh, in_specs=P("i"), out_specs=P("i"), check_vma=False)
    return jaxpr_text(jax, fun, np.arange(8.0, dtype=np.float32))


def shard_map_two_axes_jaxpr(jax):
    P = jax.sharding.PartitionSpec
    mesh = jax.sharding.Mesh(np.array(jax.devices()).reshape(4, 2), ("i", "j"))
    fun = jax.shard_map(lambda x: jax.lax.psum(x, "j"), mesh=mesh, in_specs=P("i", "j"), out_specs=P("i", None),
                        check_vma=False)
    return jaxpr_text(jax, fun, np.ones((8, 4), np.float32))


def shard_map_values(jax):
    P = jax.sharding.PartitionSpec
    mesh = jax.sharding.Mesh(np.array(jax.devices()).reshape(4, 2), ("i", "j"))
    fun = jax.shard_map(lambda x: jax.lax.psum(x, "j") + jax.lax.axis_index("i"), mesh=mesh,
                        in_specs=P("i", "j"), out_specs=P("i", None), check_vma=False)
    return fun(np.arange(32.0, dtype=np.float32).reshape(8, 4))


def shard_map_inferred_in_specs(jax):
    P = jax.sharding.PartitionSpec
    mesh = jax.make_mesh((8,), ("i",), axis_types=(jax.sharding.AxisType.Explicit,))
    x = jax.device_put(np.arange(16.0, dtype=np.float32), jax.sharding.NamedSharding(mesh, P("i")))
    fun = jax.shard_map(lambda v: v * jax.lax.axis_index("i"), mesh=mesh, out_specs=P("i"), check_vma=False)
    return fun(x)


def smap_values(jax):
    mesh = jax.sharding.Mesh(np.array(jax.devices()), ("i",))
    fun = jax.smap(lambda v, w: jax.lax.psum(v, "i") * w + v, in_axes=(0, None), out_axes=0, axis_name="i")
    with jax.set_mesh(mesh):
        return fun(np.arange(16.0, dtype=np.float32), np.float32(3.0))


def shard_map_grad(jax):
    P = jax.sharding.PartitionSpec
    mesh = jax.sharding.Mesh(np.array(jax.devices()).reshape(4, 2), ("i", "j"))
    fun = jax.shard_map(lambda x, w: jax.numpy.sin(x) * jax.lax.psum(x * w, ("i", "j")), mesh=mesh,
                        in_specs=(P("i", "j"), P()), out_specs=P("i", "j"), check_vma=False)
    x = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(8, 4)
    return jax.grad(lambda x, w: fun(x, w).sum(), argnums=(0, 1))(x, np.float32(0.5))


def donated_jaxpr(jax):
    x = np.ones((2, 3), np.float32)
    return jaxpr_text(jax, jax.pmap(lambda a, b: a + b, donate_argnums=0), x, x)


def keyword_argument(jax):
    x = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    return jax.pmap(lambda a, b: a - b)(x, b=2 * x), jaxpr_text(jax, jax.pmap(lambda a, b: a * b), x, x)


def seed_000_squares(jax):
    return jax.pmap(lambda x: x ** 2)(jax.numpy.arange(8))


def seed_000_dot(jax):
    jnp = jax.numpy
    x = jnp.arange(3 * 2 * 2.0).reshape((3, 2, 2))
    y = jnp.arange(3 * 2 * 2.0).reshape((3, 2, 2)) ** 2
    return jax.pmap(jnp.dot)(x, y)


def seed_000_broadcast_argument(jax):
    x, y = jax.numpy.arange(2.0), 4.0
    return jax.pmap(lambda x, y: (x + y, y * 2.0), in_axes=(0, None))(x, y)


def seed_000_normalize(jax):
    out = jax.pmap(lambda x: x / jax.lax.psum(x, axis_name="i"), axis_name="i")(jax.numpy.arange(4.0))
    return out, out.sum()


def seed_000_nested_normalize(jax):
    psum = jax.lax.psum

    @partial(jax.pmap, axis_name="rows")
    @partial(jax.pmap, axis_name="cols")
    def normalize(x):
        return x / psum(x, "rows"), x / psum(x, "cols"), x / psum(x, ("rows", "cols"))
    return normalize(jax.numpy.arange(8.0).reshape((4, 2)))


def seed_000_chosen_devices(jax):
    jnp = jax.numpy

    @partial(jax.pmap, axis_name="i", devices=jax.devices()[:6])
    def f1(x):
        return x / jax.lax.psum(x, axis_name="i")

    @partial(jax.pmap, axis_name="i", devices=jax.devices()[-2:])
    def f2(x):
        return jax.lax.psum(x ** 2, axis_name="i")

    return f1(jnp.arange(6.0)), f2(jnp.array([2.0, 3.0]))


def normalize(jax):
    @partial(jax.pmap, axis_name="i")
    def normalize(x):
        return x / jax.lax.psum(x, "i")
    return normalize(jax.numpy.arange(4.0))


def random_matmul_mean(jax):
    jnp = jax.numpy
    keys = jax.random.split(jax.random.key(0), 8)
    mats = jax.pmap(lambda key: jax.random.normal(key, (50, 60)))(keys)
    result = jax.pmap(lambda x: jnp.dot(x, x.T))(mats)
    return jax.pmap(jnp.mean)(result)


def pytree_outputs(jax):
    return jax.pmap(lambda x: {"a": x, "b": (x, 2 * x)})(jax.numpy.ones((2,)))


def static_broadcasted(jax):
    return jax.pmap(lambda x, n: x * n, static_broadcasted_argnums=1)(jax.numpy.ones((2, 3)), 3)


def out_axes_none(jax):
    return jax.pmap(lambda x: x, out_axes=None, axis_name="i")(jax.numpy.ones((2, 3)))


def collectives(jax):
    lax = jax.lax
    x = np.arange(32.0, dtype=np.float32).reshape(8, 4)

    def body(v):
        return (lax.psum(v, "i"), lax.pmean(v, "i"), lax.pmax(v, "i"), lax.pmin(v, "i"),
                lax.all_gather(v, "i"), lax.all_gather(v, "i", tiled=True), lax.axis_index("i"),
                lax.ppermute(v, "i", [(j, (j + 1) % 8) for j in range(7)]),
                lax.psum_scatter(jax.numpy.tile(v, 2), "i", tiled=True),
                lax.all_to_all(jax.numpy.tile(v, 2), "i", 0, 0, tiled=True),
                lax.psum(v, "i", axis_index_groups=[[0, 1, 2, 3], [4, 5, 6, 7]]))
    return jax.pmap(body, axis_name="i")(x)


def all_to_all_untiled(jax):
    x = np.arange(64.0 * 3, dtype=np.float32).reshape(8, 8, 3)
    return jax.pmap(lambda v: jax.lax.all_to_all(v, "i", 0, 1), axis_name="i")(x)


def psum_scatter_untiled(jax):
    x = np.arange(64.0, dtype=np.float32).reshape(8, 8)
    return jax.pmap(lambda v: jax.lax.psum_scatter(v, "i"), axis_name="i")(x)


def grad_of_pmap(jax):
    fun = jax.pmap(lambda x: jax.numpy.sin(x) * jax.lax.psum(x, "i"), axis_name="i")
    return jax.grad(lambda x: fun(x).sum())(X)


def pmap_of_grad(jax):
    jnp = jax.numpy
    fun = jax.pmap(jax.grad(lambda x: jnp.sum(jnp.sin(x) * jax.lax.psum(x, "i"))), axis_name="i")
    return fun(X)


def linearized_pmap_jaxpr(jax):
    fun = jax.pmap(lambda v: jax.numpy.sin(v) * jax.lax.psum(v, "i"), axis_name="i")
    x = np.arange(8.0, dtype=np.float32)
    return jaxpr_text(jax, lambda x, t: jax.linearize(fun, x)[1](t), x, x)


def vmap_inside_pmap(jax):
    x = np.arange(24.0, dtype=np.float32).reshape(4, 2, 3)
    return jax.pmap(lambda v: jax.vmap(lambda y: jax.lax.psum(y, "i") * y)(v), axis_name="i")(x)


def seed_nested_pmap(jax):
    jnp = jax.numpy

    @jax.pmap
    def f(x):
        y = jnp.sin(x)

        @jax.pmap
        def g(z):
            return jnp.cos(z) * jnp.tan(y.sum()) * jnp.tanh(x).sum()
        return jax.grad(lambda w: jnp.sum(g(w)))(x)
    return f(X)


def chosen_devices(jax):
    out = jax.pmap(lambda x: x + 1, devices=jax.devices()[2:4])(jax.numpy.ones(2))
    return out, str(out.sharding), str(sorted(d.id for d in out.sharding.device_set))


def fewer_devices_than_the_axis(jax):
    return jax.pmap(lambda x: x, devices=jax.devices()[:2])(jax.numpy.ones(4))


def more_devices_than_exist(jax):
    return jax.pmap(lambda x: x)(jax.numpy.ones(9))


def mismatched_axis_sizes(jax):
    return jax.pmap(lambda x, y: x)(jax.numpy.ones(4), jax.numpy.ones(3))


def nothing_mapped(jax):
    return jax.pmap(lambda x: x, in_axes=None)(1.0)


def unbound_axis(jax):
    return jax.pmap(lambda x: jax.lax.psum(x, "j"), axis_name="i")(jax.numpy.ones(2))


EXAMPLES = {
    "psum_jaxpr": psum_jaxpr,
    "unnamed_jaxpr": unnamed_jaxpr,
    "broadcast_argument_jaxpr": broadcast_argument_jaxpr,
    "in_axes_one_jaxpr": in_axes_one_jaxpr,
    "out_axes_one_jaxpr": out_axes_one_jaxpr,
    "out_axes_none_jaxpr": out_axes_none_jaxpr,
    "two_outputs_jaxpr": two_outputs_jaxpr,
    "closure_jaxpr": closure_jaxpr,
    "vmap_inside_pmap_jaxpr": vmap_inside_pmap_jaxpr,
    "jit_of_pmap_of_jit_jaxpr": jit_of_pmap_of_jit_jaxpr,
    "shard_map_jaxpr": shard_map_jaxpr,
    "shard_map_two_axes_jaxpr": shard_map_two_axes_jaxpr,
    "shard_map_values": shard_map_values,
    "shard_map_inferred_in_specs": shard_map_inferred_in_specs,
    "smap_values": smap_values,
    "shard_map_grad": shard_map_grad,
    "donated_jaxpr": donated_jaxpr,
    "keyword_argument": keyword_argument,
    "seed_000_squares": seed_000_squares,
    "seed_000_dot": seed_000_dot,
    "seed_000_broadcast_argument": seed_000_broadcast_argument,
    "seed_000_normalize": seed_000_normalize,
    "seed_000_nested_normalize": seed_000_nested_normalize,
    "seed_000_chosen_devices": seed_000_chosen_devices,
    "normalize": normalize,
    "random_matmul_mean": random_matmul_mean,
    "pytree_outputs": pytree_outputs,
    "static_broadcasted": static_broadcasted,
    "out_axes_none": out_axes_none,
    "collectives": collectives,
    "psum_scatter_untiled": psum_scatter_untiled,
    "all_to_all_untiled": all_to_all_untiled,
    "grad_of_pmap": grad_of_pmap,
    "pmap_of_grad": pmap_of_grad,
    "linearized_pmap_jaxpr": linearized_pmap_jaxpr,
    "vmap_inside_pmap": vmap_inside_pmap,
    "seed_nested_pmap": seed_nested_pmap,
    "chosen_devices": chosen_devices,
    "fewer_devices_than_the_axis": fewer_devices_than_the_axis,
    "more_devices_than_exist": more_devices_than_exist,
    "mismatched_axis_sizes": mismatched_axis_sizes,
    "nothing_mapped": nothing_mapped,
    "unbound_axis": unbound_axis,
}


def load() -> dict:
    return json.loads(GOLDEN_PATH.read_text())


if __name__ == "__main__":
    golden_main.main(golden_main.examples(EXAMPLES), GOLDEN_PATH)
