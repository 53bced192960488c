"""Write placed_jit_jaxprs_golden.json: jitted functions given a device (``jit(f, device=d)``, ``backend=``) or some
in_shardings, called inside another function, recorded from the module named on the command line: the jaxprs
make_jaxpr prints (each jit equation's in_shardings and out_shardings, unspecified ones as ``UnspecifiedValue``,
through grad, jvp, linearize and vmap, the residuals' unspecified), the outer program's lowered text and the device
its result is on.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_placed_jit_jaxprs_golden.py jax
"""

import pathlib
import warnings

import golden_main
import numpy as np
from golden_cases import typed_mesh

HERE = pathlib.Path(__file__).parent
ROW = np.arange(4.0, dtype=np.float32)


def _placed(jax, f, **placement):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # jit's device= and backend= are deprecated
        return jax.jit(f, **placement)


def _on_device(jax, f):
    return _placed(jax, f, device=jax.devices()[2])


def _product(jax):
    return _on_device(jax, lambda v: jax.numpy.sin(v) * v)


def _partly_given(jax):
    replicated = jax.sharding.NamedSharding(typed_mesh(jax, "Auto", shape=(8,), names=("i",)), jax.P())
    return jax.jit(lambda v, w: jax.numpy.sin(v) * w, in_shardings=(replicated, None))


def _split(jax):
    split = jax.sharding.NamedSharding(typed_mesh(jax, "Auto", shape=(8,), names=("i",)), jax.P("i"))
    return jax.jit(lambda v, w: jax.numpy.sin(v) * w, in_shardings=(split, None), out_shardings=split)


def _jaxpr(build):
    return lambda jax: str(build(jax))


CASES = {
    "nested": _jaxpr(lambda jax: jax.make_jaxpr(lambda v: _on_device(jax, lambda w: w * 2)(v) + 1)(ROW)),
    "nested_two_arguments": _jaxpr(lambda jax: jax.make_jaxpr(
        lambda v: _on_device(jax, lambda a, b: (a * 2, b))(v, 3))(ROW)),
    "nested_backend": _jaxpr(lambda jax: jax.make_jaxpr(
        lambda v: _placed(jax, lambda w: w * 2, backend="cpu")(v) + 1)(ROW)),
    "nested_closure": _jaxpr(lambda jax: jax.make_jaxpr(
        lambda v: _on_device(jax, lambda w: w * jax.numpy.ones(4))(v))(ROW)),
    "grad": _jaxpr(lambda jax: jax.make_jaxpr(jax.grad(lambda v: _product(jax)(v).sum()))(ROW)),
    "grad_linear": _jaxpr(lambda jax: jax.make_jaxpr(jax.grad(
        lambda v: _on_device(jax, lambda w: w * 2)(v).sum()))(ROW)),
    "jvp": _jaxpr(lambda jax: jax.make_jaxpr(lambda v: jax.jvp(_product(jax), (v,), (v,)))(ROW)),
    "linearize": _jaxpr(lambda jax: jax.make_jaxpr(lambda v: jax.linearize(_product(jax), v)[1](v))(ROW)),
    "vmap": _jaxpr(lambda jax: jax.make_jaxpr(jax.vmap(_product(jax)))(ROW.reshape(2, 2))),
    "partly_given": _jaxpr(lambda jax: jax.make_jaxpr(lambda v: _partly_given(jax)(v, v))(ROW)),
    "partly_given_grad": _jaxpr(lambda jax: jax.make_jaxpr(jax.grad(lambda v: _partly_given(jax)(v, v).sum()))(
        ROW)),
    "partly_given_vmap": _jaxpr(lambda jax: jax.make_jaxpr(jax.vmap(lambda v: _partly_given(jax)(v, v)))(
        np.ones((8, 4), np.float32))),
    "split_vmap": _jaxpr(lambda jax: jax.make_jaxpr(jax.vmap(lambda v: _split(jax)(v, v)))(
        np.ones((2, 8), np.float32))),
    "split_vmap_last_axis": _jaxpr(lambda jax: jax.make_jaxpr(jax.vmap(
        lambda v: _split(jax)(v, v), in_axes=1, out_axes=1))(np.ones((8, 2), np.float32))),
    "lowered": lambda jax: jax.jit(lambda v: _on_device(jax, lambda w: w * 2)(v) + 1).lower(ROW).as_text(),
    "result": lambda jax: _result(jax.jit(lambda v: _on_device(jax, lambda w: w * 2)(v) + 1)(ROW)),
    "grad_result": lambda jax: _result(jax.jit(jax.grad(lambda v: _product(jax)(v).sum()))(ROW)),
}


def _result(out) -> str:
    return f"{np.asarray(out).tolist()} on {sorted(d.id for d in out.devices())}"


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "placed_jit_jaxprs_golden.json")
