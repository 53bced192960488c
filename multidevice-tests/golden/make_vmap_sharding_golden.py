"""Write vmap_sharding_golden.json: ``vmap`` over a dimension laid out over Explicit mesh axes, on eight CPU devices,
recorded from the module named on the command line: constants that control flow (loops, ``cond``, ``jit``) makes
batched or that the ``vmap`` broadcasts (jaxpr text, eager and jitted results' types, layouts and values), ``vmap``
of a ``shard_map`` over meshes of Explicit and Auto axes (jaxpr text, results' types, eager errors), layout clashes
reported in each example's types, unmapped arguments laid out along the mapped mesh axes; and the varying axes of a
shard_map body's types printed outside it.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_vmap_sharding_golden.py jax
"""


import golden_main
import numpy as np
from make_sharding_types_golden import HERE, _jaxpr, _outcome, _p

AXIS_TYPES = {"EE": ("Explicit", "Explicit"), "EA": ("Explicit", "Auto"), "AE": ("Auto", "Explicit"),
              "AA": ("Auto", "Auto")}


def _put(jax, mesh, shape, *spec):
    value = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    return jax.device_put(value, jax.sharding.NamedSharding(mesh, _p(jax, *spec)))


def _leaves_text(jax, out, with_spec: bool = True) -> str:
    """Each result's type (and layout's spec) and values."""
    return str([(str(jax.typeof(a)), str(a.sharding.spec) if with_spec else "", np.asarray(a).tolist())
                for a in jax.tree.leaves(out)])


# ---------------------------------------------------------------- constants made batched by control flow

CONTROL_FLOW = {
    "cond_constant_branch": lambda jax: lambda v: jax.lax.cond(True, lambda a: a, lambda a: 1.0, v),
    "cond_constant_outputs": lambda jax: lambda v: jax.lax.cond(True, lambda a: (a, 2.0), lambda a: (1.0, 3.0), v),
    "cond_batched_index": lambda jax: lambda v: jax.lax.cond(v > 2, lambda: v, lambda: 1.0),
    "switch_constant_branch": lambda jax: lambda v: jax.lax.switch(
        1, [lambda a: a * 2, lambda a: jax.numpy.float32(1.0)], v),
    "while_constant_carry": lambda jax: lambda v: jax.lax.while_loop(
        lambda c: c[1] < 3.0, lambda c: (c[0] + v, c[1] + 1.0), (v, 0.0)),
    "while_cond_inside": lambda jax: lambda v: jax.lax.while_loop(
        lambda c: c[1] < 3, lambda c: (jax.lax.cond(c[1] > 1, lambda: c[0], lambda: 5.0), c[1] + 1), (v, 0)),
    "while_batched_predicate": lambda jax: lambda v: jax.lax.while_loop(
        lambda c: c[0] < v, lambda c: (c[0] + 1.0, c[1] * 2), (v - 3, v)),
    "while_unbatched_carry_made_batched": lambda jax: lambda v: jax.lax.while_loop(
        lambda c: c[0] < v, lambda c: (c[0] + 1.0, c[1] + 2.0), (0.0, 0.0)),
    "fori_batched_carries": lambda jax: lambda v: jax.lax.fori_loop(
        0, 3, lambda i, c: (c[0] + 1.0, c[1] * v), (v, v)),
    "fori_unbatched_carry_made_batched": lambda jax: lambda v: jax.lax.fori_loop(
        0, 3, lambda i, c: (c[0] + v, c[1] + 1.0), (0.0, 0.0)),
    "scan_constant_ys": lambda jax: lambda v: jax.lax.scan(lambda c, _: (c * 2, 1.0), v, None, length=3),
    "scan_constant_and_batched_ys": lambda jax: lambda v: jax.lax.scan(
        lambda c, _: (c * 2, (c, 1.0)), v, None, length=3),
    "scan_unbatched_xs": lambda jax: lambda v: jax.lax.scan(
        lambda c, x: (c + x, (x * c, 2.0)), v, jax.numpy.arange(3.0)),
    "scan_batched_xs": lambda jax: lambda v: jax.lax.scan(lambda c, x: (c + x, 2.0), v, v * jax.numpy.ones(3)),
    "scan_constant_carry": lambda jax: lambda v: jax.lax.scan(lambda c, x: (c, c * x), 1.0, v * jax.numpy.ones(3)),
    "jit_constant_output": lambda jax: lambda v: jax.jit(lambda a: (a, 1.0))(v),
    "nested_vmap_scan_constant_ys": lambda jax: lambda v: jax.vmap(
        lambda w: jax.lax.scan(lambda c, _: (c + w, 1.0), w, None, length=2))(jax.numpy.stack([v, v])),
    "checkpoint_constant_output": lambda jax: lambda v: jax.jit(jax.checkpoint(lambda a: (a * 2, 3.0)))(v),
}


