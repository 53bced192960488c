"""Write jit_in_shardings_golden.json: what a jitted function given ``in_shardings`` does with a committed argument
laid out otherwise: one split into the same tiles over other devices (another mesh of the same shape, the same
devices in another order, whole copies on any devices) is moved to the in_sharding's devices; one split otherwise,
or in another memory, is refused; on a call, by ``lower`` (arrays and ShapeDtypeStructs) and not by ``trace``; with
shardings given as PartitionSpecs under ``set_mesh``; the devices of arguments without an in_sharding and of
out_shardings checked against them. Also ``jax.experimental.pjit``. Recorded from the module named on the command
line:

    /work/jaxpeer/bin/python multidevice-tests/golden/make_jit_in_shardings_golden.py jax

JAX 0.10.2 aborts the process when a function called with an argument it moved is called again with it (its C++
dispatch passes the argument's buffers as they are), so each case calls a function once; the tests call it again.
"""

import importlib
import pathlib
import warnings

import golden_main
import numpy as np
from golden_cases import outcome

HERE = pathlib.Path(__file__).parent
GRID = np.arange(64.0, dtype=np.float32).reshape(8, 8)


def _outcome(thunk) -> str:
    """What ``thunk()`` gives: the error (type and message), a stage's kind, or the result's sharding, the ids of
    its devices and its values."""
    return outcome(thunk, _described)


def _described(result) -> str:
    if isinstance(result, str):
        return result
    if not hasattr(result, "sharding"):
        return type(result).__name__
    ids = sorted(d.id for d in result.sharding.device_set)
    return f"{result.sharding} {ids} {np.asarray(result).tolist()}"


def _meshes(jax) -> dict:
    """Meshes of the first four devices (``set``: the one in_shardings name), of the other four, of the first four
    in reverse order, of other shapes and axis names, and of all eight."""
    devices = np.array(jax.devices())
    Mesh, Explicit = jax.sharding.Mesh, jax.sharding.AxisType.Explicit
    return {"set": Mesh(devices[:4].reshape(2, 2), ("x", "y")),
            "other": Mesh(devices[4:].reshape(2, 2), ("x", "y")),
            "reversed": Mesh(devices[:4][::-1].reshape(2, 2), ("x", "y")),
            "tall": Mesh(devices[:4].reshape(4, 1), ("x", "y")),
            "line": Mesh(devices[4:], ("x",)),
            "renamed": Mesh(devices[4:].reshape(2, 2), ("a", "b")),
            "explicit": Mesh(devices[:4].reshape(2, 2), ("x", "y"), axis_types=(Explicit, Explicit)),
            "explicit_other": Mesh(devices[4:].reshape(2, 2), ("x", "y"), axis_types=(Explicit, Explicit)),
            "all": Mesh(devices, ("x",))}


def _sharding(jax, where: str):
    """The sharding ``where`` names: ``mesh:spec`` (axes joined by ``.``, ``-`` for P()), or ``device<i>``."""
    if where.startswith("device"):
        return jax.sharding.SingleDeviceSharding(jax.devices()[int(where[6:])])
    mesh, spec = where.split(":")
    entries = [] if spec == "-" else [tuple(e.split("+")) if "+" in e else e for e in spec.split(".")]
    return jax.sharding.NamedSharding(_meshes(jax)[mesh], jax.sharding.PartitionSpec(*entries))


def _given(jax, given: str, where: str, use: str) -> str:
    """``use`` of a function given the in_sharding ``given`` on GRID laid out ``where`` (``uncommitted``: an array
    of the default device, ``numpy``: GRID itself)."""
    double = jax.jit(lambda a: a * 2, in_shardings=_sharding(jax, given))
    x = {"uncommitted": lambda: importlib.import_module(jax.__name__ + ".numpy").asarray(GRID),
         "numpy": lambda: GRID}.get(where, lambda: jax.device_put(GRID, _sharding(jax, where)))()
    uses = {"call": lambda: double(x), "lower": lambda: double.lower(x), "trace": lambda: double.trace(x),
            "trace_lower": lambda: double.trace(x).lower()}
    return _outcome(uses[use])


def _abstract(jax, where: str, kind: str) -> str:
    """``lower`` of a function given an in_sharding over the first four devices, of a ShapeDtypeStruct laid out
    ``where`` in the memory of ``kind``."""
    sharding = _sharding(jax, where).with_memory_kind(kind)
    double = jax.jit(lambda a: a * 2, in_shardings=_sharding(jax, "set:x.y"))
    return _outcome(lambda: double.lower(jax.ShapeDtypeStruct(GRID.shape, GRID.dtype, sharding=sharding)))


