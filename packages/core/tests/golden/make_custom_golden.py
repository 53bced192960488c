"""Print the jaxprs of functions with custom derivatives (``custom_jvp``, ``custom_vjp``) under ``make_jaxpr``,
``jvp``, ``grad``, ``linearize`` and ``jit``, as JSON, to compare jaxle with JAX 0.10.2.

Usage: ``python make_custom_golden.py jax [OUT.json]`` (with JAX 0.10.2's interpreter) writes the goldens; with
``jaxle_core`` it prints jaxle's text.
"""

from __future__ import annotations

import functools
import importlib

import numpy as np
from make_jvp_golden import render_table, write_golden

f32 = np.float32


def examples(cd, lax):
    """The custom functions of the cases: ``custom_derivatives`` module ``cd`` and ``lax`` of one implementation."""

    @cd.custom_jvp
    def f(x, y):
        return lax.sin(x) * y

    @f.defjvp
    def f_jvp(primals, tangents):
        x, y = primals
        x_dot, y_dot = tangents
        return f(x, y), lax.cos(x) * x_dot * y + lax.sin(x) * y_dot

    @cd.custom_jvp
    def h(x, y):
        return lax.sin(x) * y

    h.defjvps(lambda x_dot, primal_out, x, y: lax.cos(x) * x_dot * y,
              lambda y_dot, primal_out, x, y: lax.sin(x) * y_dot)

    @cd.custom_vjp
    def g(x, y):
        return lax.sin(x) * y

    def g_fwd(x, y):
        return g(x, y), (lax.cos(x), lax.sin(x), y)

    def g_bwd(res, ct):
        cos_x, sin_x, y = res
        return (cos_x * ct * y, sin_x * ct)

    g.defvjp(g_fwd, g_bwd)

    @functools.partial(cd.custom_vjp, nondiff_argnums=(1,))
    def clip_gradient(x, bound):
        return x

    def clip_fwd(x, bound):
        return x, None

    def clip_bwd(bound, _, ct):
        return (lax.max(lax.min(ct, bound), -bound),)

    clip_gradient.defvjp(clip_fwd, clip_bwd)

    @functools.partial(cd.custom_jvp, nondiff_argnums=(0,))
    def apply(fn, x):
        return fn(x)

    @apply.defjvp
    def apply_jvp(fn, primals, tangents):
        (x,), (t,) = primals, tangents
        return apply(fn, x), 2.0 * t

    return f, h, g, clip_gradient, apply


def closure_examples(cd, lax):
    """Custom functions closing over an array, over a traced value, and taking an integer argument."""
    w = np.array([1.0, 2.0, 3.0], f32)

    @cd.custom_jvp
    def scaled(x):
        return lax.sin(x) * w

    scaled.defjvp(lambda p, t: (scaled(p[0]), t[0] * w))

    def closing(x, y):
        @cd.custom_jvp
        def times_y(a):
            return a * y

        times_y.defjvp(lambda p, t: (times_y(p[0]), t[0] * 2.0))
        return times_y(x)

    @cd.custom_vjp
    def int_scale(x, n):
        return x * lax.convert_element_type(n, np.float32)

    int_scale.defvjp(lambda x, n: (int_scale(x, n), n),
                     lambda n, ct: (ct * lax.convert_element_type(n, np.float32), None))
    return scaled, closing, int_scale


def gradient_examples(cd, lax):
    """``custom_gradient`` functions of one argument (the rule returns a bare cotangent) and of two."""

    @cd.custom_gradient
    def square(x):
        return x * x, lambda g: g * x

    @cd.custom_gradient
    def product(x, y):
        return x * y, lambda g: (g * y, lax.sin(x) * g)

    return square, product


