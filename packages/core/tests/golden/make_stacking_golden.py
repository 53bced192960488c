"""Write stacking_golden.json: ``lax.stack``, ``lax.unstack`` and ``lax.tile`` (primitives in JAX 0.10.2) with
their jaxpr text, values and errors, alone and under jit, jvp, grad, linear_transpose and vmap:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_stacking_golden.py jax

Each case is ``build(module) -> (function, args)`` with ``module`` jax or jaxle_core; the whole jaxpr text is
recorded (transformations add equations around the primitive, so its text is what is compared).
"""

import numpy as np
from make_reductions_golden import rand, write_text_cases


def _sum(m, x):
    return m.lax.reduce_sum(x, tuple(range(np.ndim(x))))


X = rand((2, 3), "float32")
Y = rand((2, 3, 4), "float32", 1)
ONES = np.ones((2, 3), np.float32)

CASES = {
    # the primitives and their parameters
    "stack-axis0": lambda m: (lambda x: m.lax.stack([x, x], 0), (X,)),
    "stack-axis1": lambda m: (lambda x: m.lax.stack([x, x * 2], axis=1), (X,)),
    "stack-axis-neg": lambda m: (lambda x: m.lax.stack([x, x], axis=-1), (X,)),
    "stack-one": lambda m: (lambda x: m.lax.stack([x]), (X,)),
    "stack-array-rows": lambda m: (lambda x: m.lax.stack(x), (X,)),
    "stack-int": lambda m: (lambda x: m.lax.stack([x, x + 1], 1), (rand((3,), "int8"),)),
    "stack-python-scalars": lambda m: (lambda: m.lax.stack([1.0, 2.0]), ()),
    "stack-weak-and-strong": lambda m: (lambda x: m.lax.stack([x, 2.0]), (np.float32(1),)),
    "stack-numpy-axis": lambda m: (lambda x: m.lax.stack([x, x], axis=np.int64(1)), (X,)),
    "unstack-axis0": lambda m: (lambda x: m.lax.unstack(x, 0), (X,)),
    "unstack-axis-neg": lambda m: (lambda x: m.lax.unstack(x, axis=-1), (X,)),
    "unstack-int": lambda m: (lambda x: m.lax.unstack(x), (rand((2, 3), "int32"),)),
    "unstack-empty": lambda m: (lambda x: m.lax.unstack(x), (np.zeros((0, 3), np.float32),)),
    "unstack-weak": lambda m: (lambda: m.lax.unstack(m.lax.broadcast(2.0, (2,))), ()),
    "tile-rows": lambda m: (lambda x: m.lax.tile(x, (2, 1)), (X,)),
    "tile-both": lambda m: (lambda x: m.lax.tile(x, [2, 3]), (X,)),
    "tile-zero": lambda m: (lambda x: m.lax.tile(x, (0, 1)), (X,)),
    "tile-scalar": lambda m: (lambda x: m.lax.tile(x, ()), (np.float32(3.0),)),
    "tile-bool": lambda m: (lambda x: m.lax.tile(x, (3,)), (rand((2,), "bool"),)),
    "tile-numpy-reps": lambda m: (lambda x: m.lax.tile(x, (1, np.int64(2))), (X,)),
    # under jit, jvp, grad and linear_transpose
    "jit-stack": lambda m: (m.jit(lambda x: m.lax.stack([x, 1.0 * x])), (np.float32(2.0),)),
    "jvp-stack": lambda m: (lambda x: m.jvp(lambda x: m.lax.stack([x, x]), (x,), (x,)), (X,)),
    "jvp-stack-const": lambda m: (lambda x: m.jvp(lambda x: m.lax.stack([x, ONES], 1), (x,), (x,)), (X,)),
    "jvp-unstack": lambda m: (lambda x: m.jvp(lambda x: m.lax.unstack(x), (x,), (x,)), (X,)),
    "jvp-tile": lambda m: (lambda x: m.jvp(lambda x: m.lax.tile(x, (2, 1)), (x,), (x,)), (X,)),
    "grad-stack": lambda m: (m.grad(lambda x: _sum(m, m.lax.stack([x, 2 * x], 1))), (X,)),
    "grad-stack-consts": lambda m: (m.grad(lambda x: _sum(m, m.lax.stack([ONES, x, ONES], 1))), (X,)),
    "grad-unstack": lambda m: (m.grad(lambda x: _sum(m, m.lax.unstack(x, 1)[0] * 3)), (X,)),
    "grad-unstack-one-used": lambda m: (m.grad(lambda x: _sum(m, m.lax.unstack(x, 0)[1])), (X,)),
    "grad-tile": lambda m: (m.grad(lambda x: _sum(m, m.lax.tile(x, (2, 3)))), (X,)),
    "grad-tile-ones": lambda m: (m.grad(lambda x: _sum(m, m.lax.tile(x, (1, 1)))), (X,)),
    "grad-tile-vector": lambda m: (m.grad(lambda x: _sum(m, m.lax.tile(x, (3,)))), (rand((2,), "float32"),)),
    "grad-tile-scalar": lambda m: (m.grad(lambda x: m.lax.tile(x, ())), (np.float32(2.0),)),
    "transpose-unstack": lambda m: (m.linear_transpose(lambda x: m.lax.unstack(x, 0), X),
                                    (tuple(rand((2, 3), "float32", 2)),)),
    "transpose-stack": lambda m: (m.linear_transpose(lambda x: m.lax.stack([x, x], 1), X),
                                  (rand((2, 2, 3), "float32", 2),)),
    "transpose-tile": lambda m: (m.linear_transpose(lambda x: m.lax.tile(x, (2, 2)), X),
                                 (rand((4, 6), "float32", 2),)),
    # vmap: the new axis moves around a shared batch dimension; mixed ones go to the front
    "vmap-stack-in0-axis0": lambda m: (m.vmap(lambda x: m.lax.stack([x, x], 0)), (X,)),
    "vmap-stack-in0-axis1": lambda m: (m.vmap(lambda x: m.lax.stack([x, x], 1)), (X,)),
    "vmap-stack-in1-axis0": lambda m: (m.vmap(lambda x: m.lax.stack([x, x], 0), 1), (Y,)),
    "vmap-stack-in1-axis1": lambda m: (m.vmap(lambda x: m.lax.stack([x, x], 1), 1), (Y,)),
    "vmap-stack-in1-axis2": lambda m: (m.vmap(lambda x: m.lax.stack([x, x], 2), 1), (Y,)),
    "vmap-stack-in1-out1": lambda m: (m.vmap(lambda x: m.lax.stack([x, x], 1), 1, out_axes=1), (Y,)),
    "vmap-stack-in10": lambda m: (m.vmap(lambda x, z: m.lax.stack([x, z], 1), (1, 0)),
                                  (Y, rand((3, 2, 4), "float32", 2))),
    "vmap-stack-in1N": lambda m: (m.vmap(lambda x, z: m.lax.stack([x, z], 0), (1, None)),
                                  (Y, rand((2, 4), "float32", 2))),
    "vmap-stack-in0N": lambda m: (m.vmap(lambda x, z: m.lax.stack([x, z], 0), (0, None)), (X, X[0])),
    "vmap-unstack-in0": lambda m: (m.vmap(lambda x: m.lax.unstack(x, 0)), (X,)),
    "vmap-unstack-in1-axis0": lambda m: (m.vmap(lambda x: m.lax.unstack(x, 0), 1), (Y,)),
    "vmap-unstack-in1-axis1": lambda m: (m.vmap(lambda x: m.lax.unstack(x, 1), 1), (Y,)),
    "vmap-unstack-in1-out1": lambda m: (m.vmap(lambda x: m.lax.unstack(x, 1), 1, out_axes=1), (Y,)),
    "vmap-tile-in0": lambda m: (m.vmap(lambda x: m.lax.tile(x, (2,))), (X,)),
    "vmap-tile-in1": lambda m: (m.vmap(lambda x: m.lax.tile(x, (2, 3)), 1), (Y,)),
    "vmap-tile-in1-out1": lambda m: (m.vmap(lambda x: m.lax.tile(x, (2, 3)), 1, out_axes=1), (Y,)),
    "vmap-grad-tile": lambda m: (m.vmap(m.grad(lambda x: _sum(m, m.lax.tile(x, (3,))))), (rand((2, 2), "float32"),)),
    # errors
    "err-stack-empty": lambda m: (lambda: m.lax.stack([]), ()),
    "err-stack-ranks": lambda m: (lambda x: m.lax.stack([x, x[0]]), (X,)),
    "err-stack-shapes": lambda m: (lambda x: m.lax.stack([x, m.lax.transpose(x, (1, 0))]), (X,)),
    "err-stack-dtypes": lambda m: (lambda x: m.lax.stack([x, m.lax.convert_element_type(x, np.int32)]), (X,)),
    "err-stack-axis": lambda m: (lambda x: m.lax.stack([x, x], 3), (X,)),
    "err-stack-axis-neg": lambda m: (lambda x: m.lax.stack([x, x], -4), (X,)),
    "err-stack-axis-float": lambda m: (lambda x: m.lax.stack([x, x], axis=1.0), (X,)),
    "err-unstack-axis": lambda m: (lambda x: m.lax.unstack(x, 2), (X,)),
    "err-unstack-axis-neg": lambda m: (lambda x: m.lax.unstack(x, -3), (X,)),
    "err-unstack-scalar": lambda m: (lambda: m.lax.unstack(3.0), ()),
    "err-unstack-axis-float": lambda m: (lambda x: m.lax.unstack(x, axis=1.0), (X,)),
    "err-tile-short": lambda m: (lambda x: m.lax.tile(x, (2,)), (X,)),
    "err-tile-long": lambda m: (lambda x: m.lax.tile(x, (2, 1, 1)), (X,)),
    "err-tile-int": lambda m: (lambda x: m.lax.tile(x, 2), (X,)),
}

if __name__ == "__main__":
    write_text_cases(CASES, "stacking_golden.json")
