"""Golden records of how jaxprs print scalar constants, from JAX 0.10.2: a Python scalar an operation takes, or that
``jnp.asarray`` makes a weakly typed array of, prints as given (``0.3:f32[]``); NumPy scalars, explicitly typed
arrays and conversions print the value of the dtype they hold (``0.30000001192092896:f32[]``), conversions of such
constants folded while tracing. Recorded with 64-bit types off (``literals_golden.json``) and on
(``literals_x64_golden.json``).

Run with JAX's environment:
/work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_literals_golden.py jax
"""

import numpy as np
from jnp_golden import write, write_x64

X = np.float32(1.0)


def _case(fn):
    """``fn(m, x)`` traced at a float32 scalar ``x``."""
    return lambda m: (lambda x: fn(m, x), [X])


CASES = {
    "mul_python_float": _case(lambda m, x: x * 0.3),
    "mul_python_int": _case(lambda m, x: x * 3),
    "lax_mul_python_float": _case(lambda m, x: m.lax.mul(x, 0.3)),
    "convert_python_float_f32": _case(lambda m, x: x + m.lax.convert_element_type(0.3, m.numpy.float32)),
    "convert_python_float_f16": _case(lambda m, x: x + m.lax.convert_element_type(0.3, m.numpy.float16)),
    "convert_python_float_bf16": _case(lambda m, x: x + m.lax.convert_element_type(0.3, m.numpy.bfloat16)),
    "convert_python_float_f64": _case(lambda m, x: x + m.lax.convert_element_type(0.3, m.numpy.float64)),
    "convert_python_float_i32": _case(lambda m, x: x + m.lax.convert_element_type(3.7, m.numpy.int32)),
    "convert_numpy_f64_to_f32": _case(lambda m, x: x + m.lax.convert_element_type(np.float64(0.3), np.float32)),
    "jnp_float32_scalar": _case(lambda m, x: x + m.numpy.float32(0.3)),
    "jnp_float16_scalar": _case(lambda m, x: x + m.numpy.float16(0.3)),
    "jnp_bfloat16_scalar": _case(lambda m, x: x + m.numpy.bfloat16(0.3)),
    "numpy_float32": _case(lambda m, x: x + np.float32(0.3)),
    "numpy_float64": _case(lambda m, x: x + np.float64(0.3)),
    "numpy_float16": _case(lambda m, x: x + np.float16(0.3)),
    "jnp_array_float32": _case(lambda m, x: x + m.numpy.array(0.3, m.numpy.float32)),
    "jnp_asarray_python_float": _case(lambda m, x: x + m.numpy.asarray(0.3)),
    "jnp_asarray_python_complex": _case(lambda m, x: x * m.numpy.asarray(0.3 + 0.1j)),
    "jnp_asarray_neg": _case(lambda m, x: x + (-m.numpy.asarray(0.3))),
    "jnp_asarray_log1p_neg": _case(lambda m, x: m.numpy.log1p(-x) / m.numpy.log1p(-m.numpy.asarray(0.3))),
    "astype_float32": _case(lambda m, x: x + m.numpy.asarray(0.3).astype(m.numpy.float32)),
    "astype_float16": _case(lambda m, x: x + m.numpy.asarray(0.3).astype(m.numpy.float16)),
    "astype_int8": _case(lambda m, x: x + m.numpy.asarray(2.7).astype(m.numpy.int8)),
    "lax_convert_of_asarray": _case(lambda m, x: x + m.lax.convert_element_type(m.numpy.asarray(0.3),
                                                                                m.numpy.float16)),
    "float16_mul_python_float": _case(lambda m, x: x.astype(m.numpy.float16) * 0.3),
    "bfloat16_mul_python_float": _case(lambda m, x: x.astype(m.numpy.bfloat16) * 0.3),
    "full": _case(lambda m, x: x + m.numpy.full((), 0.3, m.numpy.float32)),
    "full_like": _case(lambda m, x: m.numpy.full_like(x, 0.3)),
    "where_python_float": _case(lambda m, x: m.numpy.where(x > 0, x, 0.3)),
    "maximum_python_float": _case(lambda m, x: m.numpy.maximum(x, 0.1)),
    "lax_add_numpy_float32": _case(lambda m, x: m.lax.add(x, np.float32(0.1))),
    "pow_python_float": _case(lambda m, x: x ** 0.5),
    "rdiv_python_float": _case(lambda m, x: 1.0 / x),
    "python_small": _case(lambda m, x: x * 1e-7),
    "python_big": _case(lambda m, x: x * 1e30),
    "python_inf": _case(lambda m, x: x * float("inf")),
    "python_nan": _case(lambda m, x: x + float("nan")),
    "python_third": _case(lambda m, x: x * (1 / 3)),
    "python_negative_zero": _case(lambda m, x: x * -0.0),
    "python_complex": _case(lambda m, x: x * (0.3 + 0.1j)),
    "jit_python_float_argument": _case(lambda m, x: m.jit(lambda a, b: a * b)(x, 0.3)),
    "jnp_array_python_float": _case(lambda m, x: x + m.numpy.array(0.3)),
    "jnp_asarray_python_int": _case(lambda m, x: x + m.numpy.asarray(3)),
    "jnp_asarray_python_bool": _case(lambda m, x: m.numpy.where(m.numpy.asarray(True), x, 0.3)),
    "where_asarray_python_float": _case(lambda m, x: m.numpy.where(x > 0, x, m.numpy.asarray(0.3))),
    "lax_full_python_float": _case(lambda m, x: x + m.lax.full((), 0.3)),
    "jit_of_asarray": _case(lambda m, x: m.jit(lambda a, b: a * b)(x, m.numpy.asarray(0.3))),
    "grad_asarray_python_float": _case(lambda m, x: m.grad(lambda a: a * m.numpy.asarray(0.3) + 0.7)(x)),
    "vmap_asarray_python_float": lambda m: (lambda x: m.vmap(lambda a: a - m.numpy.asarray(0.3))(x),
                                            [np.ones(3, np.float32)]),
}

if __name__ == "__main__":
    write(CASES, "literals_golden.json")
    write_x64(CASES, "literals_x64_golden.json")
