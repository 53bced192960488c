"""Print the jaxprs of ``jacfwd``, ``jacrev`` and ``hessian`` for a table of functions, as JSON, to compare jaxle
with JAX 0.10.2.

Only the ``structure`` is compared: jaxle has no shardings, so it skips conversions to the operand's own type.

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


def _same_type(eqn) -> bool:
    source, result = eqn.invars[0].aval, eqn.outvars[0].aval
    return (source.dtype, source.weak_type) == (result.dtype, result.weak_type)


def structure(closed) -> list[str]:
    """The equations of ``closed`` with canonical variable names, and conversions to the operand's own type left out
    (JAX stages them because they carry a sharding; jaxle has no shardings and skips them)."""
    names: dict[int, str] = {}
    count = iter(range(1 << 30))

    def name(atom) -> str:
        if hasattr(atom, "val"):
            return f"{np.asarray(atom.val).tolist()!r}:{atom.aval.str_short(short_dtypes=True)}"
        return names[id(atom)]

    def bind(var, alias=None) -> str:
        names[id(var)] = name(alias) if alias is not None else f"v{next(count)}"
        return f"{names[id(var)]}:{var.aval.str_short(short_dtypes=True)}"

    lines = [" ".join(bind(v) for v in closed.jaxpr.invars)]
    for eqn in closed.jaxpr.eqns:
        prim, params, source = eqn.primitive.name, eqn.params, [name(v) for v in eqn.invars]
        if prim == "convert_element_type" and _same_type(eqn):
            bind(eqn.outvars[0], eqn.invars[0])
        else:
            shown = " ".join(f"{k}={v}" for k, v in sorted(params.items())
                             if k != "sharding" or prim != "convert_element_type")  # JAX's differs but is not printed
            lines.append(f"{' '.join(bind(v) for v in eqn.outvars)} = {prim}[{shown}] {' '.join(source)}")
    lines.append("out " + " ".join(name(v) for v in closed.jaxpr.outvars))
    return lines


def render(module_name: str) -> dict[str, dict]:
    """For each case, JAX's printed text and the ``structure`` of its jaxpr."""
    impl = importlib.import_module(module_name)
    lax = importlib.import_module(f"{module_name}.lax")
    rendered = {}
    for name, fn, args in cases(impl, lax) + tree_cases(impl, lax):
        closed = impl.make_jaxpr(fn)(*args)
        rendered[name] = {"text": str(closed), "structure": structure(closed)}
    return rendered


if __name__ == "__main__":
    write_golden(render)