def _cond_branch_layouts(jax):
    """A cond whose branches return an f32[4@y] and an f32[4] (over a mesh of Explicit axes): JAX's error."""
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(jax.sharding.AxisType.Explicit,) * 2)
    with jax.sharding.set_mesh(mesh):
        v = _put(jax, mesh, (4,), "y")
        try:
            jax.make_jaxpr(lambda a: jax.lax.cond(True, lambda: a, lambda: jax.numpy.ones(4)))(v)
        except TypeError as error:
            return "\n".join(line for line in str(error).splitlines() if " is <lambda> at " not in line)
    return "no error"


def _unsplit_batch_constants(jax):
    """The jaxprs of vmaps over a dimension no mesh axis splits (of an f32[8,4@y]) returning constants."""
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(jax.sharding.AxisType.Explicit,) * 2)
    jnp, lax = jax.numpy, jax.lax
    with jax.sharding.set_mesh(mesh):
        x = _put(jax, mesh, (8, 4), None, "y")
        texts = [_jaxpr(jax, jax.vmap(f), x) for f in (
            lambda v: (v, 1.0, jnp.ones(3), v.sum()),
            lambda v: lax.scan(lambda c, _: (c, 1.0), v, None, length=2),
            lambda v: lax.cond(True, lambda: v, lambda: jnp.ones(4)))]
        eager = _leaves_text(jax, jax.vmap(lambda v: (v, 1.0))(x))
        jitted = _leaves_text(jax, jax.jit(jax.vmap(lambda v: (v, 1.0)))(x))
    return "\n".join(texts + [eager, jitted])


def _control_flow(make_f):
    """``vmap`` of ``make_f(jax)`` over an f32[8@x] (a mesh of one Explicit axis): its jaxpr, and the eager and
    jitted results."""
    def case(jax):
        mesh = jax.make_mesh((8,), ("x",), axis_types=(jax.sharding.AxisType.Explicit,))
        f = jax.vmap(make_f(jax))
        with jax.sharding.set_mesh(mesh):
            x = _put(jax, mesh, (8,), "x")
            text = _jaxpr(jax, f, x)
            eager = _outcome(lambda: _leaves_text(jax, f(x)))
            jitted = _outcome(lambda: _leaves_text(jax, jax.jit(f)(x)))
        return f"{text}\neager: {eager}\njit: {jitted}"
    return case


def _constant_types(jax):
    """The types (and their meshes' axes) of results that jit, cond, while and scan give a constant, inside a
    function traced under a mesh of one Explicit axis."""
    mesh = jax.make_mesh((8,), ("x",), axis_types=(jax.sharding.AxisType.Explicit,))
    jnp, lax = jax.numpy, jax.lax
    seen = []

    def f(v):
        outs = [jax.jit(lambda a: (a, 1.0, jnp.ones(3)))(v),
                lax.cond(True, lambda a: (a, 2.0), lambda a: (a, 3.0), v),
                lax.while_loop(lambda c: c[1] < 3, lambda c: (c[0], c[1] + 1, c[2]), (v, 0, 1.0)),
                lax.scan(lambda c, _: (c, (1.0, c)), v, None, length=2),
                lax.cond(True, lambda a: jnp.ones(3), lambda a: jnp.zeros(3), v)]
        seen.extend(f"{jax.typeof(t)} {jax.typeof(t).sharding.mesh.axis_names}" for t in jax.tree.leaves(outs))
        return v
    with jax.sharding.set_mesh(mesh):
        jax.make_jaxpr(f)(_put(jax, mesh, (8,), "x"))
    return str(seen)


