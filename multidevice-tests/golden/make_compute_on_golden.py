"""Write compute_on_golden.json: the operations of a ``jax.experimental.compute_on`` block as the lowered program marks
them (``_xla_compute_type``, a GPU stream's annotation), through nested ``jit``, control flow and differentiation,
and its errors, and ``compute_on2``'s jaxprs (their derivatives' too), lowered text, results and errors, recorded
from the module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_compute_on_golden.py jax
"""

import importlib
import inspect
import pathlib

import golden_main
import numpy as np
from golden_cases import first_line, outcome

HERE = pathlib.Path(__file__).parent
X = np.arange(4.0, dtype=np.float32)


def _outcome(thunk) -> str:
    return outcome(thunk, str, message=first_line)


def _text(jax, fun, *args) -> str:
    """``jit(fun)``'s lowered StableHLO."""
    return jax.jit(fun).lower(*args).as_text()


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
                                                for name in ("compute_on", "compute_on2")]),
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
    # compute_on2: a function as one compute_on equation, its results in the memory spaces asked for
    "co2_jaxpr": lambda jax: _outcome(lambda: jax.make_jaxpr(_co2(jax, lambda v: v * 2, _space(jax, "Device")))(X)),
    "co2_lowered": lambda jax: _outcome(lambda: _text(jax, _co2(jax, lambda v: v * 2, _space(jax, "Device")), X)),
    "co2_lowered_to_host": lambda jax: _outcome(lambda: _text(jax, _co2(jax, lambda v: v * 2, _space(jax, "Host")),
                                                              X)),
    "co2_lowered_dense": lambda jax: _outcome(lambda: _text(jax, _co2(jax, lambda v: v * 2, _space(jax, "Device"),
                                                                      "device"), X)),
    "co2_lowered_gpu_stream": lambda jax: _outcome(lambda: _text(jax, _co2(
        jax, lambda v: v * 2, _space(jax, "Device"), "gpu_stream:3"), X)),
    "co2_lowered_compiler_options": lambda jax: _outcome(lambda: _text(jax, _co2(
        jax, lambda v: v * 2, _space(jax, "Device"), compiler_options={"a": "b"}), X)),
    "co2_spaces_per_result": lambda jax: _outcome(lambda: jax.make_jaxpr(_co2(
        jax, lambda v: (v * 2, v), (_space(jax, "Device"), _space(jax, "Host"))))(X)),
    "co2_one_space_for_two_results": lambda jax: _outcome(lambda: jax.make_jaxpr(_co2(
        jax, lambda v: (v * 2, v), _space(jax, "Device")))(X)),
    "co2_spaces_not_a_prefix": lambda jax: _outcome(lambda: _co2(jax, lambda v: v, (_space(jax, "Device"),))(X)),
    "co2_spaces_of_another_length": lambda jax: _outcome(lambda: _co2(
        jax, lambda v: (v, v), (_space(jax, "Device"),) * 3)(X)),
    "co2_invalid_compute_type": lambda jax: _outcome(lambda: _co2(jax, lambda v: v, _space(jax, "Device"),
                                                                  "bogus")(X)),
    "co2_keyword_arguments": lambda jax: _outcome(lambda: _co2(jax, lambda v, w=1: v * w, _space(jax, "Device"))(
        X, w=3)),
    "co2_decorator": lambda jax: _outcome(lambda: np.asarray(_api(jax).compute_on2(
        compute_type="device_host", out_memory_spaces=_space(jax, "Device"))(lambda v: v + 1)(X)).tolist()),
    "co2_eager_to_host": lambda jax: _outcome(lambda: _where(jax, _co2(jax, lambda v: v * 2, _space(jax, "Host"))(
        X))),
    "co2_jitted_to_host": lambda jax: _outcome(lambda: _where(jax, jax.jit(_co2(
        jax, lambda v: v * 2, _space(jax, "Host")))(X))),
    "co2_closed_over_constant": lambda jax: _outcome(lambda: jax.make_jaxpr(_co2(
        jax, lambda v: v + X, _space(jax, "Device")))(X)),
    "co2_nested": lambda jax: _outcome(lambda: jax.make_jaxpr(_co2(
        jax, lambda v: _co2(jax, lambda w: w + 1, _space(jax, "Device"), "device")(v), _space(jax, "Device")))(X)),
    "co2_jvp_jaxpr": lambda jax: _outcome(lambda: jax.make_jaxpr(lambda v, t: jax.jvp(_co2(
        jax, lambda w: _jnp(jax).sin(w), _space(jax, "Device")), (v,), (t,)))(X, X)),
    "co2_vmap_jaxpr": lambda jax: _outcome(lambda: jax.make_jaxpr(jax.vmap(_co2(
        jax, lambda w: _jnp(jax).sin(w), _space(jax, "Device"))))(np.ones((2, 4), np.float32))),
    "co2_grad_value": lambda jax: _outcome(lambda: np.asarray(jax.grad(_co2(
        jax, lambda w: _jnp(jax).sin(w).sum(), _space(jax, "Device")))(X)).tolist()),
    # differentiated in reverse: a known compute_on (results and residuals) and a transposed one
    "co2_grad_jaxpr": lambda jax: _outcome(lambda: jax.make_jaxpr(jax.grad(_sin_sum(jax)))(X)),
    "co2_grad_lowered": lambda jax: _outcome(lambda: _text(jax, jax.grad(_sin_sum(jax)), X)),
    "co2_grad_two_arguments_jaxpr": lambda jax: _outcome(lambda: jax.make_jaxpr(jax.grad(
        lambda a, b: sum(t.sum() for t in _two_results(jax)(a, b)), argnums=(0, 1)))(X, X)),
    "co2_grad_two_arguments_value": lambda jax: _outcome(lambda: np.round(np.asarray(jax.grad(
        lambda a, b: sum(t.sum() for t in _two_results(jax)(a, b)), argnums=(0, 1))(X, X)), 5).tolist()),
    "co2_linearize_jaxpr": lambda jax: _outcome(lambda: jax.make_jaxpr(
        lambda a: jax.linearize(_sin_sum(jax), a)[1](a))(X)),
    "co2_vjp_jaxpr": lambda jax: _outcome(lambda: jax.make_jaxpr(lambda a: jax.vjp(_sin_sum(jax), a))(X)),
    "co2_grad_of_grad_jaxpr": lambda jax: _outcome(lambda: jax.make_jaxpr(jax.grad(
        lambda a: jax.grad(_sin_sum(jax))(a).sum()))(X)),
    "co2_grad_of_grad_value": lambda jax: _outcome(lambda: np.round(np.asarray(jax.grad(
        lambda a: jax.grad(_sin_sum(jax))(a).sum())(X)), 5).tolist()),
    "co2_grad_linear_jaxpr": lambda jax: _outcome(lambda: jax.make_jaxpr(jax.grad(lambda a: _co2(
        jax, lambda w: w * 2, _space(jax, "Device"))(a).sum()))(X)),
    "co2_grad_result_on_host": lambda jax: _outcome(lambda: jax.grad(lambda a: _co2(
        jax, lambda w: _jnp(jax).sin(w) * 2, _space(jax, "Host"))(a).sum())(X)),
}


def _sin_sum(jax):
    return _co2(jax, lambda w: _jnp(jax).sin(w).sum(), _space(jax, "Device"))


def _two_results(jax):
    return _co2(jax, lambda w, u: (_jnp(jax).sin(w) * u, w * 3), _space(jax, "Device"))


def _space(jax, name: str):
    return getattr(jax.memory.Space, name)


def _co2(jax, fun, spaces, compute_type: str = "device_host", **options):
    return _api(jax).compute_on2(fun, compute_type=compute_type, out_memory_spaces=spaces, **options)


def _where(jax, array) -> str:
    return f"{array.sharding} {jax.typeof(array)} {np.asarray(array).tolist()}"


def _nested_blocks(jax, v):
    with _api(jax).compute_on("device_host"):
        with _api(jax).compute_on("device"):
            return v * 2


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "compute_on_golden.json")
