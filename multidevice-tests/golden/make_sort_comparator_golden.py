"""Write sort_comparator_golden.json: how ``sort`` compares under sharding in types on eight CPU devices, recorded
from the module named on the command line: the comparator region of the lowered ``stablehlo.sort`` (its values
renamed in order of appearance, so that what comes before it in the program does not matter), with the
constraint JAX writes on each of its scalar values, and the sorted values and their layout.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_sort_comparator_golden.py jax
"""

import pathlib
import re

import golden_main
import numpy as np

HERE = pathlib.Path(__file__).parent
# -0.0 and 0.0 tie, NaNs of both signs come last: each row holds every case
ROWS = np.array([[3.0, -0.0, np.nan, 0.0, -np.inf, -np.nan, 1.0, -2.0]] * 4, np.float32)

_SORT = re.compile(r'"stablehlo\.sort".*?\n(.*?)\n\s*\}\)', re.S)
_VALUE = re.compile(r"%[\w#]+")


def comparator(text: str) -> list[str]:
    """The lines of the first ``stablehlo.sort``'s comparator region, its values renamed ``%v0``, ``%v1``, ... in
    order of appearance."""
    region = _SORT.search(text).group(1)
    names: dict[str, str] = {}

    def rename(match: re.Match) -> str:
        return names.setdefault(match.group(0), f"%v{len(names)}")

    return [_VALUE.sub(rename, line).strip() for line in region.splitlines()]


def _record(jax, f, *args) -> dict:
    out = jax.jit(f)(*args)
    first = out[0] if isinstance(out, (tuple, list)) else out
    return {"comparator": comparator(jax.jit(f).lower(*args).as_text()),
            "result": f"{first.sharding.spec} {np.asarray(first)[0].tolist()}"}  # the rows are alike


def _case(f, *dtypes, axis_types=("Explicit", "Explicit"), under_mesh=True):
    """``f(jax)`` applied to ``ROWS`` as each of ``dtypes``, its rows split over 'x' of a 2x4 mesh ('x', 'y')
    (set by set_mesh, unless ``under_mesh`` is False)."""
    def case(jax):
        kinds = tuple(getattr(jax.sharding.AxisType, kind) for kind in axis_types)
        mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=kinds)
        sharding = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("x", None))
        values = [np.nan_to_num(ROWS, nan=7.0, neginf=-9.0).astype(d) if np.dtype(d).kind in "iub" else
                  ROWS.astype(d) for d in dtypes]
        if not under_mesh:
            return _record(jax, f(jax), *[jax.device_put(v, sharding) for v in values])
        with jax.sharding.set_mesh(mesh):
            return _record(jax, f(jax), *[jax.device_put(v, sharding) for v in values])
    return case


def _complex_rows(jax):
    return lambda a: jax.numpy.sort(a * (1 + 1j), axis=1)


CASES = {
    "float32": _case(lambda jax: lambda a: jax.numpy.sort(a, axis=1), np.float32),
    "float16": _case(lambda jax: lambda a: jax.numpy.sort(a, axis=1), np.float16),
    "int32": _case(lambda jax: lambda a: jax.numpy.sort(a, axis=1), np.int32),
    "uint8": _case(lambda jax: lambda a: jax.numpy.sort(a, axis=1), np.uint8),
    "bool": _case(lambda jax: lambda a: jax.numpy.sort(a, axis=1), np.bool_),
    "complex64": _case(_complex_rows, np.float32),
    "argsort": _case(lambda jax: lambda a: jax.numpy.argsort(a, axis=1), np.float32),
    "three_keys": _case(lambda jax: lambda a, i: jax.lax.sort((i, a, i * 2), dimension=1, num_keys=3),
                        np.float32, np.int32),
    "two_integer_keys": _case(lambda jax: lambda i: jax.lax.sort((i, -i), dimension=1, num_keys=2), np.int32),
    "outside_set_mesh": _case(lambda jax: lambda a: jax.numpy.sort(a, axis=1), np.float32, under_mesh=False),
    "mixed_axis_types": _case(lambda jax: lambda a: jax.numpy.sort(a, axis=1), np.float32,
                              axis_types=("Explicit", "Auto")),
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "sort_comparator_golden.json")
