"""Write vectorize_golden.json: jnp.vectorize, apply_along_axis and apply_over_axes as the named module runs them.

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_vectorize_golden.py jax
"""

import jnp_golden
from jnp_golden import rand


def _vectorized(signature=None, excluded=frozenset(), *shapes_dtypes, fn):
    def build(m):
        f = m.numpy.vectorize(fn(m), signature=signature, excluded=excluded)
        return f, [rand(shape, dtype, seed) for seed, (shape, dtype) in enumerate(shapes_dtypes)]
    return build


def _sin_times(m):
    return lambda x, y: m.lax.sin(x) * y


def _total(m):
    """The sum of a 1-d array (lax's, so these cases need no other jnp function)."""
    return lambda x: m.lax.reduce_sum(x, (0,))


def _sum_over(m):
    """``func(x, axis)`` of apply_over_axes: lax's sum over ``axis``."""
    return lambda x, axis: m.lax.reduce_sum(x, (axis % x.ndim,))


def _sum_and_double(m):
    return lambda x: (m.lax.reduce_sum(x, (0,)), x * 2)


def _identity(m):
    return lambda x: x


def _matvec(m):
    return lambda a, v: m.lax.dot_general(a, v, (((1,), (0,)), ((), ())))


CASES = {
    "scalar_broadcast_squeezes": _vectorized(None, frozenset(), ((3, 1), "float32"), ((4,), "float32"), fn=_sin_times),
    "scalar_expand_unmapped": _vectorized(None, frozenset(), ((1, 3), "float32"), ((2, 1, 1), "float32"),
                                          fn=_sin_times),
    "scalar_0d": _vectorized(None, frozenset(), ((), "float32"), ((), "float32"), fn=_sin_times),
    "scalar_int": _vectorized(None, frozenset(), ((2, 3), "int32"), ((3,), "int8"), fn=_sin_times),
    "signature_two_outputs": _vectorized("(n)->(),(n)", frozenset(), ((2, 3), "float32"), fn=_sum_and_double),
    "signature_no_loop": _vectorized("(n)->(),(n)", frozenset(), ((3,), "float32"), fn=_sum_and_double),
    "signature_empty_loop": _vectorized("(n)->(),(n)", frozenset(), ((2, 0, 3), "float32"), fn=_sum_and_double),
    "signature_matvec": _vectorized("(m,n),(n)->(m)", frozenset(), ((4, 2, 3), "float32"), ((5, 1, 3), "float32"),
                                    fn=_matvec),
    "signature_matvec_broadcast": _vectorized("(m,n),(n)->(m)", frozenset(), ((2, 3), "float32"),
                                              ((4, 3), "float32"), fn=_matvec),
    "signature_new_output_dim": _vectorized("(n)->(m)", frozenset(), ((2, 3), "float32"), fn=_identity),
    "error_output_core_dims": _vectorized("(n)->()", frozenset(), ((2, 3), "float32"), fn=_identity),
    "error_not_enough_dims": _vectorized("(n)->(n)", frozenset(), ((), "float32"), fn=_identity),
    "error_argument_count": _vectorized("(n)->(n)", frozenset(), ((2, 3), "float32"), ((3,), "float32"),
                                        fn=_identity),
    "error_bad_signature": _vectorized("(n->(n)", frozenset(), ((2, 3), "float32"), fn=_identity),
    "error_signature_spaces": _vectorized("( n ) -> ( n )", frozenset(), ((2, 3), "float32"), fn=_identity),
    "error_inconsistent_output": _vectorized("(n)->(n)", frozenset(), ((2, 3), "float32"),
                                             fn=lambda m: lambda x: x[:2]),
    "excluded_with_signature": lambda m: (lambda x: m.numpy.vectorize(
        lambda k, a: a * k, excluded={0}, signature="(n)->(n)")(2.0, x), [rand((2, 3), "float32")]),
    "error_inconsistent_core": _vectorized("(m,n),(n)->(m)", frozenset(), ((2, 3), "float32"),
                                           ((4,), "float32"), fn=_matvec),
    "error_broadcast": _vectorized(None, frozenset(), ((2,), "float32"), ((4,), "float32"), fn=_sin_times),
    "excluded_position": lambda m: (lambda x: m.numpy.vectorize(lambda a, k: a * k, excluded={1})(x, 2),
                                    [rand((3,), "float32")]),
    "excluded_name": lambda m: (lambda x: m.numpy.vectorize(lambda a, k=1: a * k, excluded={"k"})(x, k=3.0),
                                [rand((2, 3), "float16")]),
    "excluded_array": lambda m: (lambda x, w: m.numpy.vectorize(
        lambda a, w: a * m.lax.reduce_sum(w, (0, 1)), excluded={1})(x, w),
                                 [rand((3,), "float32"), rand((2, 2), "float32", 1)]),
    "python_scalars": lambda m: (lambda: m.numpy.vectorize(lambda x, y: x * y)(2.0, [1, 2]), []),
    "python_scalar_alone": lambda m: (lambda: m.numpy.vectorize(lambda x: x)(2.0), []),
    "keyword_argument": lambda m: (lambda x, y: m.numpy.vectorize(lambda a, b: a - b)(x, b=y),
                                   [rand((3,), "float32"), rand((3,), "float32", 1)]),
    "under_jit": lambda m: (m.jit(m.numpy.vectorize(_sin_times(m))), [rand((2, 1), "float32"), rand((3,), "float32")]),
    "under_vmap": lambda m: (m.vmap(m.numpy.vectorize(_matvec(m), signature="(m,n),(n)->(m)")),
                             [rand((2, 4, 3), "float32"), rand((2, 3), "float32")]),
    "grad_of_vectorized": lambda m: (m.grad(lambda x: m.lax.reduce_sum(m.numpy.vectorize(m.lax.sin)(x), (0, 1))),
                                     [rand((2, 3), "float32")]),
    "frompyfunc_call": lambda m: (m.numpy.frompyfunc(lambda x, y: x * y + 1, 2, 1, identity=0),
                                  [rand((3,), "float32"), rand((2, 1), "float32", 1)]),
    "frompyfunc_weak_scalar": lambda m: (lambda a: m.numpy.frompyfunc(lambda x, y: x * y + 1, 2, 1)(a, 2.0),
                                         [rand((3,), "float32")]),
    "frompyfunc_two_outputs": lambda m: (m.numpy.frompyfunc(lambda x: (x, x * 2), 1, 2), [rand((3,), "float32")]),
    "frompyfunc_list": lambda m: (lambda a: m.numpy.frompyfunc(lambda x, y: x * y, 2, 1)([1, 2], a),
                                  [rand((), "float32")]),
    "frompyfunc_outer": lambda m: (m.numpy.frompyfunc(lambda x, y: x * y + 1, 2, 1).outer,
                                   [rand((3,), "float32"), rand((2,), "float32", 1)]),
    # reduce and accumulate of a user's ufunc run the function in a loop over the axis
    "frompyfunc_reduce": lambda m: (lambda a: m.numpy.frompyfunc(lambda x, y: x * y + 1, 2, 1).reduce(a),
                                    [rand((2, 3), "float32")]),
    "frompyfunc_reduce_keepdims": lambda m: (lambda a: m.numpy.frompyfunc(lambda x, y: x + y, 2, 1, identity=0).reduce(
        a, axis=1, keepdims=True), [rand((2, 3), "float32")]),
    "frompyfunc_reduce_where": lambda m: (lambda a: m.numpy.frompyfunc(lambda x, y: x + y, 2, 1, identity=0).reduce(
        a, where=a > 0), [rand((2, 3), "float32")]),
    "frompyfunc_accumulate": lambda m: (lambda a: m.numpy.frompyfunc(lambda x, y: x * y + 1, 2, 1).accumulate(a),
                                        [rand((2, 3), "float32")]),
    "frompyfunc_accumulate_dtype": lambda m: (lambda a: m.numpy.frompyfunc(lambda x, y: x + y, 2, 1).accumulate(
        a, axis=1, dtype="int32"), [rand((2, 3), "float32")]),
    "along_axis_sum": lambda m: (lambda a: m.numpy.apply_along_axis(_total(m), 1, a), [rand((2, 3, 4), "float32")]),
    "along_axis_first": lambda m: (lambda a: m.numpy.apply_along_axis(_total(m), 0, a),
                                   [rand((2, 3, 4), "int32")]),
    "along_axis_last_extra_args": lambda m: (lambda a: m.numpy.apply_along_axis(lambda x, s: x * s, -1, a, 2.0),
                                             [rand((2, 3), "float32")]),
    "along_axis_outer": lambda m: (lambda a: m.numpy.apply_along_axis(lambda x: x[:, None] * x[None, :], 0, a),
                                   [rand((3, 2), "float32")]),
    "along_axis_kwargs": lambda m: (lambda a: m.numpy.apply_along_axis(lambda x, c: x * c, 1, a, c=3),
                                    [rand((2, 3, 2), "float32")]),
    "along_axis_bad_axis": lambda m: (lambda a: m.numpy.apply_along_axis(_total(m), 3, a),
                                      [rand((2, 3), "float32")]),
    "along_axis_scalar": lambda m: (lambda a: m.numpy.apply_along_axis(_total(m), 0, a), [rand((), "float32")]),
    "along_axis_list": lambda m: (lambda a: m.numpy.apply_along_axis(_total(m), 0, [1.0, 2.0]),
                                  [rand((), "float32")]),
    "over_axes": lambda m: (lambda a: m.numpy.apply_over_axes(_sum_over(m), a, [0, 2]), [rand((2, 3, 4), "float32")]),
    "over_axes_negative": lambda m: (lambda a: m.numpy.apply_over_axes(_sum_over(m), a, [-1]),
                                     [rand((2, 3, 4), "float32")]),
    "over_axes_keeps_rank": lambda m: (lambda a: m.numpy.apply_over_axes(
        lambda x, ax: m.lax.cumsum(x, ax), a, (1, 0)), [rand((2, 3), "float32")]),
    "over_axes_wrong_rank": lambda m: (lambda a: m.numpy.apply_over_axes(
        lambda x, ax: m.lax.reduce_sum(x, (0, 1, 2)), a, [0]),
                                       [rand((2, 3, 4), "float32")]),
    "over_axes_int": lambda m: (lambda a: m.numpy.apply_over_axes(_sum_over(m), a, 1), [rand((2, 3), "float32")]),
}

if __name__ == "__main__":
    jnp_golden.write(CASES, "vectorize_golden.json")
