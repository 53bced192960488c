"""Golden records of jnp indexing, ``.at[]`` and take with 64-bit types enabled, from JAX 0.10.2 (see
jnp_golden.py; the test replays them inside ``jaxle_core.config.enable_x64(True)``).

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_indexing_x64_golden.py jax
"""

import jnp_golden
import numpy as np

X = np.arange(12, dtype=np.float32).reshape(3, 4)
I2 = np.array([0, 2])  # int64


def _case(fn, *args):
    return lambda m: (fn(m), jnp_golden.module_arrays(m, args))


CASES = {
    "int64_array": _case(lambda m: lambda x, i: x[i], X, I2),
    "traced_int": _case(lambda m: lambda x, i: x[i], X, 1),
    "int_and_array": _case(lambda m: lambda x, i: x[1, i], X, I2),
    "list_and_int": _case(lambda m: lambda x: x[[0, 1], 0], X),
    "traced_int_strided": _case(lambda m: lambda x, j: x[j, ::2], X, 1),
    "boolean_mask": _case(lambda m: lambda x: x[np.array([True, False, True])], X),
    "float64_operand": _case(lambda m: lambda x: x[np.array([1])], X.astype(np.float64)),
    "weak_operand": _case(lambda m: lambda x: (x * 2)[0], X),
    "at_int_add": _case(lambda m: lambda x: x.at[0].add(1.0), X),
    "at_array_set": _case(lambda m: lambda x, i: x.at[i].set(1.0), X, I2),
    "at_float64_update": _case(lambda m: lambda x, y: x.at[0].set(y), X, np.ones(4)),
    "take": _case(lambda m: lambda x, i: m.numpy.take(x, i), X, I2),
    "take_along_axis": _case(lambda m: lambda x, i: m.numpy.take_along_axis(x, i, axis=1), X,
                             np.array([[0], [1], [2]])),
    "nonzero_size": _case(lambda m: lambda x: m.numpy.nonzero(x, size=2), X),
    "nonzero": _case(lambda m: lambda x: m.numpy.nonzero(x), X),
}

if __name__ == "__main__":
    jnp_golden.write_x64(CASES, "indexing_x64_golden.json")
