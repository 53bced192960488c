"""Write typed_conversions_golden.json: ``jnp.asarray``, ``jnp.array`` and ``astype`` given a NamedSharding as
``device=`` inside transformations under ``set_mesh`` (a mesh of Explicit axes, one of Explicit and Auto axes),
recorded from the module named on the command line: the jaxprs (the typed ``convert_element_type`` and the
constraint to Auto axes staged), the lowered text, the type and layout of a jitted call's result, and the errors
(a spec that does not divide, a PartitionSpec given as ``device=``).

    /work/jaxpeer/bin/python multidevice-tests/golden/make_typed_conversions_golden.py jax
"""

import contextlib
import pathlib

import golden_main
import numpy as np
from golden_cases import in_golden

HERE = pathlib.Path(__file__).parent
TABLE = np.arange(32.0, dtype=np.float32).reshape(8, 4)


def _mesh(jax, second="Explicit"):
    kinds = (jax.sharding.AxisType.Explicit, getattr(jax.sharding.AxisType, second))
    return jax.make_mesh((4, 2), ("x", "y"), axis_types=kinds)


def _under_mesh(run, second="Explicit"):
    """``run(jax, mesh)`` under ``set_mesh`` of a 4x2 mesh ('x' Explicit, 'y' of the ``second`` type): its text, or
    the error's type and message (this folder's path written ``<golden>``)."""
    def case(jax):
        mesh = _mesh(jax, second)
        try:
            with jax.set_mesh(mesh):
                return str(run(jax, mesh))
        except Exception as error:  # noqa: BLE001 - the error is what we record
            return in_golden(f"{type(error).__name__}: {error}")
    return case


def _sharding(jax, mesh, *spec):
    return jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec(*spec))


def _jaxpr(convert):
    """The jaxpr of ``convert(jax, mesh, value)`` traced on ``TABLE``."""
    return lambda jax, mesh: jax.make_jaxpr(lambda v: convert(jax, mesh, v))(TABLE)


def _asarray(jax, mesh, v, *spec):
    return jax.numpy.asarray(v, device=_sharding(jax, mesh, *spec))


def _jitted_result(jax, mesh):
    out = jax.jit(lambda v: _asarray(jax, mesh, v, "x") * 2)(TABLE)
    return f"{jax.typeof(out)} {out.sharding.spec} {np.asarray(out)[::3].tolist()}"


