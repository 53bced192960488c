"""Print the jaxprs of ``grad``, ``vjp`` and ``linearize`` of ``lax.scan`` for a table of functions, as JSON, to
compare jaxle with JAX 0.10.2.

Usage: ``python make_scan_grad_golden.py jax [OUT.json]`` (with JAX 0.10.2's interpreter) writes the goldens; with
``jaxle_core`` it prints jaxle's text.
"""

from __future__ import annotations

import numpy as np
from make_checkpoint_golden import checkpoint_api
from make_grad_golden import custom_sin, custom_sin_mul
from make_jvp_golden import render_table, write_golden

f32 = np.float32


def sin_scan(lax, c, xs):
    """The carry and ys of a scan whose body is ``(sin(c) * x, c * x)``."""
    return lax.scan(lambda c, x: (lax.sin(c) * x, c * x), c, xs)


def carry_plus_ys_of(lax, scanned):
    """The final carry plus the sum of the ys of ``scanned``, a scan's output."""
    carry, ys = scanned
    return carry + lax.reduce_sum(ys, (0,))


def carry_plus_ys(lax, c, xs):
    return carry_plus_ys_of(lax, sin_scan(lax, c, xs))


def with_consts(lax, w, c, xs):
    """A scan reading ``w`` from outside: ``cos(w)`` is loop-invariant."""
    carry, ys = lax.scan(lambda c, x: (lax.sin(w * c) * x + lax.cos(w), w * x), c, xs)
    return carry + lax.reduce_sum(ys, (0,))


def pytree_carry(lax, a, b, xs):
    def body(carry, x):
        u, v = carry["u"], carry["v"]
        return {"u": u * v + x, "v": lax.tanh(v) * x}, (u, lax.exp(v))

    carry, (ys, zs) = lax.scan(body, {"u": a, "v": b}, xs)
    return carry["u"] + carry["v"] + lax.reduce_sum(ys * zs, (0,))


def counter(lax, c, xs):
    def body(carry, x):
        i, a = carry
        return (i + 1, a * x + lax.convert_element_type(i, np.float32)), a

    (_, a), ys = lax.scan(body, (0, c), xs)
    return a + lax.reduce_sum(ys, (0,))


def reversed_scan(lax, c, xs):
    return lax.reduce_sum(lax.scan(lambda c, x: (c * x, lax.exp(c)), c, xs, reverse=True)[1], (0,))


def no_xs(lax, c):
    return lax.reduce_sum(lax.scan(lambda c, _: (lax.sin(c), c), c, None, length=4)[1], (0,))


def pytree_xs_body(c, x):
    a, b = x
    return c * a + b[0] * b[1], {"p": c * b[1], "q": a}


def seed_func11(lax, arr, extra):
    """The scan of seed 003 (``func11``): a running dot product with a constant operand."""
    ones = lax.broadcast_in_dim(f32(1.0), arr.shape, ())

    def body(carry, aelems):
        ae1, ae2 = aelems
        return carry + ae1 * ae2 + extra, carry

    carry, ys = lax.scan(body, 0.0, (arr, ones))
    return carry + lax.reduce_sum(ys, (0,))


def while_in_map(lax, xs):
    """``xs * map(f, xs)`` (the map's output not differentiated) where ``f`` runs a while loop whose counter
    nothing reads: under grad the counter's loop is hoisted out of the map, whose body drops the counter (``_``)."""
    def f(x):
        _, a, b = lax.while_loop(lambda s: s[0] < 3, lambda s: (s[0] + 1, s[1] * 2.0, s[2] + 1.0), (0, x, x))
        return a + b

    return lax.reduce_sum(xs * lax.stop_gradient(lax.map(f, xs)), (0,))


