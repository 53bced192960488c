"""Golden data for symbolic dimensions: each case is a Python expression over a small namespace (``symbolic_shape``,
``max_dim``, ``min_dim``, ``SymbolicScope``, ``is_symbolic_dim`` and the dimensions below), recorded as the ``repr`` of
its result (with its type name) or the error's type and message. Run with JAX 0.10.2:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_shape_poly_golden.py jax

The tests replay every case on ``jaxle_core.shape_poly`` (``namespace`` builds the same names from either module).
"""

from __future__ import annotations

import importlib
import json
import pathlib
import re
import sys
import types

import numpy as np

HERE = pathlib.Path(__file__).parent
OUT = HERE / "shape_poly_golden.json"

SPECS = [
    "b, 2*b + 1, floordiv(n, 2), mod(n, 3), max(b, n), min(b,4)", "2*b, b*2, 3, b + n, n + b, a*b + c, c + b*a",
    "b-3*n+2, mod(b,2)*n + 1", "b, max(b, n), min(4, b), max(b,b), b^2*n^3 + n, 2 + b*n - 3*a",
    "floordiv(b, 4), floordiv(2*b, 2), mod(2*b, 2), floordiv(b,1), floordiv(b, -2), floordiv(b+1, 2)*2",
    "(b)", "b,", "", "(b, c)", "((b))", "b*-2", "-b", "b - -2", "+b", "b1, _b, B", "max(b, 2*c + 1)",
    "2 * b ^ 2", "mod(b,2)^2", "b + 0", "0", "-3", "0*b", "b -b", "b\n", "max(1, 2)", "floordiv(7, 2)", "b^0",
    "-3*b*b", "b*3*n", "n*b*3",
    # syntax errors
    "b, , n", "1.5", "b % 2", "a b", "max(b)", "b*", "b**2", "2^b", "b^-1", "2*(b+1)", "- - b", "3b",
    "b, ...", "..., b", "_, b", "b ^ 2 ^ 2", "b.c", "floordiv", "b, (c)", "non_negative(b)",
]

