"""Write platform_composite_golden.json: lax.platform_dependent and lax.composite with the named module,
values and the jaxprs of jvp/grad/vmap through them:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_platform_composite_golden.py jax
"""

import importlib
import json
import sys

import numpy as np
from make_jvp_golden import render_table
from make_reductions_golden import HERE, rand, record


def _scale(x, scale):
    return x * scale


def _pair(x, y):
    return x + y, x * y


CASES = {
    "platform-cpu-default": lambda lax: (
        lambda x: lax.platform_dependent(x, cpu=lax.sin, default=lax.cos), (rand((3,), "float32"),)),
    "platform-tpu-default": lambda lax: (
        lambda x: lax.platform_dependent(x, tpu=lax.sin, default=lax.cos), (rand((3,), "float32"),)),
    "platform-grouped": lambda lax: (
        lambda x: lax.platform_dependent(x, cuda=lax.sin, rocm=lax.sin, cpu=lax.cos), (rand((3,), "float32"),)),
    "platform-only-cpu": lambda lax: (lambda x: lax.platform_dependent(x, cpu=lax.exp), (rand((3,), "float32"),)),
    "platform-only-default": lambda lax: (lambda x: lax.platform_dependent(x, default=lax.exp),
                                          (rand((3,), "float32"),)),
    "platform-two-args": lambda lax: (
        lambda x: lax.platform_dependent(x, 2.0, cpu=lambda a, b: a * b, default=lambda a, b: a + b),
        (rand((3,), "float32"),)),
    "platform-tuple-out": lambda lax: (
        lambda x: lax.platform_dependent(x, cpu=lambda a: (a * 2, 1), default=lambda a: (a, 2)),
        (rand((2,), "float32"),)),
    "err-platform-gpu": lambda lax: (lambda x: lax.platform_dependent(x, gpu=lax.sin, cpu=lax.cos),
                                     (rand((3,), "float32"),)),
    "err-platform-types": lambda lax: (
        lambda x: lax.platform_dependent(x, cpu=lambda a: a, default=lambda a: a.astype(np.int32)),
        (rand((3,), "float32"),)),
    "err-platform-missing": lambda lax: (lambda x: lax.platform_dependent(x, tpu=lax.sin),
                                         (rand((3,), "float32"),)),
    "composite-tanh": lambda lax: (lax.composite(lax.tanh, "my.tanh"), (rand((3,), "float32"),)),
    "composite-attributes": lambda lax: (
        lambda x: lax.composite(_scale, "my.scale", version=2)(x, scale=np.float32(2.0)), (rand((3,), "float32"),)),
    "composite-weak-attribute": lambda lax: (
        lambda x: lax.composite(_scale, "my.scale")(x, scale=2.0), (rand((3,), "float32"),)),
    "composite-pair": lambda lax: (lax.composite(_pair, "my.pair"), (rand((3,), "float32"), rand((3,), "float32"))),
    "composite-weak-operand": lambda lax: (lambda x: lax.composite(_pair, "my.pair")(x, 1.0),
                                           (rand((3,), "float32"),)),
}


def transforms(impl, lax):
    """``(name, function, arguments)``: jvp, grad and vmap through platform_dependent."""
    x = np.arange(3, dtype=np.float32)
    pick = lambda y: lax.platform_dependent(y, cpu=lax.sin, default=lax.cos)  # noqa: E731
    return [
        ("jvp-platform", lambda x: impl.jvp(pick, (x,), (x,)), (x,)),
        ("grad-platform", impl.grad(pick), (np.float32(1),)),
        ("vmap-platform", impl.vmap(pick), (x,)),
    ]


def transform_errors(impl, lax):
    """The errors of transforming a composite, as ``{name: [type, message]}``."""
    tanh = lax.composite(lax.tanh, "my.tanh")
    x = np.arange(3, dtype=np.float32)
    errors = {}
    for name, run in [("jvp", lambda: impl.jvp(tanh, (x,), (x,))), ("vmap", lambda: impl.vmap(tanh)(x))]:
        try:
            run()
        except Exception as error:  # noqa: BLE001 - the error is what we record
            errors[name] = [type(error).__name__, str(error)]
    return errors


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    golden = {"cases": record(module, CASES), "jaxprs": render_table(sys.argv[1], transforms),
              "transform_errors": transform_errors(module, module.lax)}
    (HERE / "platform_composite_golden.json").write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