def _host(jax, spec: str, use: str) -> str:
    """A committed argument in pinned host memory given an in_sharding in device memory."""
    x = jax.device_put(GRID, _sharding(jax, spec).with_memory_kind("pinned_host"))
    double = jax.jit(lambda a: a * 2, in_shardings=_sharding(jax, "set:x.y"))
    return _outcome(lambda: double(x) if use == "call" else double.lower(x))


def _two(jax, first: str, second: str, use: str) -> str:
    """A function of two arguments, the first given an in_sharding over the first four devices."""
    def add(a, b):
        return a + b

    summed = jax.jit(add, in_shardings=(_sharding(jax, "set:x.y"), None))
    place = {"numpy": lambda: GRID, "uncommitted": lambda: jax.device_put(GRID)}
    a, b = (place.get(w, lambda w=w: jax.device_put(GRID, _sharding(jax, w)))() for w in (first, second))
    return _outcome(lambda: summed(a, b) if use == "call" else summed.lower(a, b))


def _out_elsewhere(jax, use: str) -> str:
    """An in_sharding over the first four devices and an out_sharding over the other four."""
    double = jax.jit(lambda a: a * 2, in_shardings=_sharding(jax, "set:x.y"), out_shardings=_sharding(jax, "other:-"))
    x = jax.device_put(GRID, _sharding(jax, "other:x.y"))
    return _outcome(lambda: double(x) if use == "call" else double.lower(x))


def _under_mesh(jax, where: str, use: str) -> str:
    """Under set_mesh of the first four devices, an in_sharding given as P('x', 'y') (or, ``none``, no in_sharding)
    on GRID laid out ``where``."""
    x = jax.device_put(GRID, _sharding(jax, where))
    P = jax.sharding.PartitionSpec
    with jax.set_mesh(_meshes(jax)["set"]):
        double = jax.jit(lambda a: a * 2, in_shardings=P("x", "y"))
        uses = {"call": lambda: double(x), "lower": lambda: double.lower(x), "trace": lambda: double.trace(x)}
        return _outcome(uses[use])


def _under_explicit_mesh(jax, use: str) -> str:
    """Under set_mesh of Explicit axes over the first four devices, an argument over the other four."""
    x = jax.device_put(GRID, _sharding(jax, "explicit_other:x.y"))
    with jax.set_mesh(_meshes(jax)["explicit"]):
        double = jax.jit(lambda a: a * 2, in_shardings=jax.sharding.PartitionSpec("x", "y"))
        uses = {"call": lambda: double(x), "lower": lambda: double.lower(x), "trace": lambda: double.trace(x)}
        return _outcome(uses[use])