EXPRESSIONS = [
    "b+1", "1+b", "b-1", "1-b", "2*b", "b*2", "b*n", "n*b", "b//2", "b%2", "5//b", "5%b", "-b", "b*b", "(b+1)*(b-1)",
    "b+n", "n+b", "b*n+n*b", "b**2", "b**0", "b * b - b*b", "b * 0", "b//b", "b%b", "(b*n)%n", "(b*n)//n",
    "(2*b+1)//2", "(2*b)//2", "(2*b)%2", "(2*b+1)%2", "(2*b + 4)//2", "(2*b + 3)//2", "(b+n)//1", "(6*b)//4",
    "(6*b)%4", "(-b)//2", "4//b", "b//(n+1)", "b % (n + 1)", "(b*n+n)//n", "(b//2)//3", "b // -2", "b % -2",
    "divmod(b, 2)", "b//0", "b % 0", "str(b - 1)", "str(1-b)", "str(-b+n)", "str(n - b)",
    "a + b%2", "z + b%2", "z*(b%2)", "a*(b%2)", "z + b//2", "b%2 + b//2",
    "max_dim(a,b) + b//2 + min_dim(a,b) + b%2", "a*a + b", "a*b*b + a*a*b", "b*b + z*z + a", "3*a - 4*b + z - 7",
    "max_dim(b, n)", "min_dim(b, 3)", "max_dim(b, 0)", "max_dim(3,4)", "max_dim(b, b+1)", "min_dim(b, b+1)",
    "max_dim(b, 1)", "max_dim(b, -1)", "min_dim(b, 0)", "max_dim(b, 1.5)", "max_dim(2, 3.5)", "max_dim('x', 3)",
    "max_dim(b, n) == max_dim(n, b)", "max_dim(n, b)", "max_dim(b+1, b-1)", "min_dim(2*b, b+1)",
    "max_dim(2*b, b + 1)", "max_dim(b,n) - min_dim(b,n)",
    "b == b", "b == 1", "b == n", "b != 1", "b == 'x'", "b == b + 0", "(b + 1) - 1 == b", "b*n == n*b",
    "hash(b*n) == hash(n*b)", "(b, 1) == (b, 1)", "b in [1, 2]", "b//2*2 + b%2 == b", "bool(b)",
    "b >= 1", "b >= 0", "b > 0", "b < 0", "b >= 2", "b >= n", "b > 1", "b < 5", "b <= 5", "b >= b", "b - n >= 0",
    "b*n >= 1", "b*n >= b", "2*b >= b", "b//2 >= 0", "b%3 < 3", "b % 3 >= 0", "max_dim(b,n) >= b",
    "min_dim(b,n) <= n", "max_dim(b, 3) >= 3", "max_dim(b, 3) >= b", "min_dim(b, 3) <= 3", "min_dim(b,3) >= 1",
    "b - b//2 >= 0", "b//2 <= b", "(b+1)//2 >= 1", "b % 3 <= 2", "2*(b//2) <= b",
    "max_dim(b, n) - min_dim(b, n) >= 0", "b*n - b >= 0", "b + n >= 2", "b + n > 2", "3*b - 2 >= 1", "-b <= -1",
    "b < n", "int(b)", "float(b)", "abs(b)", "range(b)", "[1,2][:b]", "b ^ 2",
    "is_symbolic_dim(b)", "is_symbolic_dim(3)", "is_symbolic_dim(b-b)",
    # constraints and scopes (the scopes' addresses and locations are masked)
    "ab[0] >= ab[1]", "ab[0] >= 4", "ab[0] > 3", "ab[1] >= 5", "ab[0] - ab[1] >= 0", "ab[1] < 4",
    "max_dim(ab[0], ab[1])", "max_dim(ab[0], 3)", "min_dim(ab[1], 4)", "ab[0] + a", "ab[0] * a",
    "max_dim(ab[0], a)", "ab[0] == a", "a >= ab[0]", "ab[0].scope is ab[1].scope", "a.scope is b.scope",
    "ab[0].scope", "SymbolicScope(['a >= 2', 'b <= a'])",
    "symbolic_shape('a, b', constraints=('a == b + 1',))", "symbolic_shape('a, b, a - b', constraints=['a == b + 1'])",
    "symbolic_shape('a', constraints=['a > 3'])", "symbolic_shape('a', constraints=['a != 3'])",
    "symbolic_shape('a', constraints=['a'])", "symbolic_shape('a', constraints=['a >= b'])",
    "symbolic_shape('a', constraints=['3 >= 2'])", "symbolic_shape('a', constraints='a >= 2')",
    "symbolic_shape('a', constraints=['a == 3'])", "symbolic_shape('a, b', constraints=['a*b == 3'])",
    "symbolic_shape('a, b', constraints=['a == b', 'b==a'])", "symbolic_shape('a, b', constraints=['a + b == 3'])",
    "symbolic_shape('a, b', constraints=['3 == a'])", "symbolic_shape('a', constraints=['floordiv(a, 2) == 3'])",
    "symbolic_shape('a, b', constraints=['2*a == b'])",
    "symbolic_shape('a, b', scope=SymbolicScope())",
    "symbolic_shape('a', scope=SymbolicScope(['a >= 2']), constraints=['a>=3'])",
    "symbolic_shape('a, b', constraints=['a >= b + 2'])[0] >= 3",
    "symbolic_shape('a, b', constraints=['a >= b + 2'])[0] >= 4",
    "symbolic_shape('a, b', constraints=['a <= 8'])[0] <= 9",
    "symbolic_shape('a, b', constraints=['a <= 8'])[0] >= 9",
    "symbolic_shape('a, b', like=(3, None))", "symbolic_shape('a, ...', like=(3, 4, 5))",
    "symbolic_shape('a, _', like=(3, 4))", "symbolic_shape('3, b', like=(4, 5))", "symbolic_shape('a, b', like=(3,))",
    "symbolic_shape(3)", "symbolic_shape(None, like=(2, 3))", "symbolic_shape('a', like=(None,))",
    "symbolic_shape('_, _', like=(None,3))", "symbolic_shape('a, _', like=(None, 4))",
    "symbolic_shape('_, _', like=(3, 4))", "symbolic_shape('..., a', like=(3, 4))",
    "symbolic_shape('a, ..., b', like=(3, 4))", "symbolic_shape('a, b, c', like=(3, 4))",
    "symbolic_shape('a, ...', like=(3,))",
    # arguments' specs
    "symbolic_args_specs((np.ones((2,3), np.float32), np.ones(4, np.int32)), 'b, ...')",
    "symbolic_args_specs((np.ones((2,3), np.float32), np.ones(4, np.int32)), ('b, _', 'c'))",
    "symbolic_args_specs({'x': np.ones((2,3), np.float32)}, {'x': 'a, 2*a'})",
    "symbolic_args_specs((np.ones((2,3)),), ('a, b',), constraints=['a >= b'])",
    "symbolic_args_specs((np.ones((2,3)),), ('a, b',), constraints=['a >= b'])[0].shape[0] >= (1 + a)",
    "symbolic_args_specs((np.ones((2,3)),), None)", "symbolic_args_specs((np.ones((2,3)),), (None,))",
    "symbolic_args_specs((np.ones((2,3)), 3.0), ('a, b', None))",
    "symbolic_args_specs((np.ones((2,3)),), ('a, b', 'c'))",
    "symbolic_args_specs(np.ones((2,3)), 'a, b')", "symbolic_args_specs(np.ones((2,3)), 'a, 3, c')",
    "symbolic_args_specs((ShapeDtypeStruct((2,3), np.int8),), 'a, b')",
    "symbolic_args_specs((np.ones(2),), 'a', scope=SymbolicScope(), constraints=['a >= 2'])",
    "ShapeDtypeStruct(symbolic_shape('a, 3'), np.float32)", "ShapeDtypeStruct(symbolic_shape('a, 3'), np.float32).size",
]

