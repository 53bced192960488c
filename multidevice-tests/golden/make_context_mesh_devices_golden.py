"""Write context_mesh_devices_golden.json: under ``jax.set_mesh``, what JAX refuses for lying on other devices than
the mesh set (arguments laid out over a mesh of other devices, of the same devices in another order, of some of
them, or committed to one device; in_shardings, out_shardings and sharding constraints elsewhere), eagerly, by a
jitted call (a first and a cached one), by ``lower`` and by ``trace``, over meshes of Auto and of Explicit axes;
the refusals of shardings asked for that end with the user's source line; and jit's refusal of shardings of more
entries than a value's rank. Recorded from the module named on the command line:

    /work/jaxpeer/bin/python multidevice-tests/golden/make_context_mesh_devices_golden.py jax
"""

import importlib
import pathlib

import golden_main
import numpy as np
from golden_cases import in_golden, outcome

HERE = pathlib.Path(__file__).parent
X = np.arange(8.0, dtype=np.float32)


def _outcome(thunk) -> str:
    """What ``thunk()`` gives: the error (type and message, this folder's path left out of the source lines it
    names), or the result's sharding and values (a jaxpr's or a program's text, as it is)."""
    return outcome(thunk, lambda r: r if isinstance(r, str) else f"{r.sharding} {np.asarray(r).tolist()}",
                   message=in_golden)


def _jnp(jax):
    return importlib.import_module(jax.__name__ + ".numpy")


def _meshes(jax, kind: str) -> dict:
    """The mesh set (the first four devices) and the meshes arguments lie over, of ``kind`` axes."""
    axis_type = getattr(jax.sharding.AxisType, kind)
    devices = np.array(jax.devices())

    def mesh(ids):
        return jax.sharding.Mesh(devices[ids], ("x",), axis_types=(axis_type,))

    return {"set": mesh([0, 1, 2, 3]), "other": mesh([4, 5, 6, 7]), "reversed": mesh([3, 2, 1, 0]),
            "subset": mesh([0, 1])}


def _argument(jax, kind: str, where: str):
    """X laid out over the mesh ``where`` names, committed to one device (``device6``: outside the mesh set,
    ``device1``: in it), or uncommitted."""
    if where == "uncommitted":
        return _jnp(jax).asarray(X)
    if where.startswith("device"):
        return jax.device_put(X, jax.devices()[int(where[-1])])
    return jax.device_put(X, jax.sharding.NamedSharding(_meshes(jax, kind)[where], jax.sharding.PartitionSpec("x")))


def _under_mesh(jax, kind: str, where: str, use: str) -> str:
    """``use`` of an argument lying ``where`` (``_argument``) under set_mesh of the first four devices."""
    x = _argument(jax, kind, where)
    double = jax.jit(lambda a: a * 2)
    uses = {
        "call": lambda: double(x),
        "call_again": lambda: [_outcome(lambda: double(x)) for _ in range(2)][1],
        "lower": lambda: jax.jit(lambda a: a + 1).lower(x).as_text()[:40],
        "trace": lambda: str(jax.jit(lambda a: a + 3).trace(x).jaxpr),
        "eager": lambda: x * 2,
        "eager_sin": lambda: _jnp(jax).sin(x),
    }
    with jax.set_mesh(_meshes(jax, kind)["set"]):
        return _outcome(uses[use])


def _cached_then_other(jax, kind: str) -> str:
    """A jitted function called (twice: C++ dispatch runs the second call) with an argument over the mesh set,
    then with one over other devices; and a function run over the other devices outside the mesh, then called
    under it."""
    meshes = _meshes(jax, kind)
    P, NamedSharding = jax.sharding.PartitionSpec, jax.sharding.NamedSharding
    inside = jax.device_put(X, NamedSharding(meshes["set"], P("x")))
    other = jax.device_put(X, NamedSharding(meshes["other"], P("x")))
    double = jax.jit(lambda a: a * 2)
    results = [_outcome(lambda: double(other))]
    with jax.set_mesh(meshes["set"]):
        results += [_outcome(lambda: double(inside)) for _ in range(3)]
        results += [_outcome(lambda: double(other)) for _ in range(2)]
        results += [_outcome(lambda: double(X)) for _ in range(2)]
    return " | ".join(results)


