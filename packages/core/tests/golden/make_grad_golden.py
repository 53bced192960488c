"""Print the jaxprs of ``grad``, ``vjp``, ``linearize`` and friends for a table of functions, as JSON, to compare
jaxle with JAX 0.10.2.

Usage: ``python make_grad_golden.py jax [OUT.json]`` (with JAX 0.10.2's interpreter) writes the goldens; with
``jaxle_core`` it prints jaxle's text.
"""

from __future__ import annotations

import numpy as np
from make_jvp_golden import BINARY, UNARY, render_table, write_golden

f32 = np.float32
NUMPY_CONSTANT = np.arange(3.0, dtype=f32) + 5
SMOOTH_UNARY = [name for name in UNARY if name not in ("sign", "floor", "is_finite")]


def cases(impl, lax):
    """``(name, function, example arguments)`` triples."""
    grad, jit = impl.grad, impl.jit
    x3 = np.arange(1, 4, dtype=f32)
    table = []
    for name in SMOOTH_UNARY:
        fn = getattr(lax, name)
        table.append((f"grad_{name}", grad(fn), (f32(0.5),)))
    for name in BINARY:
        fn = getattr(lax, name)
        table.append((f"grad_{name}", grad(fn, argnums=(0, 1)), (f32(0.5), f32(2.0))))
    table += [
        ("chain", grad(lambda x: lax.sin(x) * x + lax.exp(x)), (1.0,)),
        ("second_order", grad(grad(lambda x: lax.sin(x) * x)), (f32(1.0),)),
        ("third_order", grad(grad(grad(lambda x: x ** 3 + 2 * x ** 2))), (f32(1.0),)),
        ("jit_inside", grad(jit(lambda x: lax.sin(x) * x + lax.exp(x))), (f32(1.0),)),
        ("jit_outside", jit(grad(lambda x: lax.sin(x) * x)), (f32(1.0),)),
        ("jit_closure", grad(lambda x, y: jit(lambda a: lax.sin(a * y))(x)), (f32(1.0), f32(2.0))),
        ("jit_two_outputs", grad(lambda x: jit(lambda a: (lax.sin(a), lax.cos(a)))(x)[0]), (f32(1.0),)),
        ("jit_nested", grad(jit(lambda x: jit(lax.tanh)(x) * x)), (f32(0.3),)),
        # the transposed select_n reads none of its residuals; JAX passes them to the transposed jit all the same
        # the transpose of a sum over no axes of a scalar passes a concrete cotangent through, as JAX's does
        ("sum_of_scalar_no_axes", grad(lambda x: lax.reduce_sum(lax.sin(x), ())), (f32(0.5),)),
        ("jit_unread_residual", grad(lambda x: lax.reduce_sum(jit(lambda c, a, z: lax.select_n(c, z, a))(
            lax.gt(x, f32(0)), x, lax.broadcast_in_dim(f32(0), (3,), ())), (0,))), (x3,)),
        # a zero tangent the JVP of select_n instantiates is a residual the known jit returns, and the two calls
        # of one jitted function share their jvp, known and transposed jaxprs
        ("jit_zero_residual_shared", grad(lambda x: _two_selects(jit, lax, x)), (f32(0.5),)),
        # the zero tangents of cumprod's padding values are residuals too
        ("jit_cumprod_zero_residuals", grad(lambda x: lax.reduce_sum(jit(lax.cumprod)(x), (0,))), (x3,)),
        # an integer exponent: broadcast against the base, a zero exponent's derivative selected to 0
        ("pow_integer_exponent", grad(lambda x, y: lax.reduce_sum(lax.pow(x, y), (0,))),
         (x3, np.array([0, 1, 3], np.int32))),
        ("pow_scalar_integer_exponent", grad(lambda x: lax.reduce_sum(lax.pow(x, np.int32(2)), (0,))), (x3,)),
        ("pow_array_exponent", grad(lambda x: lax.reduce_sum(lax.pow(x, x), (0,))), (x3,)),
        ("mlp", grad(lambda w, x: lax.reduce_sum(lax.tanh(lax.dot_general(x, w, (((1,), (0,)), ((), ())))), (0, 1))),
         (np.ones((3, 4), f32), np.ones((2, 3), f32))),
        ("dot_batch", grad(lambda x, y: lax.reduce_sum(lax.dot_general(x, y, (((2,), (1,)), ((0,), (0,)))), (0, 1, 2)),
                           argnums=(0, 1)), (np.ones((2, 3, 4), f32), np.ones((2, 4, 5), f32))),
        ("broadcast", grad(lambda x: lax.reduce_sum(lax.broadcast_in_dim(x, (2, 3), (1,)) * 2.0, (0, 1))), (x3,)),
        ("broadcast_unit", grad(lambda x: lax.reduce_sum(lax.broadcast_in_dim(x, (2, 3, 4), (0, 2)), (0, 1, 2))),
         (np.ones((2, 1), f32),)),
        # a size-1 dimension kept at size 1 is summed and put back all the same
        ("broadcast_unit_kept", grad(lambda x: lax.reduce_sum(lax.broadcast_in_dim(x, (3, 1, 2), (1, 2)), (0, 1, 2))),
         (np.ones((1, 2), f32),)),
        ("scalar_times_vector", grad(lambda x, y: lax.reduce_sum(x * y, (0,)), argnums=(0, 1)), (f32(2), x3)),
        ("convert", grad(lambda x: lax.convert_element_type(x, np.float16).astype(f32) * 3), (f32(2),)),
        ("convert_to_complex", grad(lambda x: lax.real(lax.convert_element_type(x, np.complex64)) * 3), (f32(2),)),
        ("select", grad(lambda x, y: lax.reduce_sum(lax.select_n(x > 2, x, y), (0,)), argnums=(0, 1)),
         (x3, x3 * 2)),
        ("select_int32_which", grad(lambda x, y, z: lax.reduce_sum(lax.select_n(
            lax.convert_element_type(x > 2, np.int32) + lax.convert_element_type(x > 4, np.int32), x, y, z), (0,)),
            argnums=(0, 1, 2)), (x3 * 2, x3, x3 * 3)),
        ("reshape_transpose", grad(lambda x: lax.reduce_sum(lax.transpose(lax.reshape(x, (2, 3)), (1, 0)), (0, 1))),
         (np.ones(6, f32),)),
        ("unused_branch", grad(lambda x: (lax.sin(x) * 2, lax.cos(x) * 3)[0]), (f32(1),)),
        ("has_aux", grad(lambda x: (x * x, {"a": lax.sin(x)}), has_aux=True), (f32(1),)),
        ("value_and_grad_aux", impl.value_and_grad(lambda x: (lax.exp(x), x), has_aux=True), (1.0,)),
        ("squeeze", grad(lambda x: lax.reduce_sum(lax.squeeze(x, (0,)) ** 2, (0,))), (np.ones((1, 3), f32),)),
        ("identity", grad(lambda x: x), (f32(1),)),
        ("constant_output", grad(lambda x: x * 0 + 1.0), (f32(1),)),
        ("stop_gradient", grad(lambda x: x * lax.stop_gradient(x)), (1.0,)),
        ("integer_argument", grad(lambda x, i: x * i, allow_int=True, argnums=(0, 1)), (1.0, 2)),
        ("complex_holomorphic", grad(lambda z: z * z + lax.sin(z), holomorphic=True), (np.complex64(1 + 1j),)),
        ("complex_input_real_output", grad(lambda z: lax.real(z * lax.conj(z))), (np.complex64(1 + 2j),)),
        ("vjp_function", lambda x: impl.vjp(lambda a: lax.sin(a) * a, x)[1](x), (1.0,)),
        ("vjp_two_outputs", lambda x: impl.vjp(lambda a: (lax.sin(a), lax.cos(a)), x)[1]((x, x)), (f32(1.0),)),
        # the pullback holds the primal inputs it reads first (once per input, in input order), then the other
        # residuals in the order the linear jaxpr reads them
        ("vjp_pullback_residuals", lambda x, y: impl.vjp(lambda a, b: lax.sin(a) * lax.cos(b) + a * b, x, y)[1],
         (f32(1.0), f32(2.0))),
        ("vjp_pullback_same_input_twice", lambda x: impl.vjp(lambda a, b: lax.sin(a) * b, x, x)[1], (f32(1.0),)),
        ("vjp_pullback_pytree_input",
         lambda x, y: impl.vjp(lambda d: lax.sin(d["p"]) * d["q"], {"q": x, "p": y})[1], (f32(1.0), f32(2.0))),
        ("vjp_pullback_custom_vjp", lambda x, y: impl.vjp(lambda a, b: lax.sin(custom_sin_mul(impl, lax)(b, a)) * b,
                                                         x, y)[1], (f32(1.0), f32(2.0))),
        ("vjp_pullback_jit", lambda x, y: impl.vjp(lambda a, b: jit(lambda a, b: lax.sin(a) * b)(a, b) * a, x, y)[1],
         (f32(1.0), f32(2.0))),
        # a constant the derivative reads (a NumPy array or an array closed over) is a residual too, in reading order
        ("vjp_pullback_numpy_constant", lambda x: impl.vjp(lambda a: lax.sin(a) * NUMPY_CONSTANT + a * a, x)[1],
         (np.arange(1.0, 4.0, dtype=f32),)),
        ("vjp_pullback_constant_read_first",
         lambda x: impl.vjp(lambda a: lax.mul(lax.mul(a, NUMPY_CONSTANT), lax.cos(a)), x)[1],
         (np.arange(1.0, 4.0, dtype=f32),)),
        # a jit's tangent output that does not depend on the input tangents is zero under linearization
        ("jit_known_tangent_output",
         grad(lambda x: lax.reduce_sum(jit(custom_sign_and_sin(impl, lax))(x)[1], (0,))), (x3,)),
        # a jit's known output that is a literal stays an output of the known jit
        ("jit_literal_output", grad(lambda x: jit(lambda a: (lax.sin(a), f32(0.0)))(x)[0] * jit(
            lambda a: (lax.sin(a), f32(2.0)))(x)[1]), (f32(0.5),)),
        # a jit returning one of its inputs: the known jit does not return it (the input is used), as JAX forwards it
        ("jit_returns_its_input", grad(lambda x: lax.mul(*jit(lambda a: (lax.sin(a) * 2.0, a))(x))), (f32(0.5),)),
        # a custom_jvp call one of whose outputs nothing reads is pruned to the others (function and rule)
        ("jit_custom_jvp_one_output_read",
         grad(lambda x: lax.reduce_sum(jit(custom_sign_and_sin(impl, lax))(x)[0] * x, (0,))), (x3,)),
        ("custom_jvp_one_output_read_in_jit",
         grad(jit(lambda x: lax.reduce_sum(custom_sign_and_sin(impl, lax)(x)[1], (0,)))), (x3,)),
        ("linearize_jit_known_tangent_output",
         lambda x: impl.linearize(jit(custom_sign_and_sin(impl, lax)), x)[1](x), (x3,)),
        ("linearize", lambda x: impl.linearize(lambda a: lax.sin(a) * a + lax.exp(a), x), (f32(1.0),)),
        ("linearize_apply", lambda x: impl.linearize(lambda a: lax.sin(a) * a, x)[1](x), (f32(1.0),)),
        ("linear_transpose", lambda c: impl.linear_transpose(lambda a: a * 2.0 + lax.neg(a), f32(1))(c),
         (f32(1.0),)),
        # linear_transpose records a broadcast to the operand's own shape (jit forwards it) and sums over no axes
        ("linear_transpose_identity_broadcast",
         lambda c: impl.linear_transpose(lambda a: lax.broadcast_in_dim(a, (3,), (0,)), x3)(c), (x3,)),
        # cumulative maxima and minima (ties included), powers of a weak exponent and base, complex magnitudes
        ("cummax_ties", grad(lambda x: lax.reduce_sum(lax.cummax(x), (0,))), (np.array([1, 3, 3, 5], f32),)),
        ("cummin_reversed", grad(lambda x: lax.reduce_sum(lax.cummin(x, reverse=True), (0,))), (x3,)),
        # cumlogsumexp: the associative scan of logaddexp, a custom_jvp function, whose jvp rule runs when linearized
        ("cumlogsumexp", grad(lambda x: lax.reduce_sum(lax.cumlogsumexp(x), (0,))), (x3,)),
        ("cumlogsumexp_reverse_rows", grad(lambda x: lax.reduce_sum(lax.cumlogsumexp(x, axis=1, reverse=True),
                                                                    (0, 1))), (np.ones((2, 5), f32),)),
        ("jit_cumlogsumexp", grad(lambda x: lax.reduce_sum(jit(lax.cumlogsumexp)(x), (0,))), (x3,)),
        ("pow_weak_exponent", grad(lambda x: lax.reduce_sum(lax.pow(x, 2.0), (0,))), (x3,)),
        ("pow_weak_base", grad(lambda x: lax.reduce_sum(lax.pow(2.0, x), (0,))), (x3,)),
        ("abs_complex_real_input", grad(lambda x: lax.reduce_sum(lax.abs(lax.complex(x, x * 2)), (0,))), (x3,)),
    ]
    return table