def _pjit(jax, case: str) -> str:
    """``jax.experimental.pjit``: its deprecation, and pjit used as jit."""
    # loaded afresh: only the first use of the deprecated name warns
    module = importlib.reload(importlib.import_module(jax.__name__ + ".experimental.pjit"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pjit = module.pjit
        again = module.pjit
    if case == "deprecation":
        said = [f"{w.category.__name__}: {w.message}" for w in caught]
        return f"{said} {pjit is again} {pjit.__name__} {pjit.__doc__}"
    if case == "signature":
        import inspect

        return str(list(inspect.signature(pjit).parameters))
    if case == "missing":  # the module named as JAX's
        return _outcome(lambda: module.other).replace(f"'{jax.__name__}.", "'jax.")
    x = jax.device_put(GRID, _sharding(jax, "other:x.y"))
    P, meshes = jax.sharding.PartitionSpec, _meshes(jax)
    cases = {"call": lambda: pjit(lambda a: a * 2, in_shardings=_sharding(jax, "set:x.y"))(x),
             "static": lambda: str(pjit(lambda a, n: a * n, static_argnums=1)(GRID, 3).tolist()),
             "not_callable": lambda: pjit(3),
             "spec_without_mesh": lambda: pjit(lambda a: a * 2, in_shardings=P("x"))(GRID),
             "spec_in_jit": lambda: jax.jit(lambda a: pjit(lambda b: b * 2, out_shardings=P("x"))(a))(GRID),
             "arguments_tree": lambda: pjit(lambda a, b: a * b, in_shardings=(None,))(GRID, GRID)}
    if case.startswith("with_mesh_"):  # the legacy `with mesh:` (deprecated) gives pjit its mesh; set_mesh does not
        uses = {"spec": lambda: pjit(lambda a: a * 2, in_shardings=P("x", "y"))(GRID),
                "out_spec": lambda: pjit(lambda a: a * 2, out_shardings=P(None, "y"))(GRID),
                "default": lambda: pjit(lambda a: a * 2)(GRID),
                "jaxpr": lambda: str(jax.make_jaxpr(pjit(lambda a: a * 2, in_shardings=P("x")))(GRID)),
                "jit_spec": lambda: jax.jit(lambda a: a * 2, in_shardings=P("x"))(GRID),
                "under_set_mesh": lambda: _with_set_mesh(jax, meshes["line"], lambda: pjit(
                    lambda a: a * 2, in_shardings=P("x", "y"))(GRID)),
                "jit_under_set_mesh": lambda: _with_set_mesh(jax, meshes["line"], lambda: jax.jit(
                    lambda a: a * 2, in_shardings=P("x"))(GRID))}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            with meshes["set"]:
                return _outcome(uses[case[len("with_mesh_"):]])
    if case.startswith("set_mesh_"):
        uses = {"spec": lambda: pjit(lambda a: a * 2, in_shardings=P("x", "y"))(GRID),
                "spec_lower": lambda: pjit(lambda a: a * 2, out_shardings=P("x", "y")).lower(GRID),
                "default": lambda: pjit(lambda a: a * 2)(GRID)}
        return _with_set_mesh(jax, meshes["set"], lambda: _outcome(uses[case[len("set_mesh_"):]]))
    return _outcome(cases[case])


def _with_set_mesh(jax, mesh, thunk):
    with jax.set_mesh(mesh):
        return thunk()


CASES = {
    **{f"{given}_{where}_{use}": (lambda jax, g=given, w=where, u=use: _given(jax, g, w, u))
       for given, wheres in (
           ("set:x.y", ("other:x.y", "other:-", "line:x", "reversed:x.y", "tall:x.y", "set:y.x", "device5",
                        "device0", "uncommitted", "numpy", "set:x.y")),
           ("set:-", ("device5", "set:x")),
           ("set:x+y", ("all:x",)),
           ("device0", ("device5", "other:-", "other:x")))
       for where in wheres
       for use in ("call", "lower", "trace", "trace_lower")},
    **{f"abstract_{where}_{kind}": (lambda jax, w=where, k=kind: _abstract(jax, w, k))
       for where in ("other:x.y", "set:-", "device5", "set:x.y")
       for kind in ("device", "pinned_host")},
    **{f"host_{spec}_{use}": (lambda jax, s=spec, u=use: _host(jax, s, u))
       for spec in ("set:-", "set:x.y") for use in ("call", "lower")},
    **{f"two_{first}_{second}_{use}": (lambda jax, f=first, s=second, u=use: _two(jax, f, s, u))
       for first, second in (("other:x.y", "other:x.y"), ("other:x.y", "set:x.y"), ("other:x.y", "numpy"),
                             ("other:x.y", "device1"), ("set:x.y", "device1"), ("set:-", "device5"),
                             ("uncommitted", "other:x"))
       for use in ("call", "lower")},
    **{f"out_elsewhere_{use}": (lambda jax, u=use: _out_elsewhere(jax, u)) for use in ("call", "lower")},
    **{f"under_mesh_{where}_{use}": (lambda jax, w=where, u=use: _under_mesh(jax, w, u))
       for where in ("other:x.y", "line:x", "reversed:x.y", "set:-")
       for use in ("call", "lower", "trace")},
    **{f"under_explicit_mesh_{use}": (lambda jax, u=use: _under_explicit_mesh(jax, u))
       for use in ("call", "lower", "trace")},
    **{f"pjit_{case}": (lambda jax, c=case: _pjit(jax, c))
       for case in ("deprecation", "signature", "missing", "call", "static", "not_callable", "spec_without_mesh",
                    "spec_in_jit", "arguments_tree", "with_mesh_spec", "with_mesh_out_spec", "with_mesh_default",
                    "with_mesh_jaxpr", "with_mesh_jit_spec", "with_mesh_under_set_mesh",
                    "with_mesh_jit_under_set_mesh", "set_mesh_spec", "set_mesh_spec_lower", "set_mesh_default")},
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "jit_in_shardings_golden.json")
