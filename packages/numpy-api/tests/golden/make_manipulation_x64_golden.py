"""Golden records of jnp's shape manipulation functions with 64-bit types enabled, from JAX 0.10.2 (the test
replays them inside ``jaxle_core.config.enable_x64(True)``).

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_manipulation_x64_golden.py jax
"""

import jnp_golden
import numpy as np
from jnp_golden import rand

F64 = rand((2, 3), "float64")
I64 = rand((2, 3), "int64")


def _case(fn, *args):
    return lambda m: (fn(m), args)


CASES = {
    "reshape": _case(lambda m: lambda a: m.numpy.reshape(a, (3, -1)), I64),
    "concatenate_promote": _case(lambda m: lambda a, b: m.numpy.concatenate([a, b]), F64, I64),
    "concatenate_weak": _case(lambda m: lambda a: m.numpy.concatenate([a, m.numpy.broadcast_to(1.0, (1, 3))]), I64),
    "stack_dtype": _case(lambda m: lambda a: m.numpy.stack([a, a], dtype=np.float64), I64),
    "diagonal": _case(lambda m: lambda a: m.numpy.diagonal(a, 1), F64),
    "roll_traced": _case(lambda m: lambda a, s: m.numpy.roll(a, s, axis=1), F64, 2),
    "roll_static": _case(lambda m: lambda a: m.numpy.roll(a, (1, -1), (0, 1)), I64),
    "repeat": _case(lambda m: lambda a: m.numpy.repeat(a, 2, axis=0), F64),
    "repeat_array": _case(lambda m: lambda a: m.numpy.repeat(a, np.array([1, 2, 0]), axis=1), F64),
    "split": _case(lambda m: lambda a: m.numpy.split(a, [1], axis=1), I64),
    "tile": _case(lambda m: lambda a: m.numpy.tile(a, (2, 1)), I64),
    "pad_constant": _case(lambda m: lambda a: m.numpy.pad(a, 1), F64),
    "pad_constant_values": _case(lambda m: lambda a: m.numpy.pad(a, 1, constant_values=(1, 2)), I64),
    "pad_mean_int": _case(lambda m: lambda a: m.numpy.pad(a, 1, mode="mean"), I64),
    "pad_linear_ramp": _case(lambda m: lambda a: m.numpy.pad(a, (2, 1), mode="linear_ramp", end_values=3), F64),
    "pad_reflect_odd": _case(lambda m: lambda a: m.numpy.pad(a, 2, mode="reflect", reflect_type="odd"), I64),
    "delete_unique": _case(lambda m: lambda a, i: m.numpy.delete(a, i, axis=1, assume_unique_indices=True), F64,
                           np.array([0, 2])),
    "delete_array": _case(lambda m: lambda a: m.numpy.delete(a, np.array([1]), axis=1), F64),
    "insert_indices": _case(lambda m: lambda a: m.numpy.insert(a, np.array([0, 3]), np.array([7.0, 8.0])),
                            rand((3,), "float64")),
    "resize": _case(lambda m: lambda a: m.numpy.resize(a, (4, 2)), I64),
    "astype": _case(lambda m: lambda a: m.numpy.astype(a, np.float64), rand((2,), "float32")),
    "astype_weak": _case(lambda m: lambda a: m.numpy.astype(a, np.int64), 3.0),
}

if __name__ == "__main__":
    jnp_golden.write_x64(CASES, "manipulation_x64_golden.json")