def custom_sin_mul(impl, lax):
    """``sin(x) * y`` with a hand-written vjp whose residuals mix a computed value and both inputs."""

    @impl.custom_vjp
    def sin_mul(x, y):
        return lax.sin(x) * y

    sin_mul.defvjp(lambda x, y: (sin_mul(x, y), (lax.cos(x), y, x)),
                   lambda res, g: (res[0] * g * res[1], g * lax.sin(res[2])))
    return sin_mul


def custom_sign_and_sin(impl, lax):
    """``(sign, sin)`` whose jvp gives the sign a zero tangent made from the primal (not from the tangents)."""

    @impl.custom_jvp
    def sign_and_sin(x):
        return lax.sign(x), lax.sin(x)

    sign_and_sin.defjvp(lambda primals, tangents: (sign_and_sin(primals[0]), (
        lax.full_like(primals[0], 0.0), lax.cos(primals[0]) * tangents[0])))
    return sign_and_sin


def custom_sin(impl, lax):
    """``sin`` with a hand-written jvp."""

    @impl.custom_jvp
    def sin(x):
        return lax.sin(x)

    sin.defjvp(lambda primals, tangents: (sin(primals[0]), lax.cos(primals[0]) * tangents[0]))
    return sin


def _two_selects(jit, lax, x):
    pick = jit(lambda c, a: lax.select_n(c, a, lax.convert_element_type(f32(2), np.float32)))
    return pick(lax.gt(x, f32(0)), x) + pick(lax.lt(x, f32(1)), lax.sin(x))


def render(module_name: str) -> dict[str, str]:
    return render_table(module_name, cases)


if __name__ == "__main__":
    write_golden(render)
