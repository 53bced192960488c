"""Print the jaxprs of ``jacfwd``, ``jacrev`` and ``hessian`` for a table of functions, as JSON, to compare jaxle
with JAX 0.10.2.

Usage: ``python make_jacobian_golden.py jax [OUT.json]`` (with JAX 0.10.2's interpreter) writes the goldens; with
``jaxle_core`` it prints jaxle's text.
"""

from __future__ import annotations

import importlib
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_jvp_golden import write_golden  # noqa: E402

f32, f16 = np.float32, np.float16


def cases(impl, lax):
    """``(name, function, example arguments)`` triples; each function returns a Jacobian or Hessian."""

    def scaled_sin(x):
        return lax.sin(x) * 2.0

    def chain(x):
        y = lax.sin(x)
        return lax.exp(y) * lax.cos(x), lax.tanh(y * x), lax.reduce_sum(y * y, (0,))

    def total_sin(x):
        return lax.reduce_sum(lax.sin(x), (0,))

    def product(x, y):
        return lax.reduce_sum(x * x, (0,)) * y

    x3 = np.linspace(0.1, 0.9, 3, dtype=f32)
    table = []
    for name, jac in (("jacfwd", impl.jacfwd), ("jacrev", impl.jacrev)):
        table += [
            (f"{name}_vector", jac(scaled_sin), (x3,)),
            (f"{name}_scalar", jac(scaled_sin), (f32(0.5),)),
            (f"{name}_weak_scalar", jac(lambda x: x * 2.0), (0.5,)),
            (f"{name}_matrix", jac(lambda x: lax.sin(x) * x), (np.ones((2, 3), f32),)),
            (f"{name}_chain", jac(chain), (x3,)),
            (f"{name}_float16_input", jac(lambda x: lax.convert_element_type(x, f32) * 2), (np.ones(2, f16),)),
            (f"{name}_holomorphic", jac(lambda x: x * x, holomorphic=True), (np.ones(2, np.complex64),)),
            (f"{name}_has_aux", jac(lambda x: (x * 2.0, x), has_aux=True), (np.ones(2, f32),)),
            (f"{name}_empty", jac(lambda x: x * 2.0), (np.ones((0,), f32),)),
        ]
    table += [
        ("hessian_vector", impl.hessian(total_sin), (x3,)),
        ("hessian_chain", impl.hessian(lambda x: lax.reduce_sum(chain(x)[0], (0,))), (x3,)),
    ]
    return table


def tree_cases(impl, lax):
    """Cases whose inputs or outputs are pytrees of several leaves."""

    def tree_out(x, y):
        return {"a": lax.sin(x), "b": lax.cos(y) * lax.reduce_sum(x, (0,))}

    args = (np.linspace(0.1, 0.9, 3, dtype=f32), np.ones((2, 2), f32))
    return [
        ("jacfwd_tree", impl.jacfwd(tree_out, argnums=(0, 1)), args),
        ("jacrev_tree", impl.jacrev(tree_out, argnums=(0, 1)), args),
        ("jacrev_mixed_weak_outputs", impl.jacrev(lambda x, y: (x * 2, y * 2.0), argnums=(0, 1)),
         (np.ones(2, f16), 1.0)),
        ("jacrev_allow_int", impl.jacrev(lambda x, k: x * k, argnums=(0, 1), allow_int=True),
         (np.ones(2, f32), np.int32(3))),
    ]


def composed_cases(impl, lax):
    """Jacobians under and around other transformations, with auxiliary outputs and integer arguments."""
    x2, m23 = np.linspace(0.1, 0.9, 2, dtype=f32), np.ones((2, 3), f32)

    def matvec(a, b):
        return lax.dot_general(a, b, (((1,), (0,)), ((), ())))

    return [
        ("hessian_has_aux", impl.hessian(lambda x: (lax.reduce_sum(x * x * x, (0,)), x), has_aux=True), (x2,)),
        ("jacrev_allow_int_float0", impl.jacrev(lambda x, k: x * lax.convert_element_type(k, f32), argnums=1,
                                                allow_int=True), (x2, np.int32(2))),
        ("jacfwd_dict_output", impl.jacfwd(lambda x: {"u": lax.sin(x), "v": x * x}), (x2,)),
        ("jacrev_matvec", impl.jacrev(matvec, argnums=(0, 1)), (m23, np.ones(3, f32))),
        ("jacfwd_matvec", impl.jacfwd(matvec, argnums=(0, 1)), (m23, np.ones(3, f32))),
        ("jacfwd_float16_sum", impl.jacfwd(lambda x: lax.reduce_sum(lax.sin(x), (0, 1))), (np.ones((2, 2), f16),)),
        ("jit_of_jacrev", impl.jit(impl.jacrev(lax.sin)), (x2,)),
        ("vmap_of_jacrev", impl.vmap(impl.jacrev(lax.sin)), (np.ones((2, 2), f32),)),
        ("grad_of_jacfwd", impl.grad(lambda x: lax.reduce_sum(impl.jacfwd(lax.sin)(x), (0, 1))), (x2,)),
        ("jacfwd_of_jacrev_weak", impl.jacfwd(impl.jacrev(lambda x: x * x * 2.0)), (0.5,)),
    ]


def render(module_name: str) -> dict[str, dict]:
    """For each case, the printed jaxpr."""
    impl = importlib.import_module(module_name)
    lax = importlib.import_module(f"{module_name}.lax")
    return {name: str(impl.make_jaxpr(fn)(*args))
            for name, fn, args in cases(impl, lax) + tree_cases(impl, lax) + composed_cases(impl, lax)}


if __name__ == "__main__":
    write_golden(render)
