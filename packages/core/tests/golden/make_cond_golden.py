"""Print the jaxprs of ``lax.cond`` and ``lax.switch`` (and of their jvp, linearize, grad, vjp, vmap and jit) as
JSON, to compare jaxle with JAX 0.10.2.

Usage: ``python make_cond_golden.py jax [OUT.json]`` (with JAX 0.10.2's interpreter) writes the goldens; with
``jaxle_core`` it prints jaxle's text.
"""

from __future__ import annotations

import importlib

import numpy as np
from make_jvp_golden import render_table, write_golden

f32 = np.float32
VEC = np.arange(3, dtype=f32)
MAT = np.ones((2, 3), f32)


def _sin_or_cos(lax):
    return lambda x: lax.cond(x > 0, lambda y: lax.sin(y), lambda y: lax.cos(y) * 2.0, x)


def _square_or_id(lax):
    return lambda x: lax.cond(lax.reduce_sum(x, (0,)) > 0, lambda y: y * y, lambda y: y, x)


def _closure(lax):
    c = np.arange(3, dtype=f32)
    return lambda p, x, z: lax.cond(p, lambda y, w: (y + c * z, w), lambda y, w: (y - z, w + 1), x, 3)


def _one_of_three(lax):
    """Seed 003's switch example."""
    return lambda index, arg: lax.switch(index, [lambda x: x + 1.0, lambda x: x - 2.0, lambda x: x + 3.0], arg)


def _func7(lax):
    """Seed 003's cond example."""
    return lambda arg: lax.cond(arg >= 0.0, lambda xtrue: xtrue + 3.0, lambda xfalse: xfalse - 3.0, arg)


def _func8(lax):
    """Seed 003's cond with a pytree operand and a constant in one branch."""
    one = np.array([1], np.int32)
    return lambda arg1, arg2: lax.cond(arg1 >= 0.0, lambda xtrue: xtrue[0],
                                       lambda xfalse: lax.convert_element_type(one, np.float32) + xfalse[1], arg2)