_SCOPE = re.compile(r"\d+ created at \S+ \(\S+\)")


def namespace(m) -> dict:
    """The names the cases use, from ``m``: an object with JAX's ``symbolic_shape``, ``symbolic_args_specs``,
    ``SymbolicScope``, ``is_symbolic_dim``, ``max_dim``, ``min_dim`` and ``ShapeDtypeStruct``."""
    a, b, n, c, z = m.symbolic_shape("a, b, n, c, z")
    ab = m.symbolic_shape("a, b", constraints=("a >= b", "b >= 4"))
    names = ("symbolic_shape", "symbolic_args_specs", "SymbolicScope", "is_symbolic_dim", "max_dim", "min_dim",
             "ShapeDtypeStruct")
    return dict({name: getattr(m, name) for name in names}, np=np, a=a, b=b, n=n, c=c, z=z, ab=ab)


def run(expression: str, env: dict) -> dict:
    """The recorded outcome of one case: the result's repr and type name, or the error's type and message."""
    try:
        value = eval(expression, dict(env))
    except Exception as e:  # noqa: BLE001 - recording any error is the point
        return {"error": type(e).__name__, "message": _SCOPE.sub("<scope>", str(e))}
    return {"repr": _SCOPE.sub("<scope>", repr(value)), "type": type(value).__name__}


def main() -> None:
    jax = importlib.import_module(sys.argv[1])
    env = namespace(types.SimpleNamespace(**vars(jax.export), max_dim=jax.core.max_dim, min_dim=jax.core.min_dim,
                                          ShapeDtypeStruct=jax.ShapeDtypeStruct))
    cases = {f"spec {spec!r}": run(f"symbolic_shape({spec!r})", env) for spec in SPECS}
    cases.update({expression: run(expression, env) for expression in EXPRESSIONS})
    OUT.write_text(json.dumps(cases, indent=1) + "\n")


if __name__ == "__main__":
    main()