# ---------------------------------------------------------------- vmap of shard_map

SHARD_MAPS = {
    # name: (batch layout, (in_specs, out_specs), in_axes)
    "batch_x_specs_y": (("x", None), (("y",), ("y",)), 0),
    "batch_x_specs_replicated": (("x", None), ((), ()), 0),
    "batch_x_y_specs_replicated": (("x", "y"), ((), ()), 0),
    "batch_x_y_specs_y": (("x", "y"), (("y",), ("y",)), 0),
    "batch_x_specs_x": (("x",), (("x",), ("x",)), 0),
    "batch_along_every_axis": ((None, ("x", "y")), ((), ()), 1),
    "batch_x_specs_y_in_axes_1": ((None, "x"), (("y",), ("y",)), 1),
    "batch_x_specs_none_y": (("x", None), ((None, "y"), (None, "y")), 0),
}


def _shard_map_under_vmap(types: str, spec: tuple, specs: tuple, in_axes: int):
    """``vmap`` (over ``in_axes``) of a shard_map adding one (``specs``: in and out) applied to an f32[2,8,4] laid
    out by ``spec`` over the mesh of ``types``: its jaxpr, and the eager and jitted results' types and sums (the
    jitted ones' specs too)."""
    def case(jax):
        mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=tuple(getattr(jax.sharding.AxisType, t)
                                                                    for t in AXIS_TYPES[types]))
        x = _put(jax, mesh, (2, 8, 4), *spec)
        g = jax.shard_map(lambda v: v + 1, mesh=mesh, in_specs=_p(jax, *specs[0]), out_specs=_p(jax, *specs[1]))
        f = jax.vmap(g, in_axes=in_axes)
        with jax.sharding.set_mesh(mesh):
            text = _jaxpr(jax, f, x)
            eager = _outcome(lambda: (lambda r: f"{jax.typeof(r)} {float(np.asarray(r).sum())}")(f(x)))
            jitted = _outcome(lambda: (lambda r: f"{jax.typeof(r)} {r.sharding.spec} {float(np.asarray(r).sum())}")(
                jax.jit(f)(x)))
        return f"{text}\neager: {eager}\njit: {jitted}"
    return case


def _shard_map_batch_in_place(out_axes: int):
    """The jaxpr of a vmap over axis 2 (results at ``out_axes``) of a shard_map over ``y`` of a mesh of Auto axes:
    the batch dimension stays in place inside it."""
    def case(jax):
        mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
        g = jax.shard_map(lambda v: v + 1, mesh=mesh, in_specs=_p(jax, "y"), out_specs=_p(jax, "y"))
        return _jaxpr(jax, jax.vmap(g, in_axes=2, out_axes=out_axes),
                      np.arange(64.0, dtype=np.float32).reshape(8, 4, 2))
    return case


# ---------------------------------------------------------------- layout clashes and unmapped arguments

def _on_mesh(run):
    """``run(jax, mesh)`` under set_mesh of a (2, 4) mesh of Explicit axes ``x``, ``y``."""
    def case(jax):
        mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(jax.sharding.AxisType.Explicit,) * 2)
        with jax.sharding.set_mesh(mesh):
            return run(jax, mesh)
    return case


