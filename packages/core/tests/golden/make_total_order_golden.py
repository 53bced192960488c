"""Write total_order_golden.json: JAX 0.10.2's total-order comparisons ``eq_to_p``, ``le_to_p``, ``lt_to_p``
(-NaN < -inf < ... < -0.0 < 0.0 < ... < inf < NaN), bound directly as JAX offers them, alone and under jvp, grad and
vmap, with their errors:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_total_order_golden.py jax
"""

import numpy as np
from make_reductions_golden import rand, write_text_cases

_SPECIAL = np.array([-np.nan, -np.inf, -1.0, -0.0, 0.0, 1.0, np.inf, np.nan], np.float32)
# every pair of special values: rows hold the left operand, columns the right one
LEFT, RIGHT = np.repeat(_SPECIAL, 8), np.tile(_SPECIAL, 8)

CASES = {}
for _name in ["eq_to", "le_to", "lt_to"]:
    def _p(m, name=_name):
        return getattr(m.lax, f"{name}_p")

    CASES.update({
        f"{_name}-specials": lambda m, p=_p: (lambda x, y: p(m).bind(x, y), (LEFT, RIGHT)),
        f"{_name}-float16": lambda m, p=_p: (lambda x, y: p(m).bind(x, y), (LEFT.astype(np.float16),
                                                                            RIGHT.astype(np.float16))),
        f"{_name}-bfloat16": lambda m, p=_p: (lambda x, y: p(m).bind(m.lax.convert_element_type(x, "bfloat16"),
                                                                     m.lax.convert_element_type(y, "bfloat16")),
                                              (LEFT, RIGHT)),
        f"{_name}-int32": lambda m, p=_p: (lambda x, y: p(m).bind(x, y), (rand((6,), "int32"), rand((6,), "int32", 1))),
        f"{_name}-uint8": lambda m, p=_p: (lambda x, y: p(m).bind(x, y), (rand((6,), "uint8"), rand((6,), "uint8", 1))),
        f"{_name}-bool": lambda m, p=_p: (lambda x, y: p(m).bind(x, y), (rand((6,), "bool"), rand((6,), "bool", 1))),
        f"{_name}-weak-scalar": lambda m, p=_p: (lambda x: p(m).bind(x, 2.0), (rand((3,), "float32"),)),
        f"{_name}-scalar-broadcast": lambda m, p=_p: (lambda x, y: p(m).bind(x, y), (rand((3,), "float32"),
                                                                                     np.float32(0.5))),
        f"{_name}-jvp": lambda m, p=_p: (lambda x: m.jvp(lambda x: p(m).bind(x, x), (x,), (x,)),
                                         (rand((3,), "float32"),)),
        f"{_name}-grad": lambda m, p=_p: (m.grad(lambda x: m.lax.select_n(p(m).bind(x, 1.0), x, 2 * x)),
                                          (np.float32(0.5),)),
        f"{_name}-vmap-in0N": lambda m, p=_p: (m.vmap(lambda x, y: p(m).bind(x, y), (0, None)),
                                               (rand((2, 3), "float32"), rand((3,), "float32", 1))),
        f"{_name}-vmap-in10": lambda m, p=_p: (m.vmap(lambda x, y: p(m).bind(x, y), (1, 0)),
                                               (rand((3, 2), "float32"), rand((2, 3), "float32", 1))),
        f"err-{_name}-dtypes": lambda m, p=_p: (lambda x, y: p(m).bind(x, y), (rand((3,), "float32"),
                                                                                rand((3,), "int32"))),
        f"err-{_name}-shapes": lambda m, p=_p: (lambda x, y: p(m).bind(x, y), (rand((3,), "float32"),
                                                                                rand((2,), "float32"))),
    })
CASES.update({
    "err-le_to-complex": lambda m: (lambda x, y: m.lax.le_to_p.bind(x, y), (rand((2,), "complex64"),) * 2),
    "err-lt_to-complex": lambda m: (lambda x, y: m.lax.lt_to_p.bind(x, y), (rand((2,), "complex64"),) * 2),
})

if __name__ == "__main__":
    write_text_cases(CASES, "total_order_golden.json")
