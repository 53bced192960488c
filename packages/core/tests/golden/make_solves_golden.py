"""Print the jaxprs of ``lax.custom_linear_solve`` and ``lax.custom_root`` (and of their jvp, grad, vmap and jit)
as JSON, to compare jaxle with JAX 0.10.2.

Usage: ``python make_solves_golden.py jax [OUT.json]`` (with JAX 0.10.2's interpreter) writes the goldens; with
``jaxle_core`` it prints jaxle's text.
"""

from __future__ import annotations

import importlib

import numpy as np
from make_jvp_golden import render_table, write_golden

f32 = np.float32
MAT = np.array([[2., 1.], [1., 3.]], f32)
NONSYMMETRIC = np.array([[3., 1.], [0.5, 2.]], f32)
VEC = np.array([1., 2.], f32)


def richardson(lax, steps=3):
    """``solve(matvec, b)`` by a few Richardson iterations (only the jaxprs matter here)."""
    return lambda matvec, b: lax.fori_loop(0, steps, lambda i, x: x + 0.25 * (b - matvec(x)), b * 0.0)


def linear_solves(lax):
    """Linear solves of ``b`` (and of the matrix, where it is an argument)."""
    solve = richardson(lax)
    inverse = np.linalg.inv(MAT).astype(f32)
    by_inverse = lambda matvec, b: lax.dot(inverse, b)  # noqa: E731
    symmetric = lambda b: lax.custom_linear_solve(lambda x: lax.dot(MAT, x), b, by_inverse,  # noqa: E731
                                                  symmetric=True)
    with_matrix = lambda a, b: lax.custom_linear_solve(lambda x: lax.dot(a, x), b, solve,  # noqa: E731
                                                       symmetric=True)
    transposed = lambda b: lax.custom_linear_solve(lambda x: lax.dot(NONSYMMETRIC, x), b, solve,  # noqa: E731
                                                   transpose_solve=solve)
    return symmetric, with_matrix, transposed


def cases(m, lax):
    """``(name, function, example arguments)`` triples."""
    vmap = m.vmap if hasattr(m, "vmap") else importlib.import_module("jaxle_core.batching").vmap
    symmetric, with_matrix, transposed = linear_solves(lax)
    solve = richardson(lax)
    scalar = lambda b: lax.custom_linear_solve(lambda x: x * 2.0, b, lambda mv, y: y / 2.0)  # noqa: E731
    pytree = lambda u, v: lax.custom_linear_solve(  # noqa: E731
        lambda x: {"u": 2.0 * x["u"], "v": 3.0 * x["v"]}, {"u": u, "v": v},
        lambda mv, y: {"u": y["u"] / 2.0, "v": y["v"] / 3.0}, symmetric=True)
    with_aux = lambda b: lax.custom_linear_solve(  # noqa: E731
        lambda x: lax.dot(MAT, x), b, lambda mv, y: (solve(mv, y), lax.dot(y, y)), has_aux=True)
    norm = lambda f: (lambda *args: lax.dot(f(*args), VEC))  # noqa: E731

    newton = lambda g, x: lax.while_loop(lambda x: lax.abs(g(x)) > 2.0 ** -10, lambda x: x - g(x) / (2.0 * x), x)  # noqa: E731
    sqrt = lambda a: lax.custom_root(lambda x: x * x - a, 1.0, newton, lambda g, y: y / g(1.0))  # noqa: E731
    sqrt_aux = lambda a: lax.custom_root(lambda x: x * x - a, a, lambda g, x: (newton(g, x), x),  # noqa: E731
                                         lambda g, y: y / g(1.0), has_aux=True)
    return [
        ("linear_solve_scalar", scalar, (f32(1.0),)),
        ("linear_solve_symmetric", symmetric, (VEC,)),
        ("linear_solve_matrix_argument", with_matrix, (MAT, VEC)),
        ("linear_solve_transpose_solve", transposed, (VEC,)),
        ("linear_solve_pytree", pytree, (f32(1.0), VEC)),
        ("linear_solve_has_aux", with_aux, (VEC,)),
        ("jvp_linear_solve", lambda b: m.jvp(symmetric, (b,), (b,)), (VEC,)),
        ("jvp_linear_solve_matrix", lambda a, b: m.jvp(with_matrix, (a, b), (a, b)), (MAT, VEC)),
        ("jvp_linear_solve_only_matrix", lambda a, b: m.jvp(lambda a: with_matrix(a, b), (a,), (a,)), (MAT, VEC)),
        ("jvp_linear_solve_has_aux", lambda b: m.jvp(with_aux, (b,), (b,)), (VEC,)),
        ("grad_linear_solve", m.grad(norm(symmetric)), (VEC,)),
        ("grad_linear_solve_matrix", m.grad(norm(with_matrix), argnums=(0, 1)), (MAT, VEC)),
        ("grad_linear_solve_transpose_solve", m.grad(norm(transposed)), (VEC,)),
        ("grad_linear_solve_pytree", m.grad(lambda u, v: pytree(u, v)["u"], argnums=(0, 1)), (f32(1.0), VEC)),
        ("vmap_linear_solve", vmap(symmetric), (np.ones((3, 2), f32),)),
        ("vmap_linear_solve_matrix", vmap(with_matrix, (0, None)), (np.stack([MAT, 2 * MAT]), VEC)),
        ("vmap_linear_solve_transpose_solve", vmap(transposed), (np.ones((3, 2), f32),)),
        ("vmap_linear_solve_has_aux", vmap(with_aux), (np.ones((3, 2), f32),)),
        ("jit_linear_solve", m.jit(symmetric), (VEC,)),
        ("vmap_grad_linear_solve", vmap(m.grad(norm(symmetric))), (np.ones((3, 2), f32),)),
        ("custom_root", sqrt, (f32(2.0),)),
        ("custom_root_has_aux", sqrt_aux, (f32(2.0),)),
        ("jvp_custom_root", lambda a: m.jvp(sqrt, (a,), (a,)), (f32(2.0),)),
        ("grad_custom_root", m.grad(sqrt), (f32(2.0),)),
        ("jit_custom_root", m.jit(sqrt), (f32(2.0),)),
        ("vmap_custom_root", vmap(sqrt), (np.array([2.0, 9.0], f32),)),
        ("grad_jit_custom_root", m.grad(m.jit(sqrt)), (f32(2.0),)),
        ("linearize_linear_solve", lambda a, b: m.linearize(with_matrix, a, b)[1](a, b), (MAT, VEC)),
        ("grad_jit_linear_solve", m.grad(m.jit(lambda a, b: lax.dot(with_matrix(a, b), b))), (MAT, VEC)),
        ("jvp_vmap_linear_solve", lambda b: m.jvp(vmap(transposed), (b,), (b,)), (np.ones((3, 2), f32),)),
    ]


def render(module_name: str) -> dict[str, str]:
    return render_table(module_name, cases)


if __name__ == "__main__":
    write_golden(render)
