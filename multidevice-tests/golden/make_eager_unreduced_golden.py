"""Write eager_unreduced_golden.json: arrays holding partial sums (unreduced over Explicit mesh axes) made eagerly,
by a ``shard_map`` whose out_specs say so or by a contraction given such an ``out_sharding``, what they report and
refuse (their values, shards' indices), what later operations make of them (``reshard`` sums them), and the errors
of ``vmap`` over the collectives of unreduced and reduced values; on eight CPU devices, recorded from the module
named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_eager_unreduced_golden.py jax

Each case is a function of the module returning text; the test runs the same functions with jaxle and compares.
"""

import pathlib

import golden_main
import numpy as np
from golden_cases import outcome, typed_mesh
from make_shard_map_axes_golden import _sorted_sets

HERE = pathlib.Path(__file__).parent
A = np.arange(32.0, dtype=np.float32).reshape(4, 8)
B = np.linspace(-1, 1, 16, dtype=np.float32).reshape(8, 2)
BATCH = np.arange(96.0, dtype=np.float32).reshape(3, 8, 4)


def _p(jax, *entries, unreduced=(), reduced=()):
    return jax.sharding.PartitionSpec(*entries, unreduced=set(unreduced), reduced=set(reduced))


def _mesh(jax):
    return typed_mesh(jax, "Explicit")


def _operands(jax, mesh):
    """a: f32[4@x,8@y] and b: f32[8@y,2], whose product contracts over ``y``."""
    put = lambda value, *spec: jax.device_put(value, jax.sharding.NamedSharding(mesh, _p(jax, *spec)))
    return put(A, "x", "y"), put(B, "y")


def _partial_sums(jax, mesh):
    """The eager shard_map product of a and b left unreduced over ``y``."""
    return jax.shard_map(lambda u, v: u @ v, mesh=mesh, in_specs=(_p(jax, "x", "y"), _p(jax, "y")),
                         out_specs=_p(jax, "x", unreduced="y"))(*_operands(jax, mesh))


def _described(jax, x) -> str:
    """An array's type and layout, and each device's part (which an unreduced array holds as its partial sum)."""
    parts = [f"{s.device.id}:{np.asarray(s.data).round(4).tolist()}" for s in x.addressable_shards]
    return f"{jax.typeof(x)} {x.sharding.spec} {' '.join(parts)}"


def _outcome(jax, thunk) -> str:
    return outcome(thunk, lambda x: _described(jax, x), message=_sorted_sets)


def _summed(jax, x) -> str:
    """``x`` resharded (under set_mesh) to a plain layout: its partial sums summed."""
    with jax.set_mesh(_mesh(jax)):
        total = jax.reshard(x, _p(jax, "x", None))
    return f"{jax.typeof(total)} {np.asarray(total).round(4).tolist()}"


def _contraction(how):
    """The product of a and b under set_mesh, by ``how`` ('dot', 'einsum', 'dot_general'), left unreduced."""
    def run(jax):
        mesh = _mesh(jax)
        a, b = _operands(jax, mesh)
        layout = _p(jax, "x", None, unreduced="y")
        with jax.set_mesh(mesh):
            product = {"dot": lambda: jax.numpy.dot(a, b, out_sharding=layout),
                       "einsum": lambda: jax.numpy.einsum("ij,jk->ik", a, b, out_sharding=layout),
                       "dot_general": lambda: jax.lax.dot_general(a, b, (((1,), (0,)), ((), ())),
                                                                  out_sharding=layout)}[how]()
        return f"{_described(jax, product)} | {_summed(jax, product)}"
    return run


def _shard_map_of(jax, how):
    """A shard_map over the mesh whose body makes (and uses) unreduced or reduced values by ``how``."""
    lax = jax.lax
    varying = lambda v: lax.pcast(v, "y", to="varying")
    unreduced = lambda v: lax.pcast(varying(v), "y", to="unreduced")
    reduced = lambda v: lax.pcast(v, "y", to="reduced")
    body, out_spec = {
        "vary_unreduced_cast": (unreduced, _p(jax, None, unreduced="y")),
        "unreduced_psum": (lambda v: lax.psum(unreduced(v), "y"), _p(jax)),
        "unreduced_reduce_scatter": (lambda v: lax.psum_scatter(unreduced(v), "y", tiled=True), _p(jax, "y")),
        "all_gather_reduced": (lambda v: lax.all_gather(varying(v), "y", tiled=True, to="reduced"),
                               _p(jax, None, reduced="y")),
        "preduced": (reduced, _p(jax, None, reduced="y")),
        "reduced_vary_cast": (lambda v: lax.pcast(reduced(v), "y", to="varying"), _p(jax, "y")),
    }[how]
    return jax.shard_map(body, mesh=_mesh(jax), in_specs=_p(jax), out_specs=out_spec)