def _batched_refusal(kind: str, name: str, spec=("x",), shape=(8, 2), in_axes=0, jitted=False):
    """``vmap`` of a conversion for a NamedSharding (``spec`` over a 4x2 mesh of ``kind`` axes: Explicit, Explicit
    and Auto, Auto; set by ``set_mesh`` unless ``kind`` is "none") that does not fit each example of an array of
    ``shape``: JAX's error names the batched value and spec."""
    def case(jax):
        second = {"Explicit": "Explicit", "Mixed": "Auto"}.get(kind)
        mesh = _mesh(jax, second) if second else jax.make_mesh(
            (4, 2), ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
        target = _sharding(jax, mesh, *spec)
        convert = {"asarray": lambda v: jax.numpy.asarray(v, device=target),
                   "astype": lambda v: v.astype(jax.numpy.int32, device=target),
                   "array": lambda v: jax.numpy.array(v, device=target)}[name]
        batched = jax.vmap(convert, in_axes=in_axes)
        try:
            with jax.set_mesh(mesh) if kind != "none" else contextlib.nullcontext():
                out = (jax.jit(batched) if jitted else batched)(np.ones(shape, np.float32))
        except Exception as error:  # noqa: BLE001 - the error is what we record
            return f"{type(error).__name__}: {error}"
        return f"{jax.typeof(out)} {out.sharding.spec}"
    return case


def _spec_conversion(jax, name: str, where: str):
    """``asarray`` or ``astype`` given a PartitionSpec as ``device=``: eagerly on a NumPy array or an Array, or
    jitted."""
    spec = jax.sharding.PartitionSpec("x")
    if name == "asarray":
        def convert(v):
            return jax.numpy.asarray(v, device=spec)
    else:
        def convert(v):
            return jax.numpy.astype(v, jax.numpy.int32, device=spec)
    return (jax.jit(convert) if where == "jit" else convert)(jax.numpy.asarray(TABLE) if where == "array" else TABLE)


CASES = {
    "asarray": _under_mesh(_jaxpr(lambda jax, mesh, v: _asarray(jax, mesh, v, "x"))),
    "asarray_dtype": _under_mesh(_jaxpr(lambda jax, mesh, v: jax.numpy.asarray(
        v, dtype=jax.numpy.int32, device=_sharding(jax, mesh, None, "y")))),
    "array": _under_mesh(_jaxpr(lambda jax, mesh, v: jax.numpy.array(v, device=_sharding(jax, mesh, "x")))),
    "array_ndmin": _under_mesh(_jaxpr(lambda jax, mesh, v: jax.numpy.array(
        v, ndmin=3, device=_sharding(jax, mesh, None, "x")))),
    "astype": _under_mesh(_jaxpr(lambda jax, mesh, v: v.astype(jax.numpy.int32, device=_sharding(jax, mesh, "x")))),
    "astype_same_dtype_copy": _under_mesh(_jaxpr(lambda jax, mesh, v: jax.numpy.astype(
        v, jax.numpy.float32, copy=True, device=_sharding(jax, mesh, "y")))),
    "host_constant": _under_mesh(_jaxpr(lambda jax, mesh, v: _asarray(jax, mesh, np.ones((8, 4), np.float32), "x")
                                        + v)),
    "resharded_operand": _under_mesh(_jaxpr(lambda jax, mesh, v: _asarray(
        jax, mesh, jax.sharding.reshard(v, jax.sharding.PartitionSpec("y")), "x"))),
    "vmapped": _under_mesh(lambda jax, mesh: jax.make_jaxpr(jax.vmap(lambda v: _asarray(jax, mesh, v, "y")))(TABLE)),
    "grad": _under_mesh(lambda jax, mesh: jax.make_jaxpr(jax.grad(lambda v: _asarray(jax, mesh, v, "x").sum()))(
        TABLE)),
    "lowered": _under_mesh(lambda jax, mesh: jax.jit(lambda v: _asarray(jax, mesh, v, "x")).lower(TABLE).as_text()),
    "jitted_result": _under_mesh(_jitted_result),
    "indivisible": _under_mesh(lambda jax, mesh: jax.make_jaxpr(lambda v: _asarray(jax, mesh, v, "x"))(TABLE[:2])),
    "mixed_mesh_auto_axis": _under_mesh(_jaxpr(lambda jax, mesh, v: _asarray(jax, mesh, v, "y")), "Auto"),
    "mixed_mesh_astype_auto_axis": _under_mesh(_jaxpr(lambda jax, mesh, v: v.astype(
        jax.numpy.int32, device=_sharding(jax, mesh, "y"))), "Auto"),
    "mixed_mesh_explicit_axis": _under_mesh(_jaxpr(lambda jax, mesh, v: _asarray(jax, mesh, v, "x")), "Auto"),
    "other_auto_mesh_asarray": _under_mesh(_jaxpr(lambda jax, mesh, v: jax.numpy.asarray(
        v, device=_sharding(jax, _mesh(jax, "Auto").update(axis_types=(jax.sharding.AxisType.Auto,) * 2), "x")))),
    "other_auto_mesh_astype": _under_mesh(_jaxpr(lambda jax, mesh, v: v.astype(jax.numpy.int32, device=_sharding(
        jax, _mesh(jax, "Auto").update(axis_types=(jax.sharding.AxisType.Auto,) * 2), "x")))),
    **{f"vmapped_indivisible_{kind}_{name}": _batched_refusal(kind, name)
       for kind in ("Explicit", "Mixed", "Auto", "none") for name in ("asarray", "astype", "array")},
    "vmapped_rank_mixed_mesh": _batched_refusal("Mixed", "asarray", spec=("x", "y"), shape=(8, 4)),
    "vmapped_rank_auto_mesh": _batched_refusal("Auto", "astype", spec=("x", "y"), shape=(8, 4)),
    "vmapped_last_axis": _batched_refusal("Explicit", "astype", in_axes=1, shape=(2, 8)),
    "vmapped_indivisible_jitted": _batched_refusal("Explicit", "array", jitted=True),
    **{f"partition_spec_{name}_{where}": _under_mesh(
        lambda jax, mesh, name=name, where=where: _spec_conversion(jax, name, where))
       for name in ("asarray", "astype") for where in ("eager", "jit", "array")},
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "typed_conversions_golden.json")