def _shardings_case(jax, case: str) -> str:
    """jit's in_shardings, out_shardings and constraints over other devices than the mesh set (of Auto axes)."""
    meshes = _meshes(jax, "Auto")
    P, NamedSharding = jax.sharding.PartitionSpec, jax.sharding.NamedSharding
    inside = jax.device_put(X, NamedSharding(meshes["set"], P("x")))
    other = jax.device_put(X, NamedSharding(meshes["other"], P("x")))
    one = jax.sharding.SingleDeviceSharding(jax.devices()[5])

    def outer():
        def inner(a, b):
            return a + b
        return inner

    add = outer()
    cases = {
        "in_shardings_other": lambda: jax.jit(lambda a: a * 2, in_shardings=NamedSharding(meshes["other"], P("x")))(X),
        "in_shardings_other_committed": lambda: jax.jit(add, in_shardings=(
            NamedSharding(meshes["set"], P("x")), NamedSharding(meshes["other"], P("x"))))(inside, other),
        "in_shardings_other_committed_lower": lambda: jax.jit(add, in_shardings=(
            NamedSharding(meshes["set"], P("x")), NamedSharding(meshes["other"], P("x")))).lower(inside, other),
        "in_shardings_named_by_later_argument": lambda: jax.jit(add, in_shardings=(
            NamedSharding(meshes["other"], P("x")), None))(X, other),
        "in_shardings_one_device": lambda: jax.jit(add, in_shardings=one)(X, X),
        "out_shardings_other": lambda: jax.jit(
            lambda a: a * 2, out_shardings=NamedSharding(meshes["other"], P("x")))(X),
        "out_shardings_other_lower": lambda: jax.jit(
            lambda a: a * 2, out_shardings=NamedSharding(meshes["other"], P("x"))).lower(X).as_text(),
        "out_shardings_one_device": lambda: jax.jit(add, out_shardings=one)(inside, inside),
        "out_shardings_one_device_lower": lambda: jax.jit(add, out_shardings=one).lower(inside, inside).as_text(),
        "argument_before_out_shardings": lambda: jax.jit(
            add, out_shardings=NamedSharding(meshes["other"], P()))(inside, other),
        "two_arguments": lambda: jax.jit(add)(inside, other),
        "two_arguments_lower": lambda: jax.jit(add).lower(inside, other).as_text(),
        "pytree_argument": lambda: jax.jit(lambda d: d["k"][0] * 2)({"k": [other]}),
        "one_device_arguments": lambda: jax.jit(add)(inside, jax.device_put(X, jax.devices()[5])),
        "one_device_arguments_lower": lambda: jax.jit(add).lower(jax.device_put(X, jax.devices()[5]), inside)
        .as_text(),
        "eager_binary": lambda: inside + other,
        "constraint_reversed": lambda: jax.jit(lambda a: jax.lax.with_sharding_constraint(
            a, NamedSharding(meshes["reversed"], P("x"))))(X),
        "eager_constraint_reversed": lambda: jax.lax.with_sharding_constraint(
            X, NamedSharding(meshes["reversed"], P("x"))),
        "eager_constraint_of_reversed": lambda: jax.lax.with_sharding_constraint(
            jax.device_put(X, NamedSharding(meshes["reversed"], P("x"))), NamedSharding(meshes["set"], P("x"))),
        "reshard_to_other": lambda: jax.sharding.reshard(inside, NamedSharding(meshes["other"], P())),
    }
    with jax.set_mesh(meshes["set"]):
        return _outcome(cases[case])


def _reshard_outside_mesh(jax, where: str) -> str:
    """An eager reshard, outside set_mesh, of an argument lying ``where`` to the mesh of the first four devices."""
    meshes = _meshes(jax, "Explicit")
    x = _argument(jax, "Explicit", where)
    return _outcome(lambda: jax.sharding.reshard(x, jax.sharding.NamedSharding(meshes["set"],
                                                                               jax.sharding.PartitionSpec("x"))))


