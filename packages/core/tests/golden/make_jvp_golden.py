"""Print the jaxpr of ``jvp`` for a table of functions, as JSON, to compare jaxle with JAX 0.10.2.

Usage: ``python make_jvp_golden.py jax [OUT.json]`` (with JAX 0.10.2's interpreter) writes the goldens;
with ``jaxle_core`` it prints jaxle's text. The module provides ``lax``, ``jit``, ``make_jaxpr`` and ``jvp``.
``render_table`` and ``write_golden`` are shared by the other jvp golden generators.
"""

from __future__ import annotations

import importlib
import json
import sys

import numpy as np

f32 = np.float32
UNARY = ["neg", "sign", "floor", "exp", "exp2", "log", "log1p", "expm1", "tanh", "logistic", "sin", "cos", "tan",
         "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "sqrt", "rsqrt", "cbrt", "abs", "square",
         "is_finite"]
BINARY = ["add", "sub", "mul", "div", "rem", "max", "min", "atan2"]


def cases(lax, jit, jvp):
    """``(name, function, example arguments)`` triples; each function returns a jvp's outputs."""
    table = []
    for name in UNARY:
        fn = getattr(lax, name)
        table.append((f"unary_{name}", lambda x, t, fn=fn: jvp(fn, (x,), (t,)), (f32(0.5), f32(1.0))))
    for name in BINARY:
        fn = getattr(lax, name)
        table.append((f"binary_{name}", lambda x, y, t, s, fn=fn: jvp(fn, (x, y), (t, s)),
                      (f32(0.5), f32(2.0), f32(1.0), f32(1.0))))
        table.append((f"binary_{name}_first_only", lambda x, y, t, fn=fn: jvp(lambda a: fn(a, y), (x,), (t,)),
                      (f32(0.5), f32(2.0), f32(1.0))))
        table.append((f"binary_{name}_second_only", lambda x, y, t, fn=fn: jvp(lambda b: fn(x, b), (y,), (t,)),
                      (f32(0.5), f32(2.0), f32(1.0))))
    for power in (-1, 0, 2, 3):
        table.append((f"integer_pow_{power}", lambda x, t, p=power: jvp(lambda a: lax.integer_pow(a, p), (x,), (t,)),
                      (f32(0.5), f32(1.0))))
    table += [
        ("jit_inside", lambda x, t: jvp(jit(lambda a: lax.sin(a) * a), (x,), (t,)), (f32(0.5), f32(1.0))),
        ("nested", lambda x: jvp(lambda y: jvp(lax.sin, (y,), (y,))[1], (x,), (x,)), (f32(0.5),)),
        ("constant_output", lambda x: jvp(lambda y: 3.0 * lax.broadcast_in_dim(f32(1.0), (3,), ()), (x,), (x,)),
         (f32(0.5),)),
        ("integer_output", lambda x: jvp(lambda y: lax.convert_element_type(y * 2, np.int32), (x,), (x,)),
         (f32(0.5),)),
        ("dot", lambda x, y, t, s: jvp(lambda a, b: lax.dot_general(a, b, (((1,), (0,)), ((), ()))), (x, y), (t, s)),
         (np.ones((2, 3), f32), np.ones((3, 4), f32), np.ones((2, 3), f32), np.ones((3, 4), f32))),
        ("reduce_sum_reshape", lambda x, t: jvp(lambda a: lax.reduce_sum(lax.reshape(a, (6,)), (0,)), (x,), (t,)),
         (np.ones((2, 3), f32), np.ones((2, 3), f32))),
        ("reduce_max", lambda x, t: jvp(lambda a: lax.reduce_max(a, (1,)), (x,), (t,)),
         (np.ones((2, 3), f32), np.ones((2, 3), f32))),
        ("jit_closure", lambda x, y: jvp(jit(lambda a: lax.sin(a * y)), (x,), (x,)), (f32(1.0), f32(2.0))),
        ("select_n", lambda p, x, t: jvp(lambda a: lax.select_n(p, a, lax.neg(a)), (x,), (t,)),
         (np.array([True, False]), np.ones(2, f32), np.ones(2, f32))),
        ("abs_complex", lambda x, t: jvp(lax.abs, (x,), (t,)),
         (np.array([1 + 2j, -3 + 0.5j, 0j], np.complex64), np.array([0.5 - 1j, 2 + 1j, 1 + 1j], np.complex64))),
        ("abs_complex_scalar", lambda x, t: jvp(lax.abs, (x,), (t,)), (np.complex64(1 + 1j), np.complex64(1j))),
        ("concatenate_zero_operand", lambda x, y, t: jvp(lambda a: lax.concatenate([a, y], 0), (x,), (t,)),
         (np.ones(2, f32), np.ones(3, f32), np.ones(2, f32))),
    ]
    return table


def render_table(module_name: str, table) -> dict[str, str]:
    """The jaxpr text of every ``(name, function, arguments)`` that ``table(module, lax)`` lists."""
    impl = importlib.import_module(module_name)
    lax = importlib.import_module(f"{module_name}.lax")
    return {name: str(impl.make_jaxpr(fn)(*args)) for name, fn, args in table(impl, lax)}


def write_golden(render) -> None:
    """``render(argv[1])`` as JSON: into the file argv[2] when given, else printed."""
    text = json.dumps(render(sys.argv[1]), indent=1, sort_keys=True)
    if len(sys.argv) > 2:
        with open(sys.argv[2], "w") as f:
            f.write(text + "\n")
    else:
        print(text)


def render(module_name: str) -> dict[str, str]:
    return render_table(module_name, lambda impl, lax: cases(lax, impl.jit, impl.jvp))


if __name__ == "__main__":
    write_golden(render)