def cases(impl, lax):
    """``(name, function, example arguments)`` triples."""
    grad, jit, vjp, linearize = impl.grad, impl.jit, impl.vjp, impl.linearize
    checkpoint = checkpoint_api(impl)[0]
    c, w, xs = f32(1.0), f32(0.5), np.arange(1, 4, dtype=f32)
    x3 = np.array([1.0, 2.0, 3.0], f32)
    jit_body = lambda c, xs: lax.reduce_sum(
        lax.scan(lambda c, x: jit(lambda a, b: (lax.sin(a) * b, a * b))(c, x), c, xs)[1], (0,))
    sin_mul, sin = custom_sin_mul(impl, lax), custom_sin(impl, lax)
    custom_vjp_body = lambda c, xs: lax.scan(lambda c, x: (sin_mul(c, x) + c, c * x), c, xs)
    remat_body = lambda c, xs: lax.scan(checkpoint(lambda c, x: (lax.sin(lax.sin(c)) * x, c)), c, xs)[0]
    return [
        # a custom_vjp call in the body: the hoisting split leaves an empty call in its place outside the loop,
        # and the transposed body keeps the backward function's unused cotangent of the xs
        ("grad_custom_vjp_body", grad(lambda c, xs: custom_vjp_body(c, xs)[0]), (c, xs)),
        ("grad_custom_vjp_body_both", grad(lambda c, xs: carry_plus_ys_of(lax, custom_vjp_body(c, xs)),
                                           argnums=(0, 1)), (c, xs)),
        ("linearize_custom_vjp_body", lambda c, xs: linearize(lambda a: custom_vjp_body(a, xs)[0], c)[1](c), (c, xs)),
        ("grad_custom_vjp_of_const", grad(lambda w, xs: lax.scan(lambda k, x: (k + sin_mul(w, x), None), w, xs)[0]),
         (w, xs)),
        # a custom_jvp call in the body is inlined by the hoisting split
        ("grad_custom_jvp_body", grad(lambda c, xs: lax.scan(lambda c, x: (sin(c) * x, None), c, xs)[0]), (c, xs)),
        ("grad_carry", grad(lambda c, xs: sin_scan(lax, c, xs)[0]), (c, xs)),
        ("grad_carry_and_ys", grad(lambda c, xs: carry_plus_ys(lax, c, xs), argnums=(0, 1)), (c, xs)),
        ("value_and_grad", impl.value_and_grad(lambda c, xs: carry_plus_ys(lax, c, xs)), (c, xs)),
        ("vjp", lambda c, xs, ct: vjp(lambda a, b: sin_scan(lax, a, b), c, xs)[1]((ct, xs)), (c, xs, c)),
        ("linearize", lambda c, xs: linearize(lambda a, b: sin_scan(lax, a, b)[0], c, xs), (c, xs)),
        ("grad_consts", grad(lambda w, c, xs: with_consts(lax, w, c, xs), argnums=(0, 1, 2)), (w, c, xs)),
        ("grad_consts_only", grad(lambda w, c, xs: with_consts(lax, w, c, xs)), (w, c, xs)),
        ("grad_pytree_carry", grad(lambda a, b, xs: pytree_carry(lax, a, b, xs), argnums=(0, 1, 2)), (c, w, xs)),
        ("grad_counter", grad(lambda c, xs: counter(lax, c, xs)), (c, xs)),
        ("grad_reverse", grad(lambda c, xs: reversed_scan(lax, c, xs), argnums=(0, 1)), (c, xs)),
        ("grad_no_xs", grad(lambda c: no_xs(lax, c)), (c,)),
        ("grad_seed_func11", grad(lambda arr, extra: seed_func11(lax, arr, extra), argnums=(0, 1)),
         (np.ones(16, f32), f32(5.0))),
        ("grad_jit_in_body", grad(jit_body), (c, xs)),
        ("grad_of_jit", grad(jit(lambda c, xs: sin_scan(lax, c, xs)[0])), (c, xs)),
        ("jit_of_grad", jit(grad(lambda c, xs: sin_scan(lax, c, xs)[0])), (c, xs)),
        ("grad_checkpointed_body", grad(remat_body), (c, xs)),
        ("grad_of_grad", grad(grad(lambda c, xs: sin_scan(lax, c, xs)[0])), (c, xs)),
        ("grad_carry_out_known", grad(lambda c, xs: lax.reduce_sum(
            lax.scan(lambda c, x: (x * 2.0, c * c), c, xs)[1], (0,))), (c, xs)),
        ("grad_invariant_ys", grad(lambda w, c, xs: lax.reduce_sum(
            lax.scan(lambda c, x: (c * x + w, lax.cos(w)), c, xs)[1], (0,)) + c, argnums=(0, 1)), (w, c, xs)),
        ("grad_some_consts", grad(lambda w, v, c, xs: lax.scan(lambda c, x: (c * lax.sin(v) + w * x, None), c, xs)[0]),
         (w, f32(0.3), c, xs)),
        ("grad_array_constant", grad(lambda c, xs: lax.reduce_sum(
            lax.scan(lambda c, x: (c * x3 * x, c * x3), c, xs)[1], (0, 1)), argnums=(0, 1)), (x3, xs)),
        ("grad_nested", grad(lambda c, xs: lax.scan(
            lambda c, x: (lax.scan(lambda d, y: (lax.sin(d) * y + c, None), c, xs)[0] * x, None), c, xs)[0],
            argnums=(0, 1)), (c, xs)),
        ("grad_map", grad(lambda xs: lax.reduce_sum(lax.map(lambda x: lax.sin(x) * x, xs), (0,))), (xs,)),
        ("grad_while_in_map", grad(lambda xs: while_in_map(lax, xs)), (xs,)),
        ("grad_xs_only", grad(lambda c, xs: lax.reduce_sum(
            lax.scan(lambda c, x: (c + lax.exp(x), c * x), c, xs)[1], (0,)), argnums=1), (c, xs)),
        ("grad_pytree_xs", grad(lambda c, a, b: lax.reduce_sum(lax.scan(pytree_xs_body, c, (a, b))[1]["p"], (0,)),
                                argnums=(0, 1, 2)), (c, xs, np.ones((3, 2), f32))),
        ("vjp_reverse_consts", lambda w, c, xs: vjp(lambda w, c, xs: lax.scan(
            lambda c, x: (lax.sin(c * w) + x * lax.exp(w), None), c, xs, reverse=True)[0], w, c, xs)[1](c),
         (w, c, xs)),
        ("grad_mixed_consts", grad(lambda w, v, c, xs: lax.scan(lambda c, x: (c * w + v * x + w * v, c), c, xs)[0],
                                   argnums=(0, 1, 2, 3)), (w, f32(0.2), c, xs)),
        # a weakly typed (Python float) carry: the transposed loop's carries are weakly typed as their cotangents
        ("grad_of_grad_weak_carry", grad(grad(lambda x: lax.scan(
            lambda k, x_: (jit(lambda a: a * a)(k * x) + x_, None), 1.0, xs)[0])), (2.0,)),
        ("grad_of_grad_weak_carry_strong_argument", grad(grad(lambda x: lax.scan(
            lambda k, x_: (jit(lambda a: a * a)(k * x) + x_, None), 1.0, xs)[0])), (w,)),
        # a body calling a jit whose transpose returns a literal zero: the known jit returns it, the loop reads it
        ("grad_of_grad_select_literal", grad(grad(lambda c, xs: lax.scan(lambda k, x: (jit(
            lambda p, a, b: lax.select_n(p, a, b))(lax.gt(k, f32(0.3)), f32(0.0), k * x), None), c, xs)[0])),
         (c, xs)),
        # the forward loop's body is pruned by its rules: the cond's unused residual placeholders go
        ("grad_cond_in_body", grad(lambda c, xs: lax.scan(lambda k, x: (lax.cond(
            x > f32(0.5), lambda: k * x, lambda: lax.sin(k)), None), c, xs)[0]), (c, xs)),
        ("grad_jit_body_returning_carry", grad(lambda c, xs: lax.reduce_sum(lax.scan(jit(
            lambda k, x: (lax.sin(k) * x, k)), c, xs)[1], (0,))), (c, xs)),
        ("grad_of_grad_jit_closing_over_array", grad(grad(lambda c, xs: lax.scan(lambda k, x: (jit(
            lambda a: lax.reduce_sum(lax.sin(a * x3), (0,)))(k) * x, None), c, xs)[0])), (c, xs)),
        ("grad_carry_swap", grad(lambda a, b, xs: lax.scan(lambda c, x: ((c[1] * x, lax.sin(c[0])), None), (a, b),
                                                          xs)[0][0], argnums=(0, 1, 2)), (c, w, xs)),
    ]


def render(module_name: str) -> dict[str, str]:
    return render_table(module_name, cases)


if __name__ == "__main__":
    write_golden(render)