def _located(jax, case: str) -> str:
    """The refusals that end with the user's source line (or with none where JAX names none)."""
    devices = jax.devices()
    P, NamedSharding, AxisType = jax.sharding.PartitionSpec, jax.sharding.NamedSharding, jax.sharding.AxisType
    mixed = jax.sharding.Mesh(np.array(devices[:4]).reshape(2, 2), ("x", "y"), axis_types=(AxisType.Auto,
                                                                                            AxisType.Explicit))
    explicit = jax.sharding.Mesh(np.array(devices[:4]), ("x",), axis_types=(AxisType.Explicit,))
    auto = jax.sharding.Mesh(np.array(devices[:4]), ("x",), axis_types=(AxisType.Auto,))
    elsewhere = jax.sharding.Mesh(np.array(devices[4:]), ("z",), axis_types=(AxisType.Explicit,))
    auto_elsewhere = NamedSharding(jax.sharding.Mesh(np.array(devices[4:]), ("x",), axis_types=(AxisType.Auto,)), P())
    subset = jax.sharding.Mesh(np.array(devices[:2]), ("x",), axis_types=(AxisType.Explicit,))
    key = jax.random.key(0)
    ones = np.ones(4, np.float32)
    jnp = _jnp(jax)

    def in_a_function(a):
        return jnp.asarray(a, device=devices[5])

    cases = {
        "sampler_auto_axis": (mixed, lambda: jax.random.normal(key, (4,), out_sharding=P("x"))),
        "sampler_auto_axis_jit": (mixed, lambda: jax.jit(lambda k: jax.random.uniform(
            k, (4,), out_sharding=P("x")))(key)),
        "sampler_other_mesh": (explicit, lambda: jax.random.normal(key, (4,), out_sharding=NamedSharding(
            elsewhere, P("z")))),
        "sampler_other_mesh_jit": (explicit, lambda: jax.jit(lambda k: jax.random.bernoulli(
            k, 0.5, (4,), out_sharding=NamedSharding(elsewhere, P("z"))))(key)),
        "reshard_auto_axis": (mixed, lambda: jax.sharding.reshard(jnp.ones((4, 4)), P("x"))),
        "reshard_auto_axis_jit": (mixed, lambda: jax.jit(lambda a: jax.sharding.reshard(a, P("x")))(ones)),
        "asarray_device_jit": (explicit, lambda: jax.jit(lambda a: jnp.asarray(a, device=devices[5]))(ones)),
        "asarray_device_in_mesh_jit": (auto, lambda: jax.jit(lambda a: jnp.asarray(a, device=devices[1]))(ones)),
        "asarray_device_function_jit": (auto, lambda: jax.jit(in_a_function)(ones)),
        "asarray_device_function_lower": (auto, lambda: jax.jit(in_a_function).lower(ones).as_text()),
        "array_device_jit": (auto, lambda: jax.jit(lambda a: jnp.array(a, device=devices[5]))(ones)),
        "astype_device_jit": (explicit, lambda: jax.jit(lambda a: a.astype(np.int32, device=devices[5]))(ones)),
        "asarray_device_eager": (explicit, lambda: jnp.asarray(ones, device=devices[5])),
        "linspace_device_jit": (explicit, lambda: jax.jit(lambda a: jnp.linspace(0, 1, 4, device=devices[5]))(ones)),
        "asarray_auto_sharding_jit": (explicit, lambda: jax.jit(lambda a: jnp.asarray(a, device=auto_elsewhere))(
            ones)),
        "asarray_auto_sharding_eager": (explicit, lambda: jnp.asarray(ones, device=auto_elsewhere)),
        "asarray_other_auto_mesh_jit": (auto, lambda: jax.jit(lambda a: jnp.asarray(a, device=auto_elsewhere))(
            ones)),
        "operand_over_subset_jit": (explicit, lambda: jax.jit(lambda a: a * 2)(jax.device_put(
            ones, NamedSharding(subset, P("x"))))),
        "operand_over_subset_eager": (explicit, lambda: jnp.sin(jax.device_put(ones, NamedSharding(subset, P("x"))))),
    }
    mesh, thunk = cases[case]
    with jax.set_mesh(mesh):
        return _outcome(thunk)


