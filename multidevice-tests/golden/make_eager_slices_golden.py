"""Write eager_slices_golden.json: the layouts eager slices of arrays and of keys laid out over a mesh on eight CPU
devices report (an unstrided slice runs as a dynamic_slice, as JAX 0.10.2's eager ``slice`` does), and JAX's errors
for slices a type cannot take, recorded from the module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_eager_slices_golden.py jax
"""

import pathlib

import golden_main
import numpy as np
from golden_cases import before_source, outcome

HERE = pathlib.Path(__file__).parent


def _outcome(thunk) -> str:
    return outcome(thunk, lambda value: f"{value.dtype} {value.shape} | {value.sharding.spec} | "
                   f"{np.asarray(value).ravel().tolist()}", message=before_source)


def _key_slice(jax, value):
    """A slice of keys (the slice primitive on the key array), reported with its data's values."""
    return _KeysWithData(jax, jax.lax.slice(value, (0,), (4,)))


class _KeysWithData:
    """Keys reporting the dtype and shape of their data, their own layout and their data's values."""

    def __init__(self, jax, keys):
        data = jax.random.key_data(keys)
        self.dtype, self.shape, self.sharding, self._data = data.dtype, data.shape, keys.sharding, data

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self._data)


ROW = lambda jax, mesh: np.arange(8.0, dtype=np.float32)  # noqa: E731
GRID = lambda jax, mesh: np.arange(16.0, dtype=np.float32).reshape(8, 2)  # noqa: E731
KEYS = lambda jax, mesh: jax.random.split(jax.random.key(0), 8)  # noqa: E731
# name: (the value sliced, given the module and the mesh; the slice)
SLICES = {
    "row_head": (ROW, lambda jax, v: jax.lax.slice(v, (0,), (4,))),
    "row_middle": (ROW, lambda jax, v: jax.lax.slice(v, (2,), (6,))),
    "row_tail": (ROW, lambda jax, v: jax.lax.slice(v, (4,), (8,))),
    "row_strided": (ROW, lambda jax, v: jax.lax.slice(v, (0,), (8,), (2,))),
    "row_too_long": (ROW, lambda jax, v: jax.lax.slice(v, (0,), (10,))),
    "row_one": (ROW, lambda jax, v: jax.lax.slice(v, (3,), (4,))),
    "grid_rows": (GRID, lambda jax, v: jax.lax.slice(v, (2, 0), (6, 2))),
    "grid_columns": (GRID, lambda jax, v: jax.lax.slice(v, (0, 1), (8, 2))),
    "keys_head": (KEYS, _key_slice),
}


def _slice(name, kinds, under_mesh):
    """``SLICES[name]`` of its value put over a (4, 2) mesh of ``kinds`` split along 'x', eagerly, under
    set_mesh or not."""
    make, cut = SLICES[name]

    def case(jax):
        mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=tuple(getattr(jax.sharding.AxisType, k) for k in kinds))
        value = jax.device_put(make(jax, mesh), jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("x")))
        if not under_mesh:
            return _outcome(lambda: cut(jax, value))
        with jax.sharding.set_mesh(mesh):
            return _outcome(lambda: cut(jax, value))
    return case


CASES = {f"{name}_{kinds[0].lower()}{'_set_mesh' if under else ''}": _slice(name, kinds, under)
         for name in SLICES for kinds in (("Auto", "Auto"), ("Explicit", "Explicit")) for under in (False, True)}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "eager_slices_golden.json")
