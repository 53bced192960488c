"""Write constraint_placement_golden.json: where ``jax.lax.with_sharding_constraint`` and ``jax.sharding.reshard``
put a value on eight CPU devices, and JAX's errors when the devices of the value, of the mesh set by
``jax.set_mesh`` and of the sharding disagree, recorded from the module named on the command line.

It covers a ``SingleDeviceSharding`` (or a smaller mesh's NamedSharding) under ``set_mesh``, eagerly, under
``jit`` (the message names the line that staged the constraint) and evaluated by ``grad`` and ``vmap``; an eager
PartitionSpec over a mesh of Auto axes given an array not laid out over a mesh; arrays committed elsewhere; the
spec a result reports (as the constraint wrote it); and reshards that name no axis of a mesh of Auto axes.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_constraint_placement_golden.py jax
"""

import importlib
import pathlib

import golden_main
import numpy as np
from golden_cases import failure, first_line

HERE = pathlib.Path(__file__).parent
X = np.arange(8.0, dtype=np.float32).reshape(2, 4)


def _mesh(jax, kind: str, shape: tuple = (2, 4)):
    types = (getattr(jax.sharding.AxisType, kind),) * 2
    return jax.make_mesh(shape, ("x", "y"), axis_types=types, devices=jax.devices()[:np.prod(shape)])


def _spec(jax, *entries):
    P = jax.sharding.PartitionSpec
    return P(*(P.UNCONSTRAINED if entry == "unconstrained" else entry for entry in entries))


def _value(jax, kind: str, mesh):
    """The (2, 4) operand: a NumPy array, uncommitted, committed to device 3 (or 1: ``elsewhere``), laid out over
    ``mesh``, or made by ``jnp.asarray`` (under set_mesh: replicated over it)."""
    if kind == "host":
        return X
    if kind == "uncommitted":
        return jax.device_put(X)
    if kind in ("committed", "elsewhere"):
        return jax.device_put(X, jax.devices()[3 if kind == "committed" else 1])
    if kind == "split":
        return jax.device_put(X, jax.sharding.NamedSharding(mesh, _spec(jax, "x", "y")))
    return importlib.import_module(jax.__name__ + ".numpy").asarray(X)


def _target(jax, kind: str, spec: tuple):
    """A SingleDeviceSharding of device 3, a NamedSharding over a mesh of ``kind`` axes (``small``: of 4 devices,
    Auto axes), or a PartitionSpec (``P``, read over the mesh of set_mesh)."""
    if kind == "device":
        return jax.sharding.SingleDeviceSharding(jax.devices()[3])
    if kind == "P":
        return _spec(jax, *spec)
    mesh = _mesh(jax, "Auto", (2, 2)) if kind == "small" else _mesh(jax, kind)
    return jax.sharding.NamedSharding(mesh, _spec(jax, *spec))


def _described(jax, out, expected: np.ndarray = X) -> str:
    """The result's sharding, type, each device's block and whether it holds ``expected`` (or the type of a value
    returned as it was given)."""
    if not hasattr(out, "addressable_shards"):
        return f"unchanged {type(out).__name__}"
    blocks = sorted({shard.data.shape for shard in out.addressable_shards})
    return (f"{out.sharding} committed={out.committed} {jax.typeof(out).str_short()} blocks={blocks} "
            f"{np.asarray(out).tolist() == expected.tolist()}")


def _error(error: Exception) -> str:
    # a message naming the line that staged a constraint names this file: the same in every checkout
    return failure(error, first_line).replace(__file__, "<generator>")


def _applied(jax, context: str | None, value: str, fun, expected: np.ndarray = X) -> str:
    """``fun`` applied to the operand ``value`` under set_mesh of a mesh of ``context`` axes (None: no mesh set):
    its result described, or the error raised."""
    mesh = _mesh(jax, context or "Auto")
    try:
        if context is None:
            out = fun(_value(jax, value, mesh))
        else:
            with jax.sharding.set_mesh(mesh):
                out = fun(_value(jax, value, mesh))
    except Exception as error:  # the type and message are what is compared
        return _error(error)
    return _described(jax, out, expected)


def _constrained(jax, context: str | None, value: str, target: str, spec: tuple = (), how: str = "eager") -> str:
    """``with_sharding_constraint`` of ``value`` to ``target``, under set_mesh of a mesh of ``context`` axes
    (None: no mesh set), called ``how``: eagerly, in ``jit`` (or only lowered), or evaluated by ``grad`` or
    ``vmap``."""

    def constrain(a):
        return jax.lax.with_sharding_constraint(a, _target(jax, target, spec))

    run = {"eager": constrain, "jit": jax.jit(constrain), "vmap": jax.vmap(constrain),
           "lower": lambda a: jax.jit(constrain).lower(a).in_avals,
           "grad": jax.grad(lambda a: (constrain(a) * 2).sum())}[how]
    return _applied(jax, context, value, run, np.full_like(X, 2.0) if how == "grad" else X)