def _collective(how, mode):
    """The shard_map of ``how`` under jit on one example, or its vmap (jitted or eager) over a batch of three."""
    def run(jax):
        f = _shard_map_of(jax, how)
        with jax.set_mesh(_mesh(jax)):
            if mode == "jit":
                out = jax.jit(f)(jax.reshard(BATCH[0], _p(jax)))
            else:
                batched = jax.vmap(f) if mode == "vmap" else jax.jit(jax.vmap(f))
                out = batched(jax.reshard(BATCH, _p(jax)))
        return f"{jax.typeof(out)}" + ("" if jax.typeof(out).sharding.spec.unreduced
                                       else f" {np.asarray(out).round(4).tolist()}")
    return lambda jax: _error_or(jax, run)


def _error_or(jax, run) -> str:
    return outcome(lambda: run(jax), message=_sorted_sets)


def _attribute(read):
    """What reading ``read(jax, x)`` of the eager partial sums gives (or raises)."""
    return lambda jax: _error_or(jax, lambda jax: str(read(jax, _partial_sums(jax, _mesh(jax)))))


CASES = {
    # an eager shard_map returning partial sums: an array of them, laid out by its out_specs as written
    "shard_map_result": lambda jax: _outcome(jax, lambda: _partial_sums(jax, _mesh(jax))),
    "shard_map_result_summed": lambda jax: _summed(jax, _partial_sums(jax, _mesh(jax))),
    "shard_map_result_to_reduced": _attribute(lambda jax, x: jax.typeof(
        jax.reshard(x, jax.sharding.NamedSharding(_mesh(jax), _p(jax, "x", None, reduced="y"))))),
    "shard_map_result_str": _attribute(lambda jax, x: str(x)),
    "shard_map_result_repr": _attribute(lambda jax, x: repr(x)),
    "shard_map_result_values": _attribute(lambda jax, x: np.asarray(x)),
    "shard_map_result_device_get": _attribute(lambda jax, x: jax.device_get(x)),
    "shard_map_result_shard_index": _attribute(lambda jax, x: x.addressable_shards[0].index),
    "shard_map_result_shard_replica_id": _attribute(lambda jax, x: x.addressable_shards[0].replica_id),
    "shard_map_result_shard_shape": _attribute(lambda jax, x: x.sharding.shard_shape(x.shape)),
    "shard_map_result_is_fully_replicated": _attribute(lambda jax, x: x.is_fully_replicated),
    "shard_map_result_added": lambda jax: _outcome(jax, lambda: (lambda x: x + x)(_partial_sums(jax, _mesh(jax)))),
    "shard_map_result_jit_identity": lambda jax: _outcome(jax, lambda: jax.jit(lambda x: x)(
        _partial_sums(jax, _mesh(jax)))),
    "shard_map_result_jit_reshard": _attribute(lambda jax, x: _summed(jax, jax.jit(lambda t: t * 1)(x))),
    # eager contractions given an unreduced out_sharding
    **{f"contraction_{how}": _contraction(how) for how in ("dot", "einsum", "dot_general")},
    # the collectives of unreduced and reduced values: under jit they run; vmap refuses each with JAX's error
    **{f"{how}_{mode}": _collective(how, mode)
       for how in ("vary_unreduced_cast", "unreduced_psum", "unreduced_reduce_scatter", "all_gather_reduced",
                   "preduced", "reduced_vary_cast")
       for mode in ("jit", "vmap", "jit_vmap")},
    "unreduced_reduce_scatter_jaxpr": lambda jax: str(jax.make_jaxpr(_shard_map_of(jax, "unreduced_reduce_scatter"))(
        jax.device_put(BATCH[0], jax.sharding.NamedSharding(_mesh(jax), _p(jax))))),
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "eager_unreduced_golden.json")
