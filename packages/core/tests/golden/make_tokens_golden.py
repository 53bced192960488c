"""Write tokens_golden.json: the jaxprs of lax.create_token and after_all (under jvp, grad and vmap too) and
the error of a non-token operand, with the named module:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_tokens_golden.py jax
"""

import importlib
import json
import sys

import numpy as np
from make_jvp_golden import render_table
from make_reductions_golden import HERE


def _side_token(lax, y):
    """``y * 2`` with a token made (and ordered after another) on the side."""
    lax.after_all(lax.create_token(y))
    return y * 2


def jaxprs(impl, lax):
    """``(name, function, arguments)``."""
    x = np.arange(3, dtype=np.float32)
    return [
        ("create_token", lambda: lax.create_token(), ()),
        ("create_token-ignored-argument", lambda x: lax.after_all(lax.create_token(x)), (x,)),
        ("after_all-two", lambda x: lax.after_all(lax.create_token(), lax.create_token()), (x,)),
        ("after_all-none", lambda x: lax.after_all(), (x,)),
        ("after_all-token-argument", lambda t: lax.after_all(t), (lax.create_token(),)),
        ("jvp", lambda x: impl.jvp(lambda y: _side_token(lax, y), (x,), (x,)), (np.float32(1),)),
        ("grad", impl.grad(lambda y: _side_token(lax, y)), (np.float32(1),)),
        ("vmap", impl.vmap(lambda y: [lax.create_token(y), y][1]), (x,)),
    ]


def errors(impl, lax):
    """``{name: [type, message]}`` of bad operands."""
    found = {}
    for name, run in [("after_all-float", lambda: impl.make_jaxpr(lambda: lax.after_all(1.0))())]:
        try:
            run()
        except Exception as error:  # noqa: BLE001 - the error is what we record
            found[name] = [type(error).__name__, str(error)]
    return found


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    golden = {"jaxprs": render_table(sys.argv[1], jaxprs), "errors": errors(module, module.lax)}
    (HERE / "tokens_golden.json").write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
