"""Write spmd_axis_name_golden.json: ``vmap(..., spmd_axis_name=...)`` of functions writing shardings (a
``with_sharding_constraint``, a nested ``jit`` given ``in_shardings``/``out_shardings``, a ``reshard`` and a
``device_put``) over a mesh of Auto (or Explicit) axes on eight CPU devices, with and without the name, recorded
from the module named on the command line: the jaxpr's text, the jitted function's lowered text and its result's
sharding and values, or the error's type and message.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_spmd_axis_name_golden.py jax
"""

import pathlib

import golden_main
import numpy as np
from golden_cases import outcome, typed_mesh

HERE = pathlib.Path(__file__).parent
ROWS = np.arange(32.0, dtype=np.float32).reshape(4, 8)


def _constrained(jax, mesh, *spec):
    return lambda v: jax.lax.with_sharding_constraint(v * 2, jax.sharding.NamedSharding(mesh, jax.P(*spec))) + 1


def _nested_jit(jax, mesh, *spec):
    sharding = jax.sharding.NamedSharding(mesh, jax.P(*spec))
    return jax.jit(lambda v: v * 2, in_shardings=sharding, out_shardings=sharding)


def _open_dimension(jax, mesh, *spec):
    return lambda v: jax.lax.with_sharding_constraint(v, jax.sharding.NamedSharding(
        mesh, jax.P(jax.P.UNCONSTRAINED, *spec)))


def _resharded(jax, mesh, *spec):
    return lambda v: jax.sharding.reshard(v * 2, jax.P(*spec)) + 1


def _put(jax, mesh, *spec):
    return lambda v: jax.device_put(v, jax.sharding.NamedSharding(mesh, jax.P(*spec)))


def _spec_constrained(jax, mesh, *spec):
    return lambda v: jax.lax.with_sharding_constraint(v, jax.P(*spec))


# name -> (the function given (jax, mesh, *spec), the spec, the vmap's keywords, the operand, the mesh's axis
# types, whether the mesh is set by set_mesh, vmap applied twice (the inner one given the keywords))
CASES_GIVEN = {
    "constraint": (_constrained, ("y",), {"spmd_axis_name": "x"}, ROWS, "Auto", False, False),
    "constraint_unnamed": (_constrained, ("y",), {}, ROWS, "Auto", False, False),
    "constraint_tuple_name": (_constrained, ("y",), {"spmd_axis_name": ("x",)}, ROWS, "Auto", False, False),
    "constraint_two_axes": (_constrained, (), {"spmd_axis_name": ("x", "y")}, ROWS.reshape(8, 4), "Auto", False,
                            False),
    "constraint_name_in_spec": (_constrained, ("y",), {"spmd_axis_name": "y"}, ROWS, "Auto", False, False),
    "constraint_in_axes_1": (_constrained, ("y",), {"spmd_axis_name": "x", "in_axes": 1}, ROWS.T.copy(), "Auto",
                             False, False),
    "constraint_out_axes_1": (_constrained, ("y",), {"spmd_axis_name": "x", "out_axes": 1}, ROWS, "Auto", True,
                              False),
    "constraint_inner_vmap": (_constrained, ("y",), {"spmd_axis_name": "x"}, ROWS.reshape(1, 4, 8), "Auto", False,
                              True),
    "constraint_open_dimension": (_open_dimension, ("y",), {"spmd_axis_name": "x"}, ROWS.reshape(4, 4, 2), "Auto",
                                  False, False),
    "constraint_open_dimension_unnamed": (_open_dimension, ("y",), {}, ROWS.reshape(4, 4, 2), "Auto", False, False),
    "constraint_under_set_mesh": (_constrained, ("y",), {"spmd_axis_name": "x"}, ROWS, "Auto", True, False),
    "constraint_spec_under_set_mesh": (_spec_constrained, ("y",), {"spmd_axis_name": "x"}, ROWS, "Auto", True,
                                       False),
    "nested_jit": (_nested_jit, ("y",), {"spmd_axis_name": "x"}, ROWS, "Auto", False, False),
    "nested_jit_replicated": (_nested_jit, (), {"spmd_axis_name": "x"}, ROWS, "Auto", False, False),
    "nested_jit_unnamed": (_nested_jit, ("y",), {}, ROWS, "Auto", False, False),
    "device_put": (_put, ("y",), {"spmd_axis_name": "x"}, ROWS, "Auto", True, False),
    "reshard_explicit": (_resharded, ("y",), {"spmd_axis_name": "x"}, ROWS, "Explicit", True, False),
    "reshard_explicit_out_axes_1": (_resharded, ("y",), {"spmd_axis_name": "x", "out_axes": 1}, ROWS, "Explicit",
                                    True, False),
}


def _case(name):
    make, spec, keywords, operand, kind, set_mesh, twice = CASES_GIVEN[name]

    def case(jax):
        mesh = typed_mesh(jax, kind, shape=(4, 2))
        function = jax.vmap(make(jax, mesh, *spec), **keywords)
        if twice:
            function = jax.vmap(function)

        def run():
            result = jax.jit(function)(operand)
            return [str(jax.make_jaxpr(function)(operand)), jax.jit(function).lower(operand).as_text(),
                    str(result.sharding), np.asarray(result).tolist()]

        if not set_mesh:
            return outcome(run)
        with jax.set_mesh(mesh):
            return outcome(run)
    return case


CASES = {name: _case(name) for name in CASES_GIVEN}


def record(jax) -> dict:
    return {name: case(jax) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(record, HERE / "spmd_axis_name_golden.json")
