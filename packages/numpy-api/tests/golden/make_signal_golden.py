"""Write signal_golden.json: jnp.convolve and jnp.correlate as the named module runs them.

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_signal_golden.py jax
"""

import jnp_golden
from jnp_golden import rand

F32 = "float32"


def _call(name, a, v, *args, **kwargs):
    def build(m):
        fn = getattr(m.numpy, name)
        return (lambda x, y: fn(x, y, *args, **kwargs)), [rand(*a), rand(*v, 1)]
    return build


CASES = {}
for op in ("convolve", "correlate"):
    for mode in ("full", "same", "valid"):
        CASES[f"{op}_{mode}"] = _call(op, ((5,), F32), ((3,), F32), mode)
        CASES[f"{op}_{mode}_even"] = _call(op, ((5,), F32), ((4,), F32), mode)
        CASES[f"{op}_{mode}_swapped"] = _call(op, ((3,), F32), ((5,), F32), mode)
        CASES[f"{op}_{mode}_complex_swapped"] = _call(op, ((2,), "complex64"), ((4,), "complex64"), mode)
    CASES[f"{op}_default"] = _call(op, ((5,), F32), ((3,), F32))
    CASES[f"{op}_int_float"] = _call(op, ((5,), "int32"), ((3,), F32))
    CASES[f"{op}_int"] = _call(op, ((4,), "int8"), ((3,), "int8"))
    CASES[f"{op}_bool"] = _call(op, ((5,), "bool"), ((3,), "bool"))
    CASES[f"{op}_float16"] = _call(op, ((5,), "float16"), ((2,), "float16"))
    CASES[f"{op}_bfloat16"] = _call(op, ((5,), "bfloat16"), ((2,), "bfloat16"))
    CASES[f"{op}_complex"] = _call(op, ((5,), "complex64"), ((3,), "complex64"))
    CASES[f"{op}_complex_real"] = _call(op, ((5,), F32), ((3,), "complex64"))
    CASES[f"{op}_preferred"] = _call(op, ((5,), "int8"), ((3,), "int8"), precision="highest",
                                     preferred_element_type="float32")
    CASES[f"{op}_preferred_bf16"] = _call(op, ((5,), "bfloat16"), ((3,), "bfloat16"),
                                          preferred_element_type="float32")
    CASES[f"{op}_length_one"] = _call(op, ((1,), F32), ((1,), F32), "same")
    CASES[f"{op}_empty"] = _call(op, ((5,), F32), ((0,), F32))
    CASES[f"{op}_2d"] = _call(op, ((5, 1), F32), ((3,), F32))
    CASES[f"{op}_bad_mode"] = _call(op, ((5,), F32), ((3,), F32), "bad")
    CASES[f"{op}_list"] = lambda m, op=op: (lambda v: getattr(m.numpy, op)([1.0, 2.0], v), [rand((2,), F32)])
    CASES[f"{op}_vmap"] = lambda m, op=op: (m.vmap(lambda a, v: getattr(m.numpy, op)(a, v, "same"), in_axes=(0, None)),
                                            [rand((3, 5), F32), rand((3,), F32, 1)])
    CASES[f"{op}_grad"] = lambda m, op=op: (m.grad(lambda a, v: m.lax.reduce_sum(getattr(m.numpy, op)(a, v), (0,)),
                                                   argnums=(0, 1)), [rand((5,), F32), rand((3,), F32, 1)])

if __name__ == "__main__":
    jnp_golden.write(CASES, "signal_golden.json")