def _rank(jax, case: str) -> str:
    """jit's refusal of in_shardings and out_shardings with more entries than their value's rank."""
    devices = jax.devices()
    P, NamedSharding = jax.sharding.PartitionSpec, jax.sharding.NamedSharding
    mesh = jax.sharding.Mesh(np.array(devices[:4]).reshape(2, 2), ("x", "y"))
    explicit = jax.sharding.Mesh(np.array(devices[:4]).reshape(2, 2), ("x", "y"),
                                 axis_types=(jax.sharding.AxisType.Explicit,) * 2)
    two, one = NamedSharding(mesh, P("x", "y")), NamedSharding(mesh, P("x"))
    x = np.ones(4, np.float32)
    cases = {
        "output": lambda: jax.jit(lambda a: a * 2, out_shardings=two)(x),
        "output_lower": lambda: jax.jit(lambda a: a * 2, out_shardings=two).lower(x),
        "output_in_a_tree": lambda: jax.jit(lambda a: {"k": [a, a * 2]}, out_shardings={"k": [one, two]})(x),
        "scalar_output": lambda: jax.jit(lambda a: (a, a.sum()), out_shardings=one)(x),
        "argument_in_a_tree": lambda: jax.jit(lambda d: d["k"][1] * 2, in_shardings=({"k": [one, two]},))(
            {"k": [x, x]}),
        "argument_lower": lambda: jax.jit(lambda a: a * 2, in_shardings=two).lower(x),
    }
    if case == "output_spec_under_mesh":
        with jax.set_mesh(explicit):
            return _outcome(lambda: jax.jit(lambda a: a * 2, out_shardings=P("x", "y"))(x))
    return _outcome(cases[case])


CASES = {
    **{f"{kind.lower()}_{where}_{use}": (lambda jax, k=kind, w=where, u=use: _under_mesh(jax, k, w, u))
       for kind in ("Auto", "Explicit")
       for where in ("other", "reversed", "subset", "device6", "device1", "uncommitted")
       for use in ("call", "call_again", "lower", "trace", "eager", "eager_sin")},
    **{f"{kind.lower()}_cached_then_other": (lambda jax, k=kind: _cached_then_other(jax, k))
       for kind in ("Auto", "Explicit")},
    **{name: (lambda jax, n=name: _shardings_case(jax, n)) for name in (
        "in_shardings_other", "in_shardings_other_committed", "in_shardings_other_committed_lower",
        "in_shardings_named_by_later_argument", "in_shardings_one_device", "out_shardings_other",
        "out_shardings_other_lower", "out_shardings_one_device", "out_shardings_one_device_lower",
        "argument_before_out_shardings", "two_arguments", "two_arguments_lower", "pytree_argument",
        "one_device_arguments", "one_device_arguments_lower", "eager_binary", "constraint_reversed",
        "eager_constraint_reversed", "eager_constraint_of_reversed", "reshard_to_other")},
    **{f"reshard_outside_mesh_{where}": (lambda jax, w=where: _reshard_outside_mesh(jax, w))
       for where in ("other", "device6")},
    **{f"located_{name}": (lambda jax, n=name: _located(jax, n)) for name in (
        "sampler_auto_axis", "sampler_auto_axis_jit", "sampler_other_mesh", "sampler_other_mesh_jit",
        "reshard_auto_axis", "reshard_auto_axis_jit", "asarray_device_jit", "asarray_device_in_mesh_jit",
        "asarray_device_function_jit", "asarray_device_function_lower", "array_device_jit", "astype_device_jit",
        "asarray_device_eager", "linspace_device_jit", "asarray_auto_sharding_jit", "asarray_auto_sharding_eager",
        "asarray_other_auto_mesh_jit", "operand_over_subset_jit", "operand_over_subset_eager")},
    **{f"rank_{name}": (lambda jax, n=name: _rank(jax, n)) for name in (
        "output", "output_lower", "output_in_a_tree", "scalar_output", "argument_in_a_tree", "argument_lower",
        "output_spec_under_mesh")},
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "context_mesh_devices_golden.json")