def _resharded(jax, context: str | None, value: str, target: str, spec: tuple, staged: bool) -> str:
    """``reshard`` of ``value`` to ``target``, eagerly or in ``jit``."""

    def move(a):
        return jax.sharding.reshard(a, _target(jax, target, spec))

    return _applied(jax, context, value, jax.jit(move) if staged else move)


def _lowered_text(jax) -> str:
    """The lowered program of a constraint to one device's sharding (no mesh set)."""
    one = jax.sharding.SingleDeviceSharding(jax.devices()[3])
    return jax.jit(lambda a: jax.lax.with_sharding_constraint(a * 2, one)).lower(X).as_text()


def _scalar_refused(jax) -> str:
    try:
        jax.lax.with_sharding_constraint(3.0, jax.sharding.NamedSharding(_mesh(jax, "Auto"), _spec(jax, "x")))
    except ValueError as error:
        return _error(error)
    return "accepted"


CASES = {
    "scalar_split": _scalar_refused,
    "no_mesh_device_lowered_text": _lowered_text,
}
for _how in ("eager", "jit", "grad", "vmap"):
    for _value_kind in ("host", "elsewhere"):
        CASES[f"no_mesh_device_{_how}_{_value_kind}"] = (
            lambda jax, h=_how, v=_value_kind: _constrained(jax, None, v, "device", how=h))
for _context in ("Explicit", "Auto"):
    for _how in ("eager", "jit", "lower", "grad", "vmap"):
        CASES[f"{_context}_device_{_how}"] = (
            lambda jax, c=_context, h=_how: _constrained(jax, c, "host", "device", how=h))
    for _value_kind in ("array", "uncommitted", "committed", "split"):
        CASES[f"{_context}_device_{_value_kind}"] = (
            lambda jax, c=_context, v=_value_kind: _constrained(jax, c, v, "device"))
    for _how in ("eager", "jit"):
        CASES[f"{_context}_small_mesh_{_how}"] = (
            lambda jax, c=_context, h=_how: _constrained(jax, c, "host", "small", ("x",), how=h))
for _value_kind in ("host", "array", "uncommitted", "committed", "split"):
    for _spec_entries in ((), (None,), (None, None), ("x",), ("x", None), ("unconstrained", "y")):
        _name = "_".join(str(e) for e in _spec_entries) or "empty"
        CASES[f"auto_P_{_name}_{_value_kind}"] = (
            lambda jax, v=_value_kind, s=_spec_entries: _constrained(jax, "Auto", v, "P", s))
    CASES[f"explicit_P_None_None_{_value_kind}"] = (
        lambda jax, v=_value_kind: _constrained(jax, "Explicit", v, "P", (None, None)))
for _target_kind in ("Auto", "Explicit"):
    for _spec_entries in ((), (None,), (None, None), ("x", None)):
        _name = "_".join(str(e) for e in _spec_entries) or "empty"
        CASES[f"no_mesh_{_target_kind}_{_name}"] = (
            lambda jax, t=_target_kind, s=_spec_entries: _constrained(jax, None, "host", t, s))
for _value_kind in ("host", "array", "committed", "split"):
    CASES[f"no_mesh_device_{_value_kind}"] = (
        lambda jax, v=_value_kind: _constrained(jax, None, v, "device"))
    CASES[f"no_mesh_full_mesh_{_value_kind}"] = (
        lambda jax, v=_value_kind: _constrained(jax, None, v, "Auto", ("x",)))
CASES["no_mesh_small_mesh_split"] = lambda jax: _constrained(jax, None, "split", "small", ("x",))
for _context in ("Auto", None):
    for _value_kind in ("host", "split"):
        for _spec_entries in ((), (None, None)):
            for _staged in (False, True):
                _name = "_".join(str(e) for e in _spec_entries) or "empty"
                CASES[f"reshard_{_context}_{_value_kind}_{_name}_{'jit' if _staged else 'eager'}"] = (
                    lambda jax, c=_context, v=_value_kind, s=_spec_entries, st=_staged: _resharded(
                        jax, c, v, "P" if c else "Auto", s, st))


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "constraint_placement_golden.json")
