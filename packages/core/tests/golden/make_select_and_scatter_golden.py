"""Write select_and_scatter_golden.json: JAX's general ``select_and_scatter_p`` (select and scatter computations
as jaxprs), bound directly as JAX offers it, with its jaxpr text, values and errors:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_select_and_scatter_golden.py jax
"""

import numpy as np
from make_reductions_golden import rand, write_text_cases

# Ties (3s and 5s) test which element a window selects; all values distinct in the second operand.
TIES = np.array([[3, 1, 3, 0], [2, 3, 1, 1], [0, 0, 5, 5], [1, 2, 5, 4]], np.float32)
DISTINCT = rand((4, 5), "float32")
SOURCE = np.arange(1, 5, dtype=np.float32).reshape(2, 2)
SOURCE_3x3 = np.arange(1, 10, dtype=np.float32).reshape(3, 3)


def _bind(m, operand, source, init, select="ge", scatter="add", **params):
    scalar = np.zeros((), operand.dtype)
    chosen = m.make_jaxpr(getattr(m.lax, select))(scalar, scalar)
    combined = m.make_jaxpr(getattr(m.lax, scatter))(scalar, scalar)
    params = dict(dict(window_dimensions=(2, 2), window_strides=(2, 2), padding=((0, 0), (0, 0))), **params)
    return m.lax.select_and_scatter_p.bind(operand, source, init, select_jaxpr=chosen.jaxpr,
                                           select_consts=tuple(chosen.consts), scatter_jaxpr=combined.jaxpr,
                                           scatter_consts=tuple(combined.consts), **params)


CASES = {
    "max-add": lambda m: (lambda x, s: _bind(m, x, s, np.float32(0)), (TIES, SOURCE)),
    "min-max": lambda m: (lambda x, s: _bind(m, x, s, np.float32(-1), "le", "max"), (TIES, SOURCE)),
    "padded": lambda m: (lambda x, s: _bind(m, x, s, np.float32(1), padding=((1, 1), (1, 1))),
                         (TIES, np.ones((3, 3), np.float32))),
    "overlapping": lambda m: (lambda x, s: _bind(m, x, s, np.float32(0), window_strides=(1, 1)), (TIES, SOURCE_3x3)),
    "overlapping-min": lambda m: (lambda x, s: _bind(m, x, s, np.float32(0), "le", window_strides=(1, 1)),
                                  (TIES, SOURCE_3x3)),
    "strided-1d-window": lambda m: (lambda x, s: _bind(m, x, s, np.float32(0.5), window_dimensions=(1, 3),
                                                       window_strides=(1, 2)),
                                    (DISTINCT, rand((4, 2), "float32", 1))),
    "int32": lambda m: (lambda x, s: _bind(m, x, s, np.int32(0)), (TIES.astype(np.int32), SOURCE.astype(np.int32))),
    "weak-init": lambda m: (lambda x, s: _bind(m, x, s, 0.0), (TIES, SOURCE)),
    "jit": lambda m: (m.jit(lambda x, s: _bind(m, x, s, np.float32(0), window_strides=(1, 1))), (TIES, SOURCE_3x3)),
    "err-strides": lambda m: (lambda x, s: _bind(m, x, s, np.float32(0), window_strides=(2,)), (TIES, SOURCE)),
    "err-jvp": lambda m: (lambda x: m.jvp(lambda x: _bind(m, x, SOURCE, np.float32(0)), (x,), (x,)), (TIES,)),
    "err-vmap": lambda m: (m.vmap(lambda x: _bind(m, x, SOURCE, np.float32(0))), (np.stack([TIES, TIES]),)),
}

if __name__ == "__main__":
    write_text_cases(CASES, "select_and_scatter_golden.json")
