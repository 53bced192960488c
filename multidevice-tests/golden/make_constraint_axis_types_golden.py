"""Write constraint_axis_types_golden.json: what ``jax.lax.with_sharding_constraint`` does with the axis types of
its sharding's mesh and of the mesh set by ``jax.set_mesh`` on eight CPU devices (the type and layout of the result,
or JAX's error: Explicit axes refused outside a mesh of Explicit axes only, where a constraint only asserts the
type; ``P.UNCONSTRAINED`` refused without Auto axes), given a PartitionSpec or a NamedSharding, eagerly and under
``jit``, recorded from the module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_constraint_axis_types_golden.py jax
"""

import pathlib

import golden_main
from golden_cases import MESH_KINDS, failure, first_line, typed_mesh

HERE = pathlib.Path(__file__).parent


def _mesh(jax, kind: str):
    return typed_mesh(jax, *MESH_KINDS[kind])


def _spec(jax, spec: tuple):
    P = jax.sharding.PartitionSpec
    return P(*(P.UNCONSTRAINED if entry == "unconstrained" else entry for entry in spec))


def _case(jax, context: str | None, sharding_mesh: str | None, spec: tuple, laid_out: tuple | None, staged: bool):
    """Constrain a (2, 4) array (laid out as ``laid_out`` over the ``context`` mesh when given) to ``spec``, a
    PartitionSpec when ``sharding_mesh`` is None, else a NamedSharding over that kind of mesh."""
    import numpy as np

    value = np.arange(8.0, dtype=np.float32).reshape(2, 4)
    if laid_out is not None:
        value = jax.device_put(value, jax.sharding.NamedSharding(_mesh(jax, context), _spec(jax, laid_out)))

    def constrain(a):
        target = _spec(jax, spec)
        if sharding_mesh is not None:
            target = jax.sharding.NamedSharding(_mesh(jax, sharding_mesh), target)
        return jax.lax.with_sharding_constraint(a, target)

    run = jax.jit(constrain) if staged else constrain
    try:
        if context is None:
            out = run(value)
        else:
            with jax.sharding.set_mesh(_mesh(jax, context)):
                out = run(value)
    except Exception as error:  # the type and message are what is compared
        return failure(error, first_line)
    # the layout as each device's block (JAX spells a replicated result's spec in several ways)
    blocks = sorted({shard.data.shape for shard in out.addressable_shards})
    return (f"{jax.typeof(out).str_short()} blocks={blocks} on {len(out.sharding.device_set)} devices "
            f"{np.asarray(out).tolist() == value.tolist()}")


SETTINGS = {
    # (context mesh, sharding's mesh (None: a PartitionSpec), spec, layout of the argument)
    "ns_explicit_axis_no_context": (None, "explicit", ("x",), None),
    "ns_explicit_axes_replicated_no_context": (None, "explicit", (None, None), None),
    "ns_explicit_unconstrained_no_context": (None, "explicit", ("unconstrained",), None),
    "ns_mixed_explicit_axis_no_context": (None, "mixed", ("x",), None),
    "ns_mixed_auto_axis_no_context": (None, "mixed", (None, "y"), None),
    "ns_mixed_both_axes_no_context": (None, "mixed", (("x", "y"),), None),
    "ns_mixed_unconstrained_no_context": (None, "mixed", ("unconstrained",), None),
    "ns_auto_axis_no_context": (None, "auto", ("x",), None),
    "p_no_context": (None, None, ("x",), None),
    "p_explicit_mismatch": ("explicit", None, ("x",), None),
    "p_explicit_matching": ("explicit", None, ("x",), ("x",)),
    "p_explicit_unconstrained": ("explicit", None, (None, "unconstrained"), None),
    "ns_explicit_mismatch": ("explicit", "explicit", ("x",), None),
    "ns_explicit_matching": ("explicit", "explicit", ("x", "y"), ("x", "y")),
    "ns_auto_mesh_under_explicit": ("explicit", "auto", ("x",), None),
    "p_mixed_explicit_axis": ("mixed", None, ("x",), None),
    "p_mixed_explicit_axis_matching": ("mixed", None, ("x",), ("x",)),
    "p_mixed_auto_axis": ("mixed", None, (None, "y"), None),
    "p_mixed_unconstrained": ("mixed", None, ("unconstrained",), None),
    "ns_explicit_mesh_under_mixed": ("mixed", "explicit", ("x",), None),
    "ns_explicit_mesh_under_auto": ("auto", "explicit", ("x",), None),
    "ns_mixed_mesh_under_auto": ("auto", "mixed", ("x",), None),
}

CASES = {f"{name}_{'jit' if staged else 'eager'}":
         (lambda jax, setting=setting, staged=staged: _case(jax, *setting, staged=staged))
         for name, setting in SETTINGS.items() for staged in (False, True)}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "constraint_axis_types_golden.json")