def cases(impl, lax):
    """``(name, function, example arguments)`` triples."""
    module = impl.__name__
    cd = importlib.import_module(f"{module}.custom_derivatives")
    f, h, g, clip_gradient, apply = examples(cd, lax)
    scaled, closing, int_scale = closure_examples(cd, lax)
    square, product = gradient_examples(cd, lax)
    grad, jvp, jit, linearize = impl.grad, impl.jvp, impl.jit, impl.linearize
    jitted_rules = jitted_rule_example(cd, jit)
    x, y = f32(1.0), f32(2.0)
    return [
        ("jvp_fun", f, (x, y)),
        ("jvp_fun_grad", grad(f), (x, y)),
        ("jvp_fun_grad_both", grad(f, (0, 1)), (x, y)),
        ("jvp_fun_jvp", lambda a, b: jvp(f, (a, b), (a, b)), (x, y)),
        ("jvp_fun_linearize", lambda a, b: linearize(f, a, b)[1](a, b), (x, y)),
        ("jvp_fun_jit_grad", jit(grad(f)), (x, y)),
        ("jvp_fun_grad_grad", grad(grad(f)), (x, y)),
        ("defjvps", h, (x, y)),
        ("defjvps_grad", grad(h), (x, y)),
        ("nondiff_jvp", lambda a: apply(lax.sin, a), (x,)),
        ("nondiff_jvp_grad", grad(lambda a: apply(lax.sin, a)), (x,)),
        ("vjp_fun", g, (x, y)),
        ("vjp_fun_grad", grad(g), (x, y)),
        ("vjp_fun_grad_both", grad(g, (0, 1)), (x, y)),
        ("vjp_fun_linearize", lambda a, b: linearize(lambda c: g(c, b), a)[1](a), (x, y)),
        ("vjp_fun_jvp_staged", lambda a, b: jvp(g, (a, b), (a, b)), (x, y)),
        ("vjp_fun_jit_grad", jit(grad(g)), (x, y)),
        ("vjp_fun_grad_grad", grad(grad(g)), (x, y)),
        ("vjp_fun_jvp_of_grad", lambda a, b: jvp(grad(g), (a, b), (a, b)), (x, y)),
        ("jvp_fun_jvp_of_jvp", lambda a, b: jvp(lambda c: jvp(f, (c, b), (c, b))[1], (a,), (a,)), (x, y)),
        ("closure_convert", lambda a, b: cd.closure_convert(lambda c: c * b + a, a)[1], (x, y)),
        ("closure_converted_call", lambda a, b: _call_converted(cd, a, b), (x, y)),
        ("closure_array", scaled, (np.ones(3, f32),)),
        ("closure_array_grad", grad(lambda a: lax.reduce_sum(scaled(a), (0,))), (np.ones(3, f32),)),
        ("closure_tracer", closing, (x, y)),
        ("closure_tracer_grad", grad(closing), (x, y)),
        ("integer_argument_grad", grad(int_scale), (x, np.int32(3))),
        ("clip_gradient", lambda a: clip_gradient(a, 0.5), (x,)),
        ("clip_gradient_grad", grad(lambda a: clip_gradient(lax.sin(a), 0.5) * 3.0), (x,)),
        ("custom_gradient", square, (x,)),
        ("custom_gradient_grad", grad(square), (x,)),
        ("custom_gradient_jit_grad", jit(grad(lambda a: square(lax.sin(a)))), (x,)),
        ("custom_gradient_two_arguments", product, (x, y)),
        ("custom_gradient_two_arguments_grad", grad(product, (0, 1)), (x, y)),
        ("jitted_in_rules_grad", grad(lambda a: jitted_rules(a) * a), (x,)),
    ]


def jitted_rule_example(cd, jit):
    """A custom_vjp whose function and rules call one jitted function: the backward rule's calls share their
    inner jaxpr with each other, not with the forward ones."""
    twice = jit(lambda v: v * 2.0)

    @cd.custom_vjp
    def doubled(x):
        return twice(x)

    def doubled_fwd(x):
        return twice(x), x

    def doubled_bwd(x, ct):
        return (twice(ct) * twice(x),)

    doubled.defvjp(doubled_fwd, doubled_bwd)
    return doubled


def _call_converted(cd, a, b):
    converted, consts = cd.closure_convert(lambda c: c * b + a, a)
    return converted(a, *consts)


def render(module_name: str) -> dict[str, str]:
    return render_table(module_name, cases)


if __name__ == "__main__":
    write_golden(render)
