"""Write mixed_mesh_golden.json: the PartitionSpecs JAX reports for arrays laid out over meshes of Auto axes, of
Explicit axes and of both (device_put, jitted and eager results), and ``vmap`` of a ``shard_map`` over a batch
split along Explicit mesh axes (jaxpr text, manual axes, results' layouts and types, errors), on eight CPU
devices, recorded from the module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_mixed_mesh_golden.py jax
"""


import golden_main
import numpy as np
from golden_cases import typed_mesh
from make_sharding_types_golden import HERE, _jaxpr, _outcome, _p

AXIS_TYPES = {"EE": ("Explicit", "Explicit"), "AA": ("Auto", "Auto"), "EA": ("Explicit", "Auto"),
              "AE": ("Auto", "Explicit")}
SPECS = {"replicated": (), "x": ("x",), "x_none": ("x", None), "none_y": (None, "y"), "x_y": ("x", "y"),
         "y": ("y",), "xy": (("x", "y"),)}
OPERATIONS = {
    "device_put": None,
    "jit_identity": lambda jax: jax.jit(lambda v: v),
    "jit_double": lambda jax: jax.jit(lambda v: v * 2),
    "eager_double": lambda jax: lambda v: v * 2,
    "jit_sum": lambda jax: jax.jit(lambda v: v.sum(0)),
    "jit_transpose": lambda jax: jax.jit(lambda v: v.T),
}


def _mesh(jax, types: str):
    return typed_mesh(jax, *AXIS_TYPES[types])


def _put(jax, mesh, shape, *spec):
    value = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    return jax.device_put(value, jax.sharding.NamedSharding(mesh, _p(jax, *spec)))


def _laid_out(jax, x) -> str:
    return f"{x.sharding.spec} {jax.typeof(x)}"


def _result_spec(types: str, spec: tuple, operation):
    """The spec and type of ``operation(jax)`` applied to an f32[8,4] put on the mesh of ``types`` by ``spec``."""
    def case(jax):
        mesh = _mesh(jax, types)
        x = _put(jax, mesh, (8, 4), *spec)
        return _outcome(lambda: _laid_out(jax, x if operation is None else operation(jax)(x)))
    return case


def _laid_out_as_asked(types: str, spec: tuple, out_spec: tuple):
    """The spec and type of a jitted ``v * 2`` given ``out_shardings`` of ``out_spec``, of an f32[8,4] put on the
    mesh of ``types`` by ``spec``."""
    def case(jax):
        mesh = _mesh(jax, types)
        f = jax.jit(lambda v: v * 2, out_shardings=jax.sharding.NamedSharding(mesh, _p(jax, *out_spec)))
        return _outcome(lambda: _laid_out(jax, f(_put(jax, mesh, (8, 4), *spec))))
    return case


def _manual_axes(jaxpr) -> str:
    eqn = next(e for e in jaxpr.jaxpr.eqns if "newly_manual_axes" in e.params)
    return str(sorted(eqn.params["newly_manual_axes"]))


def _vmapped_shard_map(types: str, spec: tuple, specs: tuple, in_axes: int = 0, axis_names=None,
                       body=lambda jax: lambda v: v + 1):
    """``vmap`` (over ``in_axes``) of a shard_map (``specs``: in and out) applied to an f32[2,8,4] put on the mesh of
    ``types`` by ``spec``: the manual axes of its jaxpr and the result's layout, or the error."""
    def case(jax):
        mesh = _mesh(jax, types)
        x = _put(jax, mesh, (2, 8, 4), *spec)
        names = {} if axis_names is None else {"axis_names": axis_names}
        g = jax.shard_map(body(jax), mesh=mesh, in_specs=_p(jax, *specs[0]), out_specs=_p(jax, *specs[1]), **names)
        mapped = jax.vmap(g, in_axes=in_axes)
        with jax.sharding.set_mesh(mesh):
            manual = _outcome(lambda: _manual_axes(jax.make_jaxpr(mapped)(x)))
            result = _outcome(lambda: f"{_laid_out(jax, mapped(x))} {float(np.asarray(mapped(x)).sum())}")
        return f"{manual}; {result}"
    return case


def _split_batch_jaxpr(transform):
    """The jaxpr of ``transform(jax, g)`` (g: a shard_map over ``y``) applied to an f32[2@x,8@y,4]."""
    def case(jax):
        mesh = _mesh(jax, "EE")
        g = jax.shard_map(lambda v: v + 1, mesh=mesh, in_specs=_p(jax, "y"), out_specs=_p(jax, "y"))
        with jax.sharding.set_mesh(mesh):
            return _jaxpr(jax, transform(jax, g), _put(jax, mesh, (2, 8, 4), "x", "y"))
    return case


