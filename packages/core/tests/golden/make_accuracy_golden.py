"""Write accuracy_golden.json: the ``accuracy=`` parameter of lax's unary math functions (``AccuracyMode``,
``Tolerance``) in jaxprs, values, derivatives (some rules change with HIGHEST), vmap and errors:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_accuracy_golden.py jax
"""

import numpy as np
from make_reductions_golden import rand, write_text_cases

FUNCTIONS = ["exp", "exp2", "log", "log1p", "expm1", "tanh", "logistic", "sin", "cos", "tan", "sqrt", "rsqrt",
             "cbrt"]
X = np.abs(rand((3,), "float32")) + np.float32(0.25)  # inside every function's domain

CASES = {}
for _name in FUNCTIONS:
    CASES.update({
        f"{_name}-highest": lambda m, n=_name: (lambda x: getattr(m.lax, n)(x, accuracy=m.lax.AccuracyMode.HIGHEST),
                                                (X,)),
        f"{_name}-default": lambda m, n=_name: (lambda x: getattr(m.lax, n)(x, accuracy=m.lax.AccuracyMode.DEFAULT),
                                                (X,)),
        f"grad-{_name}-highest": lambda m, n=_name: (
            m.grad(lambda x: getattr(m.lax, n)(x, accuracy=m.lax.AccuracyMode.HIGHEST)), (np.float32(0.5),)),
        f"grad-{_name}-default": lambda m, n=_name: (
            m.grad(lambda x: getattr(m.lax, n)(x, accuracy=m.lax.AccuracyMode.DEFAULT)), (np.float32(0.5),)),
    })
for _name in ["expm1", "tanh", "logistic", "cos"]:
    CASES[f"jvp-{_name}-highest"] = lambda m, n=_name: (
        lambda x: m.jvp(lambda x: getattr(m.lax, n)(x, accuracy=m.lax.AccuracyMode.HIGHEST), (x,), (x,)), (X,))
CASES.update({
    "vmap-exp-highest": lambda m: (m.vmap(lambda x: m.lax.exp(x, accuracy=m.lax.AccuracyMode.HIGHEST)),
                                   (rand((2, 3), "float32"),)),
    "jit-sin-highest": lambda m: (m.jit(lambda x: m.lax.sin(x, accuracy=m.lax.AccuracyMode.HIGHEST)), (X,)),
    "tolerance-exp": lambda m: (lambda x: m.lax.exp(x, accuracy=m.lax.Tolerance(atol=1e-5, ulps=2)), (X,)),
    "tolerance-log-rtol": lambda m: (lambda x: m.lax.log(x, accuracy=m.lax.Tolerance(rtol=1e-3)), (X,)),
    "tolerance-int-fields": lambda m: (lambda: (m.lax.Tolerance(1, 0, 0).atol, m.lax.Tolerance(ulps=3).ulps), ()),
    "logistic-ignores-accuracy": lambda m: (lambda x: m.lax.logistic(x, accuracy="anything"), (X,)),
    "err-tolerance-negative-atol": lambda m: (lambda: m.lax.Tolerance(-1.0), ()),
    "err-tolerance-negative-ulps": lambda m: (lambda: m.lax.Tolerance(0.0, 0.0, -1), ()),
    "err-tolerance-none-set": lambda m: (lambda: m.lax.Tolerance(0.0, 0.0, 0), ()),
    "err-tolerance-string": lambda m: (lambda: m.lax.Tolerance("a"), ()),
    "err-exp-unknown-accuracy": lambda m: (lambda x: m.lax.exp(x, accuracy="x"), (X,)),
    "err-sqrt-unknown-accuracy": lambda m: (lambda x: m.lax.sqrt(x, accuracy=3), (X,)),
    "err-jit-tanh-unknown-accuracy": lambda m: (m.jit(lambda x: m.lax.tanh(x, accuracy="x")), (X,)),
})

if __name__ == "__main__":
    write_text_cases(CASES, "accuracy_golden.json")
