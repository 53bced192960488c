"""Golden cases for ``jax.ops``: the segment reductions (sum, prod, max, min), with JAX 0.10.2's jaxprs, values and
errors; ``num_segments`` given and inferred, ``bucket_size``, modes, dtypes, jit and vmap.

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_ops_golden.py jax
"""

import importlib

import numpy as np
from jnp_golden import write

DATA = np.array([1.5, -2.0, 3.0, 0.5, 4.0], np.float32)
IDS = np.array([0, 0, 2, 1, 2], np.int32)
OUT_OF_RANGE = np.array([0, 5, -1, 1, 1], np.int32)
ROWS = np.arange(10, dtype=np.float32).reshape(5, 2)


def ops(m):
    return importlib.import_module(f"{m.__name__}.ops") if hasattr(m, "__name__") else m.ops


def case(name, *args, **kwargs):
    return lambda m: (lambda *a: getattr(ops(m), name)(*a, **kwargs), list(args))


CASES = {}
for reduction in ("segment_sum", "segment_prod", "segment_max", "segment_min"):
    CASES[f"{reduction}"] = case(reduction, DATA, IDS, num_segments=3)
    CASES[f"{reduction}_rows"] = case(reduction, ROWS, IDS, num_segments=4)
    CASES[f"{reduction}_out_of_range_dropped"] = case(reduction, DATA, OUT_OF_RANGE, num_segments=3)
    CASES[f"{reduction}_bucketed"] = case(reduction, DATA, IDS, num_segments=3, bucket_size=2)
    CASES[f"{reduction}_int8"] = case(reduction, np.array([2, 3, -4, 5, 1], np.int8), IDS, num_segments=3)
    CASES[f"{reduction}_uint8"] = case(reduction, np.array([2, 3, 4, 5, 1], np.uint8), IDS, num_segments=4)
CASES.update({
    "segment_sum_sorted_unique": case("segment_sum", DATA, np.arange(5, dtype=np.int32), num_segments=5,
                                      indices_are_sorted=True, unique_indices=True),
    "segment_sum_clip": case("segment_sum", DATA, OUT_OF_RANGE, num_segments=3, mode="clip"),
    "segment_max_bool": case("segment_max", np.array([True, False, False, True, False]), IDS, num_segments=4),
    "segment_sum_scalar_data": case("segment_sum", np.float32(1.0), np.zeros(1, np.int32), num_segments=2),
    "segment_sum_empty": case("segment_sum", np.zeros((0, 2), np.float32), np.zeros(0, np.int32), num_segments=2),
    "segment_sum_ids_2d": case("segment_sum", np.ones(4, np.float32), np.zeros((2, 2), np.int32), num_segments=2),
    "segment_sum_length_mismatch": case("segment_sum", np.ones(4, np.float32), np.zeros(3, np.int32),
                                        num_segments=2),
    "segment_sum_negative_segments": case("segment_sum", DATA, IDS, num_segments=-1),
    "segment_sum_float_ids": case("segment_sum", DATA, IDS.astype(np.float32), num_segments=3),
    "segment_sum_inferred_traced": case("segment_sum", DATA, IDS),
    "segment_sum_jit_vmap": lambda m: (_jit_vmap(m), [ROWS.T.copy(), IDS]),
    "segment_max_grad": lambda m: (_grad(m), [DATA, IDS]),
})


def _jit_vmap(m):
    return lambda d, s: m.jit(m.vmap(lambda row: ops(m).segment_sum(row, s, 3)))(d)


def _grad(m):
    return m.grad(lambda d, s: m.numpy.sum(ops(m).segment_max(d, s, 3) ** 2))


if __name__ == "__main__":
    write(CASES, "ops_golden.json")