def _clash(f, shapes_specs, in_axes=0):
    """The jaxpr (or error) of ``vmap(f(jax))`` applied to arrays of the given shapes and specs."""
    def run(jax, mesh):
        args = [_put(jax, mesh, shape, *spec) for shape, spec in shapes_specs]
        return _jaxpr(jax, jax.vmap(f(jax), in_axes=in_axes), *args)
    return _on_mesh(run)


BATCH = ((2, 8, 4), ("x", "y"))
CLASHES = {
    "matmul_free_dims_both_y": _clash(lambda jax: lambda u, v: u @ v, [BATCH, ((2, 4, 8), ("x", None, "y"))]),
    "matmul_contracting_both_y": _clash(lambda jax: lambda u, v: u.T @ v.T, [BATCH, ((2, 4, 8), ("x", None, "y"))]),
    "dot_one_contracting_split": _clash(lambda jax: jax.numpy.dot, [BATCH, ((2, 4, 8), ("x", "y"))]),
    "matmul_unbatched_operand": _clash(lambda jax: lambda u, v: u @ v, [BATCH, ((4, 8), (None, "y"))],
                                       in_axes=(0, None)),
    "add_clash": _clash(lambda jax: lambda u, v: u + v.T, [BATCH, ((2, 4, 8), ("x", "y"))]),
    "mul_clash": _clash(lambda jax: lambda u, v: u * v, [BATCH, ((2, 8, 4), ("x", None, "y"))]),
    "dot_general_free_dims": _clash(lambda jax: lambda u, v: jax.lax.dot_general(u, v, (([1], [1]), ([], []))),
                                    [BATCH, ((2, 8, 4), ("x", None, "y"))]),
    "select_clash": _clash(lambda jax: lambda u, v: jax.numpy.where(u > 0, u, v),
                           [BATCH, ((2, 8, 4), ("x", None, "y"))]),
    # a given out_sharding gains the batch dimension's layout (its axes, or none for a whole dimension)
    "broadcast_to_out_sharding": _clash(lambda jax: lambda u: jax.numpy.broadcast_to(
        u, (2, 8, 4), out_sharding=jax.sharding.PartitionSpec(None, "y")), [BATCH]),
    "broadcast_to_out_sharding_whole_batch": _clash(lambda jax: lambda u: jax.numpy.broadcast_to(
        u, (2, 8, 4), out_sharding=jax.sharding.PartitionSpec(None, "y")), [((2, 8, 4), (None, "y"))]),
    "dot_out_sharding": _clash(lambda jax: lambda u: jax.numpy.dot(
        u, jax.numpy.ones((4, 2)), out_sharding=jax.sharding.PartitionSpec("y")), [BATCH]),
    "pad_split_dimension": _clash(lambda jax: lambda u: jax.numpy.pad(u, ((0, 1), (0, 0))), [BATCH]),
    # these name the batched types, as JAX's batched operations meet the clash
    "slice_split_dimension": _clash(lambda jax: lambda u: u[:1], [BATCH]),
    "concatenate_clash": _clash(lambda jax: lambda u, v: jax.numpy.concatenate([u, v], 1),
                                [BATCH, ((2, 8, 4), ("x", None, "y"))]),
}


def _three_axes_clash(f):
    """The first line of the jaxpr (or the error) of ``vmap(f(jax))`` of an f32[2@x,4@y] and an f32[2@x,4@z] on a
    (2, 2, 2) mesh of Explicit axes."""
    def case(jax):
        mesh = jax.make_mesh((2, 2, 2), ("x", "y", "z"), axis_types=(jax.sharding.AxisType.Explicit,) * 3)
        with jax.sharding.set_mesh(mesh):
            args = [_put(jax, mesh, (2, 4), "x", axis) for axis in ("y", "z")]
            return _jaxpr(jax, jax.vmap(f(jax)), *args).splitlines()[0]
    return case


