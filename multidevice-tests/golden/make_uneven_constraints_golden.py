"""Write uneven_constraints_golden.json: jitted functions over a mesh of Auto axes on eight CPU devices whose
argument (left open to XLA's partitioner) or intermediate value a ``with_sharding_constraint`` splits along a
dimension its mesh axes do not divide, and jits given such ``in_shardings``/``out_shardings``, recorded from the
module named on the command line: the result's sharding and values and the layout the compiled program reads its
argument in, or the error's type and message.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_uneven_constraints_golden.py jax
"""

import pathlib

import golden_main
import numpy as np
from golden_cases import outcome, typed_mesh

HERE = pathlib.Path(__file__).parent
SHAPES = ((6,), (6, 3), (5,), (3, 6))
SPECS = (("x",), ("x", "y"), (None, "y"), (("x", "y"),))
# name -> the function jitted, given (jax, the constraint's sharding)
FUNCTIONS = {
    "argument": lambda jax, s: lambda a: jax.lax.with_sharding_constraint(a, s) * 2,
    "argument_returned": lambda jax, s: lambda a: jax.lax.with_sharding_constraint(a, s),
    "argument_summed": lambda jax, s: lambda a: jax.lax.with_sharding_constraint(a, s).sum(),
    "intermediate": lambda jax, s: lambda a: jax.lax.with_sharding_constraint(a * 2, s),
}


def _run(jitted, *args):
    """The result's sharding and values, and the layouts the compiled program reads its arguments in."""
    out = jitted(*args)
    first = out[0] if isinstance(out, tuple) else out
    return [str(first.sharding), np.asarray(first).tolist(), str(jitted.lower(*args).compile().input_shardings[0])]


def _constrained(name, shape, spec):
    def case(jax):
        s = jax.sharding.NamedSharding(typed_mesh(jax, "Auto", shape=(4, 2)), jax.P(*spec))
        values = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
        return outcome(lambda: _run(jax.jit(FUNCTIONS[name](jax, s)), values))
    return case


def _beside(placed):
    """The argument constrained to ``P('x')`` over a (4, 2) mesh, beside a second one ``placed(jax, mesh)`` gives
    (the committed array, or the in_shardings of the jit and a host array): its mesh names the open one's layout."""
    def case(jax):
        mesh = typed_mesh(jax, "Auto", shape=(4, 2))
        s = jax.sharding.NamedSharding(mesh, jax.P("x"))
        other, in_shardings = placed(jax, mesh)
        jitted = jax.jit(lambda a, c: (jax.lax.with_sharding_constraint(a, s) * 2, c), **in_shardings)
        return outcome(lambda: _run(jitted, np.arange(6.0, dtype=np.float32), other))
    return case


def _committed(spec, mesh_shape=(4, 2), names=("x", "y")):
    def placed(jax, mesh):
        over = typed_mesh(jax, "Auto", shape=mesh_shape, names=names)
        sharding = jax.sharding.NamedSharding(over, jax.P(*spec))
        return jax.device_put(np.arange(8.0, dtype=np.float32), sharding), {}
    return placed


def _given(jax, mesh):
    sharding = jax.sharding.NamedSharding(mesh, jax.P())
    return np.ones(8, np.float32), {"in_shardings": (None, sharding)}


def _jit_shardings(kind, stage, mesh_kind):
    """A jit given ``in_shardings`` or ``out_shardings`` ``P('x')`` over a (4, 2) mesh for an array of 6: called,
    lowered or traced."""
    def case(jax):
        s = jax.sharding.NamedSharding(typed_mesh(jax, mesh_kind, shape=(4, 2)), jax.P("x"))
        jitted = jax.jit(lambda a: a * 2, **{kind: s})
        values = np.arange(6.0, dtype=np.float32)
        run = {"call": lambda: _run(jitted, values), "lower": lambda: jitted.lower(values).as_text(),
               "trace": lambda: str(jitted.trace(values).jaxpr)}[stage]
        return outcome(run)
    return case


def _under_mesh(spec_only):
    """The argument constrained to ``P('x')`` inside ``set_mesh`` of its mesh (a NamedSharding, or the spec)."""
    def case(jax):
        mesh = typed_mesh(jax, "Auto", shape=(4, 2))
        with jax.set_mesh(mesh):
            s = jax.P("x") if spec_only else jax.sharding.NamedSharding(mesh, jax.P("x"))
            return outcome(lambda: _run(jax.jit(lambda a: jax.lax.with_sharding_constraint(a, s) * 2),
                                        np.arange(6.0, dtype=np.float32)))
    return case


CASES = {
    **{f"{name}_{'x'.join(map(str, shape))}_{spec}": _constrained(name, shape, spec)
       for name in FUNCTIONS for shape in SHAPES for spec in SPECS if len(spec) <= len(shape)},
    "beside_committed": _beside(_committed(("x",))),
    "beside_committed_replicated": _beside(_committed(())),
    "beside_committed_other_mesh": _beside(_committed(("z",), (8,), ("z",))),
    "beside_given_in_sharding": _beside(_given),
    "under_set_mesh": _under_mesh(False),
    "under_set_mesh_spec": _under_mesh(True),
    **{f"{kind}_{stage}_{mesh_kind.lower()}": _jit_shardings(kind, stage, mesh_kind)
       for kind in ("in_shardings", "out_shardings") for stage in ("call", "lower", "trace")
       for mesh_kind in ("Auto", "Explicit")},
}


def record(jax) -> dict:
    return {name: case(jax) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(record, HERE / "uneven_constraints_golden.json")