def cases(m, lax):
    """``(name, function, example arguments)`` triples."""
    vmap = m.vmap if hasattr(m, "vmap") else importlib.import_module("jaxle_core.batching").vmap
    sin_or_cos, square_or_id, closure = _sin_or_cos(lax), _square_or_id(lax), _closure(lax)
    three = lambda i, x: lax.switch(i, [lambda y: y + 1, lambda y: y * 2.0, lambda y: -y], x)  # noqa: E731
    total = lambda f: (lambda x: lax.reduce_sum(f(x), (0,)))  # noqa: E731
    return [
        ("cond", sin_or_cos, (f32(1.0),)),
        ("cond_python_true", lambda x: lax.cond(True, lambda y: y + 1, lambda y: y - 1, x), (f32(1.0),)),
        ("cond_int_pred", lambda p, x: lax.cond(p, lambda y: y, lambda y: 1.0, x), (np.int32(3), f32(1.0))),
        ("cond_float_pred", lambda p, x: lax.cond(p, lambda y: y, lambda y: 1.0, x), (f32(1.5), f32(1.0))),
        ("cond_weak_join", lambda p, x: lax.cond(p, lambda y: y, lambda y: 1.0, x), (True, f32(1.0))),
        ("cond_no_operands", lambda p: lax.cond(p, lambda: 2.0, lambda: 1.0), (True,)),
        ("cond_legacy_operand", lambda x: lax.cond(x > 0, lambda y: -y, lambda y: y, operand=x), (f32(1.0),)),
        ("cond_closure_pytree", closure, (True, VEC, f32(2.0))),
        ("switch", three, (np.int32(1), f32(1.0))),
        ("switch_uint8_index", lambda i, x: lax.switch(i, [lambda y: y, lambda y: 1.0], x), (np.uint8(3), f32(1.0))),
        ("switch_python_index", lambda x: lax.switch(5, [lambda y: y, lambda y: 1.0], x), (f32(1.0),)),
        ("switch_one_branch", lambda i, x: lax.switch(i, [lambda y: y + 1.0], x), (np.int32(1), f32(1.0))),
        ("seed_one_of_three", _one_of_three(lax), (1, 5.0)),
        ("seed_func7", _func7(lax), (5.0,)),
        ("seed_func8", _func8(lax), (5.0, (np.zeros(1, f32), 2.0))),
        ("jit_cond", m.jit(sin_or_cos), (f32(1.0),)),
        ("cond_of_jit", lambda x: lax.cond(x > 0, m.jit(lambda y: y * 2.0), lambda y: y, x), (f32(1.0),)),
        ("jvp", lambda x: m.jvp(sin_or_cos, (x,), (f32(1.0),)), (f32(1.0),)),
        ("jvp_zero_tangent_branch", lambda p, x: m.jvp(lambda y: lax.cond(p, lambda z: z * 2, lambda z: 3.0, y),
                                                       (x,), (x,)), (True, f32(1.0))),
        ("grad", m.grad(sin_or_cos), (f32(1.0),)),
        ("grad_vector", m.grad(total(square_or_id)), (VEC,)),
        ("grad_constant_branch", lambda p, x: m.grad(lambda y: lax.cond(p, lambda z: z * 2, lambda z: 3.0, y))(x),
         (True, f32(1.0))),
        ("linearize", lambda x: m.linearize(sin_or_cos, x)[1](x), (f32(1.0),)),
        ("vjp", lambda p, x: m.vjp(lambda y: lax.cond(p, lambda z: 2 * z, lambda z: lax.sin(z), y), x)[1](x),
         (True, f32(1.0))),
        ("linear_transpose", m.linear_transpose(lambda x: lax.cond(True, lambda y: 2 * y, lambda y: -y, x),
                                                f32(1.0)), (f32(1.0),)),
        ("grad_of_grad", m.grad(m.grad(sin_or_cos)), (f32(1.0),)),
        ("jit_of_grad", m.jit(m.grad(sin_or_cos)), (f32(1.0),)),
        ("grad_known_in_one_branch", lambda p, x, z: m.grad(lambda a: lax.cond(
            p, lambda u, w: u * w, lambda u, w: lax.sin(w), a, z))(x), (True, f32(1.5), f32(1.5))),
        ("linearize_known_in_one_branch", lambda p, x, z: m.linearize(lambda a: lax.cond(
            p, lambda u, w: u * w, lambda u, w: lax.sin(w), a, z), x)[1](x), (True, f32(1.5), f32(1.5))),
        ("grad_three_outputs", m.grad(lambda p, x: sum(lax.cond(
            p, lambda a: (a * 2.0, lax.sin(a), f32(3.0)), lambda a: (a * a, lax.cos(a), a), x)), argnums=1),
         (True, f32(1.5))),
        # the known branch is pruned first: its fori_loop's scan loses the counter nothing returns
        ("grad_fori_loop_branch", m.grad(lambda x: lax.reduce_sum(lax.cond(
            lax.reduce_sum(x, (0,)) > 1, lambda a: lax.fori_loop(0, 2, lambda i, c: c * a, a), lambda a: a, x),
            (0,))), (VEC,)),
        ("grad_switch", m.grad(lambda x: three(np.int32(2), x)), (f32(1.0),)),
        ("vmap_batched_pred", vmap(sin_or_cos), (VEC,)),
        ("vmap_batched_pred_closure", vmap(closure, (0, 0, None)), (np.array([True, False]), MAT, f32(2.0))),
        ("vmap_batched_operand", vmap(closure, (None, 0, 0)), (True, MAT, np.ones(2, f32))),
        ("vmap_operand_axis_1", vmap(closure, (None, 1, None)), (True, MAT.T.copy(), f32(2.0))),
        ("vmap_unbatched_pred", vmap(lambda p, x: lax.cond(p, lambda y: y + 1.0, lambda y: y * 2.0, x), (None, 0)),
         (True, VEC)),
        ("vmap_switch_batched_index", vmap(three), (np.arange(3, dtype=np.int32), VEC)),
        ("vmap_of_grad", vmap(m.grad(sin_or_cos)), (VEC,)),
        ("grad_of_vmap_unbatched_pred", m.grad(lambda x: lax.reduce_sum(
            vmap(lambda y: lax.cond(x[0] > 0, lambda z: lax.sin(z), lambda z: z, y))(x), (0,))), (VEC,)),
    ]


def render(module_name: str) -> dict[str, str]:
    return render_table(module_name, cases)


if __name__ == "__main__":
    write_golden(render)
