"""Write compute_on_golden.json: the operations of a ``jax.experimental.compute_on`` block as the lowered program marks
them (``_xla_compute_type``, a GPU stream's annotation), through nested ``jit``, control flow and differentiation,
and its errors, recorded from the module named on the command
line.

    XLA_FLAGS=--xla_force_host_platform_device_count=8 /work/jaxpeer/bin/python \
        multidevice-tests/golden/make_compute_on_golden.py jax
"""

import importlib
import inspect
import json
import pathlib
import re
import sys

import numpy as np

HERE = pathlib.Path(__file__).parent
X = np.arange(4.0, dtype=np.float32)


def _outcome(thunk) -> str:
    try:
        return str(thunk())
    except Exception as error:  # the type and message are what is compared
        return f"{type(error).__name__}: {str(error).splitlines()[0]}"


def _text(jax, fun, *args) -> str:
    """``jit(fun)``'s lowered StableHLO without result names (which jaxle does not write)."""
    text = re.sub(r'jax\.result_info = "[^"]*"(, )?', "", jax.jit(fun).lower(*args).as_text())
    text = text.replace(" {})", ")").replace("({})", "()")
    return re.sub(r"-> \((tensor<[^>]*>)\) \{", r"-> \1 {", text)  # one result left without attributes


def _api(jax):
    return importlib.import_module(jax.__name__ + ".experimental.compute_on")


def _jnp(jax):
    return importlib.import_module(jax.__name__ + ".numpy")


def _block(jax, compute_type: str):
    """A function whose middle operations run on ``compute_type``."""
    def fun(v):
        with _api(jax).compute_on(compute_type):
            w = _jnp(jax).sin(v * 2)
        return w + 1
    return fun


def _nested_jit(jax):
    @jax.jit
    def inner(v):
        return v * 3

    def fun(v):
        inner(v)  # traced outside the block first: traced again inside it
        with _api(jax).compute_on("device_host"):
            return inner(v) - 1
    return fun


def _cond(jax):
    def fun(v):
        with _api(jax).compute_on("device_host"):
            return jax.lax.cond(v[0] > 0, lambda w: w * 2, lambda w: -w, v)
    return fun


def _while(jax):
    def fun(v):
        with _api(jax).compute_on("device_host"):
            return jax.lax.while_loop(lambda c: c[0] < 10, lambda c: c * 2 + 1, v)
    return fun


def _grad(jax):
    def fun(v):
        with _api(jax).compute_on("device_host"):
            w = v * v
        return w.sum()
    return jax.grad(fun)


def _vmapped(jax):
    return jax.vmap(_block(jax, "device_host"))


CASES = {
    "signatures": lambda jax: _outcome(lambda: [f"{name}{inspect.signature(getattr(_api(jax), name))}"
                                                for name in ("compute_on",)]),
    "lowered_device_host": lambda jax: _outcome(lambda: _text(jax, _block(jax, "device_host"), X)),
    "lowered_device": lambda jax: _outcome(lambda: _text(jax, _block(jax, "device"), X)),
    "lowered_tpu_sparsecore": lambda jax: _outcome(lambda: _text(jax, _block(jax, "tpu_sparsecore"), X)),
    "lowered_gpu_stream": lambda jax: _outcome(lambda: _text(jax, _block(jax, "gpu_stream:2"), X)),
    "invalid_compute_type": lambda jax: _outcome(lambda: _block(jax, "bogus")(X)),
    "eager_block": lambda jax: _outcome(lambda: np.asarray(_block(jax, "device_host")(X)).tolist()),
    "jitted_block": lambda jax: _outcome(lambda: np.asarray(jax.jit(_block(jax, "device_host"))(X)).tolist()),
    "jaxpr_of_block": lambda jax: _outcome(lambda: jax.make_jaxpr(_block(jax, "device_host"))(X)),
    "lowered_nested_jit": lambda jax: _outcome(lambda: _text(jax, _nested_jit(jax), X)),
    "lowered_inner_block_wins": lambda jax: _outcome(lambda: _text(jax, lambda v: _nested_blocks(jax, v), X)),
    "lowered_cond": lambda jax: _outcome(lambda: _text(jax, _cond(jax), X)),
    "lowered_while": lambda jax: _outcome(lambda: _text(jax, _while(jax), X)),
    "lowered_grad": lambda jax: _outcome(lambda: _text(jax, _grad(jax), X)),
    "grad_value": lambda jax: _outcome(lambda: np.asarray(_grad(jax)(X)).tolist()),
    "lowered_vmap": lambda jax: _outcome(lambda: _text(jax, _vmapped(jax), np.ones((2, 4), np.float32))),
}


def _nested_blocks(jax, v):
    with _api(jax).compute_on("device_host"):
        with _api(jax).compute_on("device"):
            return v * 2


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    assert module.device_count() == 8, "run with XLA_FLAGS=--xla_force_host_platform_device_count=8"
    (HERE / "compute_on_golden.json").write_text(json.dumps(run(module), indent=1, sort_keys=True) + "\n")
