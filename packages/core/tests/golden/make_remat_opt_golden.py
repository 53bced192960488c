"""Print the jaxprs of a ``custom_vjp`` defined with ``optimize_remat=True`` (its forward function staged as one
``remat_opt`` equation, then ``custom_lin``) under ``make_jaxpr``, ``grad``, ``linearize``, ``jit`` and ``vmap``,
as JSON, to compare jaxle with JAX 0.10.2.

Usage: ``python make_remat_opt_golden.py jax [OUT.json]`` (with JAX 0.10.2's interpreter) writes the goldens; with
``jaxle_core`` it prints jaxle's text.
"""

from __future__ import annotations

import functools
import importlib

import numpy as np
from make_jvp_golden import render_table, write_golden

f32 = np.float32


def examples(cd, lax):
    """``f(x, y) = sin(x) * y`` saving two computed residuals and the input ``y``; a function of a pytree with a
    static residual and a ``nondiff_argnums`` argument."""

    @cd.custom_vjp
    def f(x, y):
        return lax.sin(x) * y

    def f_fwd(x, y):
        return f(x, y), (lax.cos(x), lax.sin(x), y)

    def f_bwd(res, g):
        cos_x, sin_x, y = res
        return (cos_x * g * y, sin_x * g)

    f.defvjp(f_fwd, f_bwd, optimize_remat=True)

    @functools.partial(cd.custom_vjp, nondiff_argnums=(1,))
    def scaled_exp(pair, power):
        return lax.exp(pair["a"]) * pair["b"] ** power

    def scaled_exp_fwd(pair, power):
        e = lax.exp(pair["a"])
        return e * pair["b"] ** power, (e, pair["b"], None)

    def scaled_exp_bwd(power, res, g):
        e, b, _ = res
        return ({"a": g * e * b ** power, "b": g * e * power * b ** (power - 1)},)

    scaled_exp.defvjp(scaled_exp_fwd, scaled_exp_bwd, optimize_remat=True)
    return f, scaled_exp


def cases(impl, lax):
    """``(name, function, example arguments)`` triples."""
    cd = importlib.import_module(f"{impl.__name__}.custom_derivatives")
    f, scaled_exp = examples(cd, lax)
    grad, jit, linearize, vmap = impl.grad, impl.jit, impl.linearize, impl.vmap
    x, y = f32(0.5), f32(2.0)
    xs, ys = np.linspace(0.1, 0.3, 3, dtype=f32), np.linspace(1.0, 2.0, 3, dtype=f32)
    pair = {"a": f32(0.3), "b": f32(1.5)}
    return [
        ("fun", f, (x, y)),
        ("grad", grad(f), (x, y)),
        ("grad_both", grad(f, (0, 1)), (x, y)),
        ("linearize", lambda a, b: linearize(f, a, b)[1](a, b), (x, y)),
        ("linearize_primal", lambda a, b: linearize(f, a, b)[0], (x, y)),
        ("jit_grad", jit(grad(f)), (x, y)),
        ("vmap_grad", vmap(grad(f)), (xs, ys)),
        ("grad_of_sum", grad(lambda a, b: f(a, b) + f(b, a)), (x, y)),
        ("pytree_nondiff_grad", grad(lambda p: scaled_exp(p, 3.0)), (pair,)),
        # the primal pass of a checkpoint reads no residual: a closed_call of the primal function
        ("checkpoint_grad", grad(impl.checkpoint(lambda a, b: f(a, b) * a)), (x, y)),
        ("checkpoint_grad_both", grad(impl.checkpoint(lambda a, b: f(a, b) * a), (0, 1)), (x, y)),
        ("checkpoint_grad_pytree", grad(impl.checkpoint(lambda p: scaled_exp(p, 3.0))), (pair,)),
    ]


def render(module_name: str) -> dict[str, str]:
    return render_table(module_name, cases)


if __name__ == "__main__":
    write_golden(render)
