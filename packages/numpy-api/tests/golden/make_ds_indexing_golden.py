"""Golden records of jnp indexing and ``.at[]`` updates with ``jax.ds`` dynamic slices, from JAX 0.10.2 (see
jnp_golden.py).

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_ds_indexing_golden.py jax
"""

import jnp_golden
import numpy as np
from jnp_golden import rand

X1 = rand((10,), "float32", 0)
X2 = rand((4, 5), "float32", 1)
ROWS = np.array([0, 1], np.int32)


def _case(fn, *args):
    """``fn(m)`` is the function; ``args`` are traced (NumPy arrays become the module's arrays)."""
    return lambda m: (fn(m), jnp_golden.module_arrays(m, args))


CASES = {
    # unit stride: one dynamic_slice (a traced start wrapped when negative, then clamped)
    "static_start": _case(lambda m: lambda x: x[m.ds(1, 3)], X1),
    "static_negative_start": _case(lambda m: lambda x: x[m.ds(-3, 2)], X1),
    "static_start_clamped": _case(lambda m: lambda x: x[m.ds(9, 3)], X1),
    "size_only": _case(lambda m: lambda x: x[m.ds(4)], X1),
    "traced_start": _case(lambda m: lambda x, i: x[m.ds(i, 3)], X1, 2),
    "traced_negative_start": _case(lambda m: lambda x, i: x[m.ds(i, 3)], X1, np.int32(-2)),
    "traced_int16_start": _case(lambda m: lambda x, i: x[m.ds(i, 3)], X1, np.int16(2)),
    "with_newaxis": _case(lambda m: lambda x: x[m.ds(1, 3), None], X1),
    "rows_2d": _case(lambda m: lambda x: x[m.ds(1, 2)], X2),
    "traced_rows_with_int": _case(lambda m: lambda x, i: x[m.ds(i, 2), 1], X2, 1),
    "slice_and_traced_columns": _case(lambda m: lambda x, i: x[1:3, m.ds(i, 2)], X2, 1),
    # stride > 1: a gather of iota positions (starts never wrapped)
    "strided": _case(lambda m: lambda x: x[m.ds(0, 3, 2)], X1),
    "strided_negative_start": _case(lambda m: lambda x: x[m.ds(-1, 3, 2)], X1),
    "strided_past_end": _case(lambda m: lambda x: x[m.ds(8, 3, 2)], X1),
    "strided_traced_start": _case(lambda m: lambda x, i: x[m.ds(i, 3, 2)], X1, 1),
    "strided_traced_int32_start": _case(lambda m: lambda x, i: x[m.ds(i, 3, 2)], X1, np.int32(5)),
    "strided_traced_negative_start": _case(lambda m: lambda x, i: x[m.ds(i, 3, 2)], X1, np.int32(-2)),
    "window_and_strided": _case(lambda m: lambda x: x[m.ds(1, 2), m.ds(0, 2, 2)], X2),
    # with integer arrays: one gather
    "array_and_window": _case(lambda m: lambda x: x[ROWS, m.ds(1, 2)], X2),
    "array_and_traced_window": _case(lambda m: lambda x, i: x[ROWS, m.ds(i, 2)], X2, 1),
    "array_and_strided": _case(lambda m: lambda x: x[ROWS, m.ds(0, 2, 2)], X2),
    # .at[] updates: scatters (windows out of bounds are dropped)
    "set_static": _case(lambda m: lambda x: x.at[m.ds(1, 3)].set(0.0), X1),
    "set_static_negative": _case(lambda m: lambda x: x.at[m.ds(-3, 2)].set(0.0), X1),
    "set_everything": _case(lambda m: lambda x: x.at[m.ds(0, 10)].set(0.0), X1),
    "set_traced": _case(lambda m: lambda x, i: x.at[m.ds(i, 3)].set(0.0), X1, np.int32(2)),
    "set_traced_negative": _case(lambda m: lambda x, i: x.at[m.ds(i, 3)].set(0.0), X1, np.int32(-2)),
    "set_traced_past_end": _case(lambda m: lambda x, i: x.at[m.ds(i, 3)].set(0.0), X1, np.int32(8)),
    "add_traced_weak": _case(lambda m: lambda x, i: x.at[m.ds(i, 3)].add(1.0), X1, 1),
    "set_strided": _case(lambda m: lambda x: x.at[m.ds(1, 3, 2)].set(0.0), X1),
    "set_strided_traced": _case(lambda m: lambda x, i: x.at[m.ds(i, 3, 2)].set(0.0), X1, 1),
    "get_strided": _case(lambda m: lambda x: x.at[m.ds(1, 3, 2)].get(), X1),
}

if __name__ == "__main__":
    jnp_golden.write(CASES, "ds_indexing_golden.json")
