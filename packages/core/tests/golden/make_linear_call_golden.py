"""Write linear_call_golden.json: ``custom_derivatives.linear_call`` with the named module: per case the jaxprs of
the function and of its gradient, the values of the call, its gradient and its jvp, or the error:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_linear_call_golden.py jax
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).parent
SCALE = np.array([1.0, -2.0, 0.5], np.float32)


def _scaled(m, linear_call):
    def f(x, y):
        return linear_call(lambda r, t: r * t, lambda r, ct: 2 * r * ct, y, x)
    return f, (np.float32(1.5), np.float32(3.0))


def _pytrees(m, linear_call):
    def fun(res, lin):
        return {"u": res["a"] * lin[0] + lin[1], "v": m.lax.neg(lin[1]) * SCALE}

    def fun_t(res, ct):
        return (m.lax.reduce_sum(res["a"] * ct["u"], (0,)), ct["u"] - ct["v"] * SCALE)

    def f(x, a):  # every linear operand depends on x (JAX 0.10.2 fails on a linear operand with a zero tangent)
        out = linear_call(fun, fun_t, {"a": a}, (x, x * SCALE))
        return m.lax.reduce_sum(out["u"] * out["v"], (0,))
    return f, (np.float32(0.5), np.array([2.0, 1.0, -1.0], np.float32))


def _closure(m, linear_call):
    def f(x):
        return linear_call(lambda r, t: t * SCALE, lambda r, ct: ct * SCALE, (), x)
    return lambda x: m.lax.reduce_sum(f(x), (0,)), (np.ones(3, np.float32),)


CASES = {"scaled": _scaled, "pytrees": _pytrees, "closure": _closure}


def run_case(m, linear_call, name: str) -> dict:
    f, args = CASES[name](m, linear_call)
    record = {}
    for key, compute in [("jaxpr", lambda: str(m.make_jaxpr(f)(*args))),
                         ("grad_jaxpr", lambda: str(m.make_jaxpr(m.grad(f))(*args))),
                         ("value", lambda: np.asarray(f(*args)).tolist()),
                         ("grad", lambda: np.asarray(m.grad(f)(*args)).tolist()),
                         ("jvp", lambda: np.asarray(m.jvp(lambda x: f(x, *args[1:]), (args[0],),
                                                          (np.ones_like(args[0]),))[1]).tolist()),
                         ("vmap", lambda: np.asarray(m.vmap(f)(*[np.stack([a, a]) for a in args])).tolist())]:
        try:
            record[key] = compute()
        except Exception as error:  # noqa: BLE001 - the error is what we record
            record[key] = {"error": type(error).__name__, "message": str(error).split("\n")[0]}
    return record


def main() -> None:
    m = importlib.import_module(sys.argv[1])
    linear_call = importlib.import_module(f"{sys.argv[1]}.custom_derivatives").linear_call
    records = {name: run_case(m, linear_call, name) for name in CASES}
    (HERE / "linear_call_golden.json").write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    print(f"{len(records)} cases -> {HERE / 'linear_call_golden.json'}")


if __name__ == "__main__":
    main()
