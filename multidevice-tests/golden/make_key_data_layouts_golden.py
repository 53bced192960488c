"""Write key_data_layouts_golden.json: the layout ``jax.random.key_data`` reports for keys a ``jit`` lays out over a
(4, 2) mesh on eight CPU devices as its ``out_shardings`` ask or as a sharding constraint asks (over Auto axes,
under ``set_mesh`` too), recorded from the module named on the command line: as JAX's jit, the keys' layout followed
by one ``None`` for each dimension of a key's data (``P()`` gives ``P(None,)``).

    /work/jaxpeer/bin/python multidevice-tests/golden/make_key_data_layouts_golden.py jax
"""

import pathlib

import golden_main
import numpy as np

HERE = pathlib.Path(__file__).parent


def _report(jax, keys) -> str:
    data = jax.random.key_data(keys)
    return f"keys {keys.sharding.spec} data {data.sharding.spec} {data.shape} {np.asarray(data).ravel()[:4].tolist()}"


def _case(kind, make, under_mesh=False):
    def case(jax):
        P = jax.sharding.PartitionSpec
        mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(getattr(jax.sharding.AxisType, kind),) * 2)
        keys = jax.device_put(jax.random.split(jax.random.key(0), 8), jax.sharding.NamedSharding(mesh, P("x")))
        try:
            if under_mesh:
                with jax.set_mesh(mesh):
                    return _report(jax, make(jax, mesh, keys))
            return _report(jax, make(jax, mesh, keys))
        except Exception as error:  # the type and message are what is compared
            return f"{type(error).__name__}: {error}"
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


CASES = {
    "constraint_auto": _case("Auto", _constrained(False)),
    "constraint_auto_set_mesh": _case("Auto", _constrained(True), under_mesh=True),
    "out_shardings_replicated_auto": _case("Auto", _out_shardings(())),
    "out_shardings_replicated_explicit": _case("Explicit", _out_shardings(())),
    "out_shardings_split_auto": _case("Auto", _out_shardings(("y",))),
    "out_shardings_split_explicit": _case("Explicit", _out_shardings(("x",))),
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "key_data_layouts_golden.json")