CLASHES.update({
    "three_axes_add": _three_axes_clash(lambda jax: lambda u, v: u + v),
    "three_axes_atan2": _three_axes_clash(lambda jax: jax.numpy.arctan2),
    "three_axes_where": _three_axes_clash(lambda jax: lambda u, v: jax.numpy.where(u > 0, u, v)),
    "three_axes_dynamic_update_slice": _three_axes_clash(
        lambda jax: lambda u, v: jax.lax.dynamic_update_slice(u, v, (0,))),
    "three_axes_sort": _three_axes_clash(lambda jax: lambda u, v: jax.lax.sort((u, v), num_keys=1)[0]),
})

UNMAPPED = {
    # name: ((mapped shape, spec), (unmapped shape, spec), in_axes)
    "batch_xy_unmapped_x": (((8, 4), (("x", "y"),)), ((8, 4), ("x",)), (0, None)),
    "batch_xy_unmapped_y": (((8, 4), (("x", "y"),)), ((4, 8), (None, "y")), (0, None)),
    "batch_xy_unmapped_yx": (((8, 4), (("x", "y"),)), ((8, 4), (("y", "x"),)), (0, None)),
    "batch_x_unmapped_y_x": (((8, 4), ("x",)), ((8, 4), ("y", "x")), (0, None)),
    "batch_x_unmapped_y": (((8, 4), ("x",)), ((4, 8), (None, "y")), (0, None)),
    "unmapped_first": (((8, 4), ("x",)), ((8, 4), ("x",)), (None, 0)),
}


def _unmapped(mapped, unmapped, in_axes):
    """The first line of the jaxpr (or the error) of a vmap given a mapped and an unmapped argument."""
    def run(jax, mesh):
        args = [_put(jax, mesh, shape, *spec) for shape, spec in (mapped, unmapped)]
        return _jaxpr(jax, jax.vmap(lambda a, b: a.sum() + b.sum(), in_axes=in_axes), *args).splitlines()[0]
    return _on_mesh(run)


def _varying_axes_printed_outside(jax):
    """The types of a body varying over two axes of a mesh ``("y", "x")``, printed inside it and, on their own, after
    it was traced: in mesh order either way."""
    mesh = jax.make_mesh((2, 4), ("y", "x"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
    seen = []

    def body(v):
        w = v * jax.lax.axis_index("x").astype(np.float32)
        seen.extend(str(jax.typeof(t)) for t in (v, w))
        return w
    g = jax.shard_map(body, mesh=mesh, in_specs=_p(jax, "y", "x"), out_specs=_p(jax, "y", "x"))
    inner = jax.make_jaxpr(g)(np.arange(32.0, dtype=np.float32).reshape(8, 4)).eqns[0].params["jaxpr"]
    inner = getattr(inner, "jaxpr", inner)  # JAX's body is a Jaxpr, jaxle's a ClosedJaxpr
    outside = [str(v.aval) for v in inner.invars] + [str(v.aval) for e in inner.eqns for v in e.outvars]
    return f"{seen} {outside}"


CASES = {f"control_flow_{name}": _control_flow(f) for name, f in CONTROL_FLOW.items()}
CASES["varying_axes_printed_outside_the_body"] = _varying_axes_printed_outside
CASES["constant_types"] = _constant_types
CASES["unsplit_batch_constants"] = _unsplit_batch_constants
CASES["cond_branches_laid_out_differently"] = _cond_branch_layouts
CASES.update({f"shard_map_{types}_{name}": _shard_map_under_vmap(types, *SHARD_MAPS[name])
              for types in ("EE", "EA", "AE") for name in SHARD_MAPS})
CASES.update({f"shard_map_batch_in_place_out_axes_{out}": _shard_map_batch_in_place(out) for out in (0, 1)})
CASES.update({f"clash_{name}": case for name, case in CLASHES.items()})
CASES.update({f"unmapped_{name}": _unmapped(*UNMAPPED[name]) for name in UNMAPPED})


def run(jax) -> dict:
    return {name: case(jax) for name, case in sorted(CASES.items())}


if __name__ == "__main__":
    golden_main.main(run, HERE / "vmap_sharding_golden.json")