def _axis_names_fixed_at_first_call(jax):
    """A shard_map given no axis names, called first under a vmap of a batch split along ``x``, then on its own:
    the manual axes of the second call's jaxpr, and of a vmap over a batch split along ``y`` after it."""
    mesh = _mesh(jax, "EE")
    g = jax.shard_map(lambda v: v + 1, mesh=mesh, in_specs=_p(jax, "y"), out_specs=_p(jax, "y"))
    with jax.sharding.set_mesh(mesh):
        jax.vmap(g)(_put(jax, mesh, (2, 8, 4), "x", "y"))
        alone = _manual_axes(jax.make_jaxpr(g)(_put(jax, mesh, (8, 4), "y")))
        after = _outcome(lambda: _manual_axes(jax.make_jaxpr(jax.vmap(g, in_axes=1))(
            _put(jax, mesh, (2, 8, 4), "x", "y"))))
    return f"{alone}; {after}"


# name -> (in spec, out spec, manual axis names (None: all), the argument's shape and spec, vmapped)
PARTLY_MANUAL_EAGER = {
    "names_y_arg_x": ((None, "y"), (None, "y"), {"y"}, (8, 4), ("x", "y"), False),
    "names_y_arg_x_only": ((), (), {"y"}, (8, 4), ("x",), False),
    "names_x_arg_y_only": ((), (), {"x"}, (8, 4), (None, "y"), False),
    "names_x_arg_y": (("x",), ("x",), {"x"}, (8, 4), ("x", "y"), False),
    "names_y_arg_replicated": (("y",), ("y",), {"y"}, (8, 4), (), False),
    "names_x_arg_replicated": (("x",), ("x",), {"x"}, (8, 4), (), False),
    "vmap_batch_x_specs_y": (("y",), ("y",), None, (2, 8, 4), ("x", "y"), True),
    "vmap_batch_x_specs_replicated": ((), (), None, (2, 8, 4), ("x",), True),
}


def _eager_shard_map(types: str, name: str, in_context: bool):
    """An eager shard_map (``PARTLY_MANUAL_EAGER[name]``) on the mesh of ``types``, under set_mesh or not: its
    result's layout and type and the sum of its values."""
    in_spec, out_spec, names, shape, spec, vmapped = PARTLY_MANUAL_EAGER[name]

    def case(jax):
        mesh = _mesh(jax, types)
        names_given = {} if names is None else {"axis_names": names}
        g = jax.shard_map(lambda v: v * 2, mesh=mesh, in_specs=_p(jax, *in_spec), out_specs=_p(jax, *out_spec),
                          **names_given)
        f = jax.vmap(g) if vmapped else g
        x = _put(jax, mesh, shape, *spec)
        if not in_context:
            return _outcome(lambda: f"{_laid_out(jax, f(x))} {float(np.asarray(f(x)).sum())}")
        with jax.sharding.set_mesh(mesh):
            return _outcome(lambda: f"{_laid_out(jax, f(x))} {float(np.asarray(f(x)).sum())}")
    return case


def _partly_manual(types: str, axis: str, jitted: bool):
    """A shard_map manual over ``axis`` only (its specs naming it) of a replicated f32[8,4] on the mesh of ``types``,
    called eagerly or under jit: its result's layout and type."""
    def case(jax):
        mesh = _mesh(jax, types)
        g = jax.shard_map(lambda v: v * 2, mesh=mesh, in_specs=_p(jax, axis), out_specs=_p(jax, axis),
                          axis_names={axis})
        with jax.sharding.set_mesh(mesh):
            return _outcome(lambda: _laid_out(jax, (jax.jit(g) if jitted else g)(_put(jax, mesh, (8, 4)))))
    return case


def _constrained(types: str, spec: tuple, constraint: tuple, in_context: bool):
    """``with_sharding_constraint`` to ``NamedSharding(mesh, P(*constraint))`` inside a jit, of an f32[8,4] put on
    the mesh of ``types`` by ``spec``, under ``set_mesh`` or not: the result's layout and type, or the error."""
    def case(jax):
        mesh = _mesh(jax, types)
        x = _put(jax, mesh, (8, 4), *spec)
        target = jax.sharding.NamedSharding(mesh, _p(jax, *constraint))
        f = jax.jit(lambda v: jax.lax.with_sharding_constraint(v * 2, target))
        if not in_context:
            return _outcome(lambda: _laid_out(jax, f(x)))
        with jax.sharding.set_mesh(mesh):
            return _outcome(lambda: _laid_out(jax, f(x)))
    return case


