"""Write moved_results_golden.json: the results of jitted functions given an in_sharding over the first four of
eight CPU devices and an argument it moves there from a mesh of other axes (other names, another shape splitting
it alike, the same devices under other names, whole copies over more devices): where they lie and how they are
named (over a mesh of the argument's axes on the in_sharding's devices, or as a GSPMDSharding). Recorded from the
module named on the command line:

    /work/jaxpeer/bin/python multidevice-tests/golden/make_moved_results_golden.py jax

JAX 0.10.2 aborts the process when such a function is called again with such an argument, so each case calls a
function of its own once (the tests call jaxle's again).
"""

import pathlib

import golden_main
import numpy as np
from golden_cases import outcome

HERE = pathlib.Path(__file__).parent
GRID = np.arange(64.0, dtype=np.float32).reshape(8, 8)


def _meshes(jax) -> dict:
    """The mesh in_shardings name (the first four devices, ``x`` by ``y``) and the meshes arguments come from."""
    devices = np.array(jax.devices())
    Mesh = jax.sharding.Mesh
    return {"set": Mesh(devices[:4].reshape(2, 2), ("x", "y")),
            "renamed": Mesh(devices[4:].reshape(2, 2), ("a", "b")),
            "renamed_same_devices": Mesh(devices[:4].reshape(2, 2), ("a", "b")),
            "cube": Mesh(devices[4:].reshape(2, 2, 1), ("p", "q", "r")),
            "line": Mesh(devices[4:], ("x",)),
            "line_same_devices": Mesh(devices[:4], ("z",)),
            "all": Mesh(devices, ("x",)),
            "grid_of_all": Mesh(devices.reshape(2, 4), ("u", "v"))}


def _sharding(jax, mesh: str, *spec):
    return jax.sharding.NamedSharding(_meshes(jax)[mesh], jax.sharding.PartitionSpec(*spec))


FUNCTIONS = {"double": lambda a: a * 2, "transpose": lambda a: a.T, "sum_of_rows": lambda a: a.sum(0),
             "sum": lambda a: a.sum(), "double_and_sum_of_rows": lambda a: (a * 2, a.sum(0))}

# (in_sharding, where the argument lies: mesh and spec), as ``mesh:axis.axis`` (``+``: axes of one dimension)
MOVES = {"renamed": ("set:x.y", "renamed:a.b"),
         "renamed_same_devices": ("set:x.y", "renamed_same_devices:a.b"),
         "renamed_first_axis": ("set:x", "renamed:a"),
         "cube_first_axis": ("set:x", "cube:p"),
         "cube": ("set:x.y", "cube:p.q"),
         "line": ("set:x+y", "line:x"),
         "line_same_devices": ("set:x+y", "line_same_devices:z"),
         "whole_from_all": ("set:", "all:"),
         "whole_from_grid_of_all": ("set:", "grid_of_all:"),
         "whole_from_line": ("set:", "line:")}


def _parsed(jax, text: str):
    mesh, spec = text.split(":")
    entries = [tuple(e.split("+")) if "+" in e else e for e in spec.split(".")] if spec else []
    return _sharding(jax, mesh, *entries)


def _outcome(thunk) -> str:
    """Each result's sharding, the ids of its devices and its values, or the error raised."""
    return outcome(thunk, lambda results: " | ".join(
        f"{r.sharding} {sorted(d.id for d in r.sharding.device_set)} {np.asarray(r).tolist()}"
        for r in (results if isinstance(results, tuple) else (results,))))


def _moved(jax, move: str, function: str) -> str:
    given, where = MOVES[move]
    fun = FUNCTIONS[function]
    jitted = jax.jit(lambda a: fun(a), in_shardings=_parsed(jax, given))  # a function of its own each case
    return _outcome(lambda: jitted(jax.device_put(GRID, _parsed(jax, where))))


def _with_out_sharding(jax) -> str:
    jitted = jax.jit(lambda a: a * 2, in_shardings=_parsed(jax, "set:x.y"), out_shardings=_parsed(jax, "set:"))
    return _outcome(lambda: jitted(jax.device_put(GRID, _parsed(jax, "renamed:a.b"))))


CASES = {
    **{f"{move}_{function}": (lambda jax, m=move, f=function: _moved(jax, m, f))
       for move in MOVES for function in ("double", "sum")},
    **{f"renamed_{function}": (lambda jax, f=function: _moved(jax, "renamed", f))
       for function in ("transpose", "sum_of_rows")},
    "whole_from_all_double_and_sum_of_rows": lambda jax: _moved(jax, "whole_from_all", "double_and_sum_of_rows"),
    "renamed_with_out_sharding": _with_out_sharding,
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "moved_results_golden.json")
