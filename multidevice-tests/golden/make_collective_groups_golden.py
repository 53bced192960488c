"""Collectives within ``axis_index_groups`` on 8 CPU devices: over several mesh axes of a ``shard_map`` (names in
either order), over a pmap's axis, and JAX's refusals (under ``vmap``, with positional axes), run with the module
named on the command line.

``/work/jaxpeer/bin/python multidevice-tests/golden/make_collective_groups_golden.py jax`` writes
collective_groups_golden.json (records in integration-tests/golden/seed_golden.py's format).
"""

from __future__ import annotations

import pathlib
import sys

import golden_main
import numpy as np

HERE = pathlib.Path(__file__).parent
SEED_GOLDEN_DIR = HERE.parents[1] / "integration-tests" / "golden"
if str(SEED_GOLDEN_DIR) not in sys.path:
    sys.path.insert(0, str(SEED_GOLDEN_DIR))

import seed_golden  # noqa: E402 - found through the path set just above

GOLDEN_PATH = HERE / "collective_groups_golden.json"
GROUPS = [[0, 3, 4, 7], [1, 2, 5, 6]]
TENS = np.arange(4.0, dtype=np.float32) * 10

BODIES = {
    "psum": lambda lax, v, n: lax.psum(v, n, axis_index_groups=GROUPS),
    "pmean": lambda lax, v, n: lax.pmean(v, n, axis_index_groups=GROUPS),
    "pmax": lambda lax, v, n: lax.pmax(v, n, axis_index_groups=GROUPS),
    "pmin": lambda lax, v, n: lax.pmin(v, n, axis_index_groups=GROUPS),
    "all_gather": lambda lax, v, n: lax.all_gather(v, n, axis_index_groups=GROUPS, axis=1),
    "all_gather_tiled": lambda lax, v, n: lax.all_gather(v, n, axis_index_groups=GROUPS, tiled=True),
    "psum_scatter": lambda lax, v, n: lax.psum_scatter(TENS + v, n, axis_index_groups=GROUPS, tiled=True),
    "all_to_all": lambda lax, v, n: lax.all_to_all(TENS / 10 + 10 * v, n, 0, 0, axis_index_groups=GROUPS,
                                                   tiled=True),
}


def over_two_axes(body, names):
    """``body`` in a shard_map over a 4x2 mesh, device [i, j] holding [2 * i + j]."""
    def example(jax):
        P = jax.sharding.PartitionSpec
        mesh = jax.sharding.Mesh(np.array(jax.devices()).reshape(4, 2), ("i", "j"))
        fun = jax.shard_map(lambda v: body(jax.lax, v, names), mesh=mesh, in_specs=P(("i", "j")),
                            out_specs=P(("i", "j")), check_vma=False)
        return jax.jit(fun)(np.arange(8.0, dtype=np.float32))
    return example


def under_nested_vmaps(body):
    def example(jax):
        inner = jax.vmap(lambda v: body(jax.lax, v, ("i", "j")), axis_name="j")
        return jax.vmap(inner, axis_name="i")(np.ones((2, 4, 4), np.float32))
    return example


def pmap_unsorted_groups(jax):
    lax, x, groups = jax.lax, np.arange(4.0, dtype=np.float32)[:, None], [[0, 2], [3, 1]]
    gathered = jax.pmap(lambda v: lax.all_gather(v, "i", axis_index_groups=groups, tiled=True), "i")(x)
    scattered = jax.pmap(lambda v: lax.psum_scatter(np.array([1.0, 10.0], np.float32) * v, "i",
                                                    axis_index_groups=groups, tiled=True), "i")(x)
    return gathered, scattered


def positional_axes(jax):
    return jax.pmap(lambda v: jax.lax.psum(v, ("i", 0), axis_index_groups=[[0, 1]]), "i")(np.ones((2, 3)))


EXAMPLES = {
    **{f"{name}_over_{''.join(names)}": over_two_axes(body, names)
       for name, body in BODIES.items() for names in (("i", "j"), ("j", "i"))},
    **{f"{name}_under_vmap": under_nested_vmaps(body) for name, body in BODIES.items()},
    "pmap_unsorted_groups": pmap_unsorted_groups,
    "positional_axes": positional_axes,
}


def load() -> dict:
    return seed_golden.load_records(GOLDEN_PATH)


if __name__ == "__main__":
    golden_main.main(golden_main.examples(EXAMPLES), GOLDEN_PATH)
