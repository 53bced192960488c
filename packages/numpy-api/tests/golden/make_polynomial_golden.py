"""Write polynomial_golden.json: jnp's polynomial functions as the named module runs them.

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_polynomial_golden.py jax
"""

import jnp_golden
from jnp_golden import rand

F32 = "float32"


def _call(name, *shapes_dtypes, **kwargs):
    def build(m):
        fn = getattr(m.numpy, name)
        return (lambda *args: fn(*args, **kwargs)), [rand(s, d, seed) for seed, (s, d) in enumerate(shapes_dtypes)]
    return build


CASES = {
    "polyval": _call("polyval", ((3,), F32), ((2,), F32)),
    "polyval_unroll": _call("polyval", ((3,), F32), ((2,), F32), unroll=1),
    "polyval_scalar_x": lambda m: (lambda p: m.numpy.polyval(p, 2.0), [rand((4,), "int32")]),
    "polyval_int": _call("polyval", ((3,), "int32"), ((2, 2), "int32")),
    "polyval_2d_coefficients": _call("polyval", ((3, 2), F32), ((2,), F32)),
    "polyval_complex": _call("polyval", ((3,), "complex64"), ((2,), F32)),
    "polyval_float16": _call("polyval", ((3,), "float16"), ((2,), "float16")),
    "polyval_bool": _call("polyval", ((3,), "bool"), ((2,), "bool")),
    "polyval_empty": _call("polyval", ((0,), F32), ((2,), F32)),
    "polyval_list": lambda m: (lambda x: m.numpy.polyval([1.0, 2.0], x), [rand((2,), F32)]),
    "polyadd": _call("polyadd", ((3,), F32), ((2,), F32)),
    "polyadd_longer_second": _call("polyadd", ((2,), F32), ((4,), "int32")),
    "polyadd_equal": _call("polyadd", ((3,), "int32"), ((3,), "int32")),
    "polyadd_weak": lambda m: (lambda a: m.numpy.polyadd(a, 2.0), [rand((3,), F32)]),
    "polysub": _call("polysub", ((2,), F32), ((3,), "int32")),
    "polysub_longer_first": _call("polysub", ((4,), F32), ((2,), F32)),
    "polymul": _call("polymul", ((3,), F32), ((2,), F32)),
    "polymul_int": _call("polymul", ((3,), "int32"), ((2,), "int32")),
    "polymul_complex": _call("polymul", ((2,), "complex64"), ((3,), F32)),
    "polymul_empty": _call("polymul", ((0,), F32), ((2,), F32)),
    "polymul_trim_traced": _call("polymul", ((3,), F32), ((2,), F32), trim_leading_zeros=True),
    "polydiv": _call("polydiv", ((4,), F32), ((2,), F32)),
    "polydiv_int": _call("polydiv", ((5,), "int32"), ((3,), "int32")),
    "polydiv_longer_divisor": _call("polydiv", ((2,), F32), ((3,), F32)),
    "polydiv_trim_traced": _call("polydiv", ((4,), F32), ((2,), F32), trim_leading_zeros=True),
    "polyder": _call("polyder", ((4,), F32)),
    "polyder_2": _call("polyder", ((4,), "int32"), m=2),
    "polyder_0": _call("polyder", ((4,), F32), m=0),
    "polyder_too_high": _call("polyder", ((3,), F32), m=4),
    "polyder_float_order": _call("polyder", ((3,), F32), m=1.5),
    "polyint_float_order": _call("polyint", ((3,), F32), m=1.5),
    "polyder_negative": _call("polyder", ((4,), F32), m=-1),
    "polyint": _call("polyint", ((3,), F32)),
    "polyint_k_array": lambda m: (lambda p, k: m.numpy.polyint(p, 2, k), [rand((3,), F32), rand((2,), F32, 1)]),
    "polyint_traced_m": _call("polyint", ((3,), F32), ((), "int32")),
    "polyint_k_scalar": lambda m: (lambda p: m.numpy.polyint(p, 2, k=3.0), [rand((3,), "int32")]),
    "polyint_k_traced_scalar": lambda m: (lambda p, k: m.numpy.polyint(p, k=k), [rand((3,), F32), rand((), F32)]),
    "polyint_0": _call("polyint", ((3,), F32), m=0),
    "polyint_k_list": lambda m: (lambda p: m.numpy.polyint(p, 2, k=[1.0, 2.0]), [rand((3,), F32)]),
    "polyint_k_wrong_length": lambda m: (lambda p, k: m.numpy.polyint(p, 2, k), [rand((3,), F32), rand((3,), F32)]),
    "polyint_negative": _call("polyint", ((3,), F32), m=-1),
    "poly": _call("poly", ((3,), F32)),
    "poly_int": _call("poly", ((2,), "int32")),
    "poly_complex": _call("poly", ((2,), "complex64")),
    "poly_empty": _call("poly", ((0,), F32)),
    "poly_scalar": _call("poly", ((), F32)),
    "poly_3d": _call("poly", ((2, 2, 2), F32)),
    "poly_nonsquare": _call("poly", ((2, 3), F32)),
    "poly_matrix": _call("poly", ((3, 3), F32)),
    "poly_matrix_int": _call("poly", ((2, 2), "int32")),
    "polyval_vmap": lambda m: (m.vmap(m.numpy.polyval, in_axes=(None, 0)), [rand((3,), F32), rand((4, 2), F32, 1)]),
    "polyval_grad": lambda m: (m.grad(m.numpy.polyval, argnums=(0, 1)), [rand((3,), F32), rand((), F32, 1)]),
    "polyder_jit": lambda m: (m.jit(lambda p: m.numpy.polyder(p, 2)), [rand((5,), F32)]),
}

if __name__ == "__main__":
    jnp_golden.write(CASES, "polynomial_golden.json")
