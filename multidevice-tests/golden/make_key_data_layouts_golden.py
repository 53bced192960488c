"""Write key_data_layouts_golden.json: the layouts keys and their data (``jax.random.key_data``) report over a (4, 2)
mesh on eight CPU devices, recorded from the module named on the command line: keys a ``jit`` lays out as its
``out_shardings`` ask or as a sharding constraint asks (over Auto axes, under ``set_mesh`` too), and keys that
indexing, slicing, taking, setting, reshaping, joining, selecting, loops, ``vmap`` and the random functions make of
keys split along ``x``, eagerly or under ``jit``, outside or under ``set_mesh``, over Auto and over Explicit axes. As
JAX's, the data of keys a program makes is laid out as the keys are (their spec as the program names it, P() for
whole keys), then one ``None`` per dimension of a key's data (``P(None,)``); keys seeded, split or folded eagerly are
made of their data laid out as a plain array's.

Each case runs its programs for the first time (the caches are cleared first): JAX 0.10.2's C++ dispatch of a
program it ran before names the data by the keys' spec alone (``P('x',)`` for ``P('x', None)``).

    /work/jaxpeer/bin/python multidevice-tests/golden/make_key_data_layouts_golden.py jax
"""

import pathlib

import golden_main
import numpy as np
from golden_cases import failure

HERE = pathlib.Path(__file__).parent


def _report(jax, keys) -> str:
    data = jax.random.key_data(keys)
    return f"keys {keys.sharding.spec} data {data.sharding.spec} {data.shape} {np.asarray(data).ravel()[:4].tolist()}"


def _case(kind, make, under_mesh=False):
    def case(jax):
        P = jax.sharding.PartitionSpec
        mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(getattr(jax.sharding.AxisType, kind),) * 2)
        keys = jax.device_put(jax.random.split(jax.random.key(0), 8), jax.sharding.NamedSharding(mesh, P("x")))
        jax.clear_caches()
        try:
            if under_mesh:
                with jax.set_mesh(mesh):
                    return _report(jax, make(jax, mesh, keys))
            return _report(jax, make(jax, mesh, keys))
        except Exception as error:  # the type and message are what is compared
            return failure(error)
    return case


def _constrained(spec_only):
    def make(jax, mesh, keys):
        P = jax.sharding.PartitionSpec
        target = P() if spec_only else jax.sharding.NamedSharding(mesh, P())
        return jax.jit(lambda k: jax.lax.with_sharding_constraint(k, target))(keys)
    return make


def _out_shardings(spec):
    def make(jax, mesh, keys):
        sharding = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec(*spec))
        return jax.jit(lambda k: k, out_shardings=sharding)(keys)
    return make


def _applied(op, jitted):
    """The keys ``op`` makes of the keys, eagerly or under ``jit``."""
    def make(jax, mesh, keys):
        return (jax.jit(op(jax)) if jitted else op(jax))(keys)
    return make


# name: given the module, a function of the 8 keys split along x
OPS = {
    "slice": lambda jax: lambda k: k[1:3],
    "slice_head": lambda jax: lambda k: k[0:4],
    "slice_strided": lambda jax: lambda k: k[::2],
    "reversed": lambda jax: lambda k: k[::-1],
    "index": lambda jax: lambda k: k[0],
    "gather": lambda jax: lambda k: k[np.array([0, 2])],
    "take": lambda jax: lambda k: jax.numpy.take(k, np.array([1, 2])),
    "take_out_of_bounds": lambda jax: lambda k: jax.numpy.take(k, np.array([1, 20])),
    "set": lambda jax: lambda k: k.at[1].set(k[0]),
    "set_several": lambda jax: lambda k: k.at[np.array([1, 3])].set(k[:2]),
    "new_axis": lambda jax: lambda k: k[None],
    "ellipsis_slice": lambda jax: lambda k: k[..., 0:4],
    "dynamic_slice": lambda jax: lambda k: jax.lax.dynamic_slice_in_dim(k, 2, 4),
    "reshape": lambda jax: lambda k: k.reshape(4, 2),
    "transpose": lambda jax: lambda k: k.reshape(4, 2).T,
    "squeeze": lambda jax: lambda k: k[None].squeeze(0),
    "broadcast": lambda jax: lambda k: jax.numpy.broadcast_to(k, (2, 8)),
    "concatenate": lambda jax: lambda k: jax.numpy.concatenate([k, k]),
    "stack": lambda jax: lambda k: jax.numpy.stack([k, k]),
    "where": lambda jax: lambda k: jax.numpy.where(jax.numpy.arange(8) > 3, k, k[::-1]),
    "cond": lambda jax: lambda k: jax.lax.cond(True, lambda a: a, lambda a: a[::-1], k),
    "while": lambda jax: lambda k: jax.lax.while_loop(lambda c: c[1] < 3, lambda c: (c[0], c[1] + 1), (k, 0))[0],
    "scan_fold_in": lambda jax: lambda k: jax.lax.scan(lambda c, a: (c, jax.random.fold_in(a, 1)), 0, k)[1],
    "scan_carry": lambda jax: lambda k: jax.lax.scan(lambda c, _: (c, None), k, None, length=3)[0],
    "vmap_split": lambda jax: lambda k: jax.vmap(lambda a: jax.random.split(a, 2))(k),
    "vmap_index": lambda jax: lambda k: jax.vmap(lambda a: a[0])(k.reshape(4, 2)),
    "vmap_fold_in": lambda jax: lambda k: jax.vmap(jax.random.fold_in, (0, None))(k, 3),
    "split_one_key": lambda jax: lambda k: jax.random.split(k[::2][0], 4),
    "clone": lambda jax: jax.random.clone,
    "wrapped": lambda jax: lambda k: jax.random.wrap_key_data(jax.random.key_data(k)),
}

CASES = {
    "constraint_auto": _case("Auto", _constrained(False)),
    "constraint_auto_set_mesh": _case("Auto", _constrained(True), under_mesh=True),
    "out_shardings_replicated_auto": _case("Auto", _out_shardings(())),
    "out_shardings_replicated_explicit": _case("Explicit", _out_shardings(())),
    "out_shardings_split_auto": _case("Auto", _out_shardings(("y",))),
    "out_shardings_split_explicit": _case("Explicit", _out_shardings(("x",))),
}
CASES.update({f"{name}_{kind.lower()}{'_jit' if jitted else ''}{'_set_mesh' if under else ''}":
              _case(kind, _applied(op, jitted), under_mesh=under)
              for name, op in OPS.items() for kind in ("Auto", "Explicit") for jitted in (False, True)
              for under in (False, True)})


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "key_data_layouts_golden.json")