def _types_inside_vmap(in_axes: int, spec: tuple):
    """The types a vmapped function sees of an f32[2,8,4] (laid out by ``spec``) and the vmap's jaxpr."""
    def case(jax):
        mesh = _mesh(jax, "EE")
        seen = []

        def f(v):
            seen.append(str(jax.typeof(v)))
            return v * 2
        with jax.sharding.set_mesh(mesh):
            x = _put(jax, mesh, (2, 8, 4), *spec)
            text = _jaxpr(jax, jax.vmap(f, in_axes=in_axes), x)
        return f"{seen} {text}"
    return case


CASES = {f"{types}_{spec}_{operation}": _result_spec(types, SPECS[spec], OPERATIONS[operation])
         for types in AXIS_TYPES for spec in SPECS for operation in OPERATIONS}
CASES.update({f"{types}_{spec}_out_shardings_{out}": _laid_out_as_asked(types, SPECS[spec], SPECS[out])
              for types in AXIS_TYPES for spec in ("replicated", "x", "y") for out in ("x", "none_y")})
CASES.update({f"{types}_partly_manual_{axis}_{'jit' if jitted else 'eager'}": _partly_manual(types, axis, jitted)
              for types in ("EA", "AE") for axis in ("x", "y") for jitted in (False, True)})
CASES.update({f"{types}_{spec}_constrained_{target}_{'in' if context else 'outside'}_set_mesh":
              _constrained(types, SPECS[spec], SPECS[target], context)
              for types in ("EE", "EA") for spec in ("replicated", "x") for target in ("replicated", "x", "none_y")
              for context in (False, True)})
CASES.update({f"{types}_eager_shard_map_{name}_{'in' if context else 'outside'}_set_mesh":
              _eager_shard_map(types, name, context)
              for types in ("EA", "AE", "EE") for name in PARTLY_MANUAL_EAGER for context in (False, True)})
CASES.update({
    "vmap_shard_map_batch_x_specs_y": _vmapped_shard_map("EE", ("x", "y"), (("y",), ("y",))),
    "vmap_shard_map_batch_x_specs_replicated": _vmapped_shard_map("EE", ("x", "y"), ((), ())),
    "vmap_shard_map_batch_x_specs_x": _vmapped_shard_map("EE", ("x",), (("x",), ("x",))),
    "vmap_shard_map_batch_y_specs_y": _vmapped_shard_map("EE", ("x", "y"), (("y",), ("y",)), in_axes=1),
    "vmap_shard_map_batch_y_specs_replicated": _vmapped_shard_map("EE", ("x", "y"), ((), ()), in_axes=1),
    "vmap_shard_map_names_y": _vmapped_shard_map("EE", ("x", "y"), (("y",), ("y",)), axis_names={"y"}),
    "vmap_shard_map_names_x": _vmapped_shard_map("EE", ("x", "y"), (("x",), ("x",)), axis_names={"x"}),
    "vmap_shard_map_psum": _vmapped_shard_map("EE", ("x", "y"), (("y",), ()),
                                              body=lambda jax: lambda v: jax.lax.psum(v, "y")),
    "vmap_shard_map_all_auto": _vmapped_shard_map("AA", ("x", "y"), (("y",), ("y",))),
    "vmap_shard_map_jaxpr": _split_batch_jaxpr(lambda jax, g: jax.vmap(g)),
    "vmap_of_jit_shard_map_jaxpr": _split_batch_jaxpr(lambda jax, g: jax.vmap(jax.jit(g))),
    "jit_of_vmap_shard_map_jaxpr": _split_batch_jaxpr(lambda jax, g: jax.jit(jax.vmap(g))),
    "shard_map_axis_names_fixed_at_first_call": _axis_names_fixed_at_first_call,
    "types_inside_vmap_batch_x": _types_inside_vmap(0, ("x", "y")),
    "types_inside_vmap_batch_y": _types_inside_vmap(1, ("x", "y")),
})


def run(jax) -> dict:
    return {name: case(jax) for name, case in sorted(CASES.items())}


if __name__ == "__main__":
    golden_main.main(run, HERE / "mixed_mesh_golden.json")
